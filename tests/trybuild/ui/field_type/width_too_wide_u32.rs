// `width = 12` on a `u32`, whose largest value has 10 digits.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 12)]
    x: u32,
}

fn main() {}
