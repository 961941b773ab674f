// `prefix` takes a string literal.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = 'R')]
struct K {
    score: u64,
}

fn main() {}
