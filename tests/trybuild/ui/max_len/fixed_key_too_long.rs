// Every segment has a fixed width and together they are longer than `max_len`.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "RUN", max_len = 20)]
struct K {
    score: u64,
    timestamp: u64,
}

fn main() {}
