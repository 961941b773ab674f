// `format = "hex"` is for floats.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(format = "hex")]
    n: u64,
}

fn main() {}
