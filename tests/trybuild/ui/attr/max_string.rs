// `max` takes an integer literal.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 4, max = "5000")]
    score: u64,
}

fn main() {}
