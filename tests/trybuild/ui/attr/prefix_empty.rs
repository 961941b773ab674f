// An empty prefix, which would only add a separator to every key.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "")]
struct K {
    score: u64,
}

fn main() {}
