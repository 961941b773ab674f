// `max_len = 0`: no key could ever be written.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(max_len = 0)]
struct K {
    score: u64,
}

fn main() {}
