// A generic key `K<T>` used with a `T` that does not implement `KeySegment`.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K<T> {
    score: u64,
    item: T,
}

fn main() {
    let k = K {
        score: 1,
        item: vec![1u8],
    };
    let _ = k.encode();
}
