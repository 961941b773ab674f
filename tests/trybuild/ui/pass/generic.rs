// A generic key compiles and works with any `T: KeySegment`.
use sortkey_core::SortKey;

#[derive(SortKey, Debug, PartialEq)]
struct K<T> {
    #[key(width = 3)]
    score: u16,
    item: T,
}

fn main() {
    let k = K {
        score: 5,
        item: 42u8,
    };
    assert_eq!(k.encode().unwrap(), "005#042");
    assert_eq!(K::<u8>::decode("005#042").unwrap(), k);
    let k = K {
        score: 5,
        item: String::from("x"),
    };
    assert_eq!(k.encode().unwrap(), "005#x");
}
