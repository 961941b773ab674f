// A prefix containing a control character (a tab).
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "A\tB")]
struct K {
    score: u64,
}

fn main() {}
