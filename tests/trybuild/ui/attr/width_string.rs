// `width` takes an integer literal, not a string: `"10"` is refused, not read as 10.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = "10")]
    score: u64,
}

fn main() {}
