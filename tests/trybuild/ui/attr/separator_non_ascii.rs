// A separator that is not ASCII.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = '§')]
struct K {
    score: u64,
    player: String,
}

fn main() {}
