// A variant name with a character at or below `#` is rejected at the enum.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
enum Status {
    Pending,
    #[key(rename = "in transit")]
    InTransit,
}

fn main() {}
