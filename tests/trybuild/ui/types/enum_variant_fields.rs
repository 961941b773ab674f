// Only unit variants: a segment enum encodes the variant's name and nothing else.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
enum Status {
    Pending,
    Shipped(u32),
}

fn main() {}
