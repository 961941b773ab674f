// A separator that is a letter, not ASCII punctuation.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = 'a')]
struct K {
    score: u64,
    player: String,
}

fn main() {}
