// `width` needs a value.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width)]
    score: u64,
}

fn main() {}
