// `width` on a `bool`, whose segment is always one character.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 2)]
    done: bool,
}

fn main() {}
