// `rename_all` takes a string literal.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
#[key(rename_all = snake_case)]
enum Tier {
    Gold,
}

fn main() {}
