// An enum's order is the byte order of its names, which `desc` cannot reverse.
use sortkey_core::{KeySegment, SortKey};

#[derive(KeySegment)]
enum Status {
    Pending,
    Shipped,
}

#[derive(SortKey)]
struct Order {
    #[key(desc)]
    status: Status,
}

fn main() {}
