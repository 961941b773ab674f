// `crate` takes a path (or a string holding one), not an integer.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(crate = 5)]
struct K {
    score: u64,
}

fn main() {}
