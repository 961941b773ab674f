// `width = 1` on an `i32`: the sign takes the only position.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 1)]
    x: i32,
}

fn main() {}
