// `max` on a `bool`, which is not an integer.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(max = 1)]
    done: bool,
}

fn main() {}
