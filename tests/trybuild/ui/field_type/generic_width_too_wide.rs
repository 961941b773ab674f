// A generic key whose `width` is too wide for the `T` it is used with, caught when it is used.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K<T> {
    #[key(width = 5)]
    item: T,
}

fn main() {
    let _ = K { item: 1u8 }.encode();
}
