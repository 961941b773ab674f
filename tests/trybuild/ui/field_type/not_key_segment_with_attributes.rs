// A field type that does not implement `KeySegment`, with attributes whose checks need it.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 3, max = 5, desc)]
    data: Vec<u8>,
}

fn main() {}
