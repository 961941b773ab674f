// A nested key must use the outer key's separator.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = '|')]
struct Inner {
    #[key(width = 3)]
    a: u16,
}

#[derive(SortKey)]
struct Outer {
    inner: Inner,
    name: String,
}

fn main() {}
