// `rename_all` takes serde's case names.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
#[key(rename_all = "Title Case")]
enum Status {
    Pending,
}

fn main() {}
