// `width` on a `String`, whose segment has the length of its text.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 10)]
    player: String,
}

fn main() {}
