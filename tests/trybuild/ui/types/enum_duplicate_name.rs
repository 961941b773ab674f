// Two variants with one encoding could not be told apart when decoding.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
#[key(rename_all = "lowercase")]
enum Status {
    Shipped,
    #[key(rename = "shipped")]
    Sent,
}

fn main() {}
