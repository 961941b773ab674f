// `scale` is for fixed-point decimals; cents are an integer field without scale.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(scale = 2)]
    price_cents: u64,
}

fn main() {}
