// `desc` is a flag; `desc = true` is not how it is written.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(desc = true)]
    score: u64,
}

fn main() {}
