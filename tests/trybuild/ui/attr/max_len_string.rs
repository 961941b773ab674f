// `max_len` takes an integer literal.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(max_len = "2048")]
struct K {
    score: u64,
}

fn main() {}
