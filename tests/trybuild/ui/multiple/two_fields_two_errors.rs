// Mistakes in two fields (a misspelled attribute, a zero width) are both reported.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(widht = 10)]
    a: u64,
    #[key(width = 0)]
    b: u64,
}

fn main() {}
