// A separator given as a string of two characters instead of one `char`.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = "##")]
struct K {
    score: u64,
    player: String,
}

fn main() {}
