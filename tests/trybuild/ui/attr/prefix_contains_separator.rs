// A prefix containing the separator `#`, which would put its keys under another key type's `begins_with`.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "A#B")]
struct K {
    score: u64,
}

fn main() {}
