// `f64` is no segment type: one error, at the field, with the list of segment types.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Price {
    #[key(width = 4)]
    sku: u32,
    amount: f64,
}

fn main() {
    let _ = Price::query().sku(1).amount_gt(1.5);
    let _ = Price::decode("0001#1.5");
}
