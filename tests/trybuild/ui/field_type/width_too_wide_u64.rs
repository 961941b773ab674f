// The case: a width over what `u64` holds is an ordinary error at the attribute.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 25)]
    score: u64,
}

fn main() {}
