// `max = 100` needs 3 digits but a signed width 3 holds only 2 after the sign.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 3, max = 100)]
    x: i16,
}

fn main() {}
