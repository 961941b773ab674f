// `rename` takes a string literal.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
enum Tier {
    #[key(rename = 1)]
    Gold,
}

fn main() {}
