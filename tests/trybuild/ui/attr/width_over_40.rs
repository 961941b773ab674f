// A width over 40, wider than any integer type (i128 needs a sign and 39 digits).
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 41)]
    score: u128,
}

fn main() {}
