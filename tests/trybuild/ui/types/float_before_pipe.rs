// A float before another field needs a separator below '0': its digits would otherwise sort
// against the separator.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = '|')]
struct K {
    price: f64,
    name: String,
}

fn main() {}
