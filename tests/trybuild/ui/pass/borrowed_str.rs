// A key with a borrowed `&'a str` field decodes without allocating.
use sortkey_core::{DecodeKey, SortKey};

#[derive(SortKey, Debug, PartialEq)]
struct K<'a> {
    #[key(width = 2, desc)]
    level: u8,
    name: &'a str,
}

fn main() {
    let k = K {
        level: 3,
        name: "abc",
    };
    let s = k.encode().unwrap();
    assert_eq!(s, "96#abc");
    assert_eq!(K::decode_borrowed(&s).unwrap(), k);
}
