// `desc` on a `String`: text order cannot be reversed.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(desc)]
    player: String,
}

fn main() {}
