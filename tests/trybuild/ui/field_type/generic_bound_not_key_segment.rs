// A generic key `K<T>` passed where a `SortKey` is needed, with a `T` that is not a segment.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K<T> {
    score: u64,
    item: T,
}

fn store(key: &impl SortKey) -> String {
    key.encode().unwrap()
}

fn main() {
    store(&K {
        score: 1,
        item: vec![1u8],
    });
}
