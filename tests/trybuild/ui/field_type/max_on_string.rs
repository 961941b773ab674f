// `max` on a `String`, which is not an integer.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(max = 100)]
    player: String,
}

fn main() {}
