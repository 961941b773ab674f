// The hex form has a fixed width: a float in it may stand before a high separator.
use sortkey_core::SortKey;

#[derive(SortKey, Debug, PartialEq)]
#[key(separator = '|')]
struct K {
    #[key(format = "hex")]
    price: f64,
    name: String,
}

fn main() {
    let k = K { price: 1.5, name: "x".into() };
    assert_eq!(K::decode(&k.encode().unwrap()).unwrap(), k);
}
