// `max = 1000` needs 4 digits but the field's width is 3.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 3, max = 1000)]
    score: u16,
}

fn main() {}
