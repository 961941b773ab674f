// An enum cannot be a key.
use sortkey_core::SortKey;

#[derive(SortKey)]
enum K {
    A { score: u64 },
    B { score: u64 },
}

fn main() {}
