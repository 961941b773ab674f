// `width = 0` cannot hold any value.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 0)]
    score: u64,
}

fn main() {}
