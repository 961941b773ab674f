// `width` given twice on one field.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 10, width = 12)]
    score: u64,
}

fn main() {}
