// `width = 4` on a type alias of `u8`: the type check sees through the alias.
use sortkey_core::SortKey;

type Score = u8;

#[derive(SortKey)]
struct K {
    #[key(width = 4)]
    score: Score,
}

fn main() {}
