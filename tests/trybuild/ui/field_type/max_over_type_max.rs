// `max = 1000` on a `u8`, which has no such value.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(max = 1000)]
    x: u8,
}

fn main() {}
