// A unit struct with a prefix is a key that is just the prefix.
use sortkey_core::SortKey;

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "META")]
struct Meta;

fn main() {
    assert_eq!(Meta.encode().unwrap(), "META");
    assert_eq!(Meta::decode("META").unwrap(), Meta);
}
