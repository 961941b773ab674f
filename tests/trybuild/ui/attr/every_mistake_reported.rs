// Several mistakes in one list are all reported, each at its own token.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefx = "R", separator = "##")]
struct K {
    #[key(width = "10", dsc, max = 5)]
    score: u64,
}

fn main() {}
