// A field of type `Vec<u8>`, which does not implement `KeySegment`.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    score: u64,
    data: Vec<u8>,
}

fn main() {}
