// A key with two lifetime parameters; decoded text borrows from the key for one.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K<'a, 'b> {
    first: &'a str,
    second: &'b str,
}

fn main() {}
