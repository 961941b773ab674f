// Floats in both forms, desc, and as the key's last field.
use sortkey_core::SortKey;

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "PR")]
struct Price {
    #[key(desc)]
    amount: f64,
    #[key(format = "hex")]
    weight: f32,
    rating: Option<f32>,
}

fn main() {
    let p = Price { amount: 19.99, weight: 0.5, rating: Some(-4.5) };
    let key = p.encode().unwrap();
    assert_eq!(key, "PR#M4988000~#bf000000#1M4954~");
    assert_eq!(Price::decode(&key).unwrap(), p);
    assert!(Price { amount: f64::NAN, ..p }.encode().is_err());
}
