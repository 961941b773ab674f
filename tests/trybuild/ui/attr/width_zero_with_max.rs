// `width = 0` together with a `max`: one mistake, one error (not a second one about `max`).
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 0, max = 5)]
    score: u64,
}

fn main() {}
