// Lower-case names sort below `|`, so they cannot come before another field of a `|` key.
use sortkey_core::{KeySegment, SortKey};

#[derive(KeySegment)]
#[key(rename_all = "lowercase")]
enum Status {
    Pending,
    Shipped,
}

#[derive(SortKey)]
#[key(separator = '|')]
struct Order {
    status: Status,
    #[key(width = 6)]
    id: u32,
}

fn main() {}
