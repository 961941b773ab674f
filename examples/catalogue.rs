//! A product catalogue in one DynamoDB partition: prices as sort keys. Why padded text gets
//! decimals wrong, and how `f64` and `Decimal` fields sort right, cheapest first or dearest
//! first, with typed price ranges.
//!
//! Run with `cargo run --example catalogue`. With the `dynamodb` feature and
//! `-- --endpoint URL [--table NAME]` the items are stored in and queried from a DynamoDB
//! endpoint instead; `SORTKEY_EXAMPLE=catalogue bash examples/leaderboard-moto.sh` does all of it
//! against a local moto server.

mod store;

use sortkey_core::SortKey;
use sortkey_core::rust_decimal::Decimal;
use sortkey_examples::{Order, TextTable};
use store::Store;

/// The catalogue's partition.
const SHOP: &str = "SHOP#7";

/// The products, in the order they were added: prices with and without cents, a discount
/// below zero, one under a euro and one over ten thousand.
const PRODUCTS: [(&str, f64); 8] = [
    ("kettle", 24.5),
    ("cable", 9.99),
    ("lamp", 10.0),
    ("desk", 10250.0),
    ("mug", 9.5),
    ("coupon", -2.5),
    ("sticker", 0.35),
    ("chair", 149.0),
];

/// A product's sort key: the price first, so that a Query returns the catalogue by price, the
/// name as the tiebreaker.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ITEM")]
struct ItemKey {
    price: f64,
    name: String,
}

/// The same catalogue with exact cents: a fixed-point decimal, readable as an integer of cents.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CENTS")]
struct CentsKey {
    #[key(scale = 2, width = 9)]
    price: Decimal,
    name: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut store = Store::from_args("catalogue")?;
    println!("Store: {}", store.describe());
    stage_1_padded();
    stage_2_floats(&mut store)?;
    stage_3_decimals(&mut store)?;
    Ok(())
}

fn heading(title: &str) {
    println!("\n== {title} ==\n");
}

/// (1) What a `padStart(10, '0')` of the price text gives, sorted as DynamoDB sorts strings.
fn stage_1_padded() {
    heading("1. Padded text: the order DynamoDB returns");
    let mut keys: Vec<(String, &str)> =
        PRODUCTS.iter().map(|&(name, p)| (format!("{:0>10}", p.to_string()), name)).collect();
    keys.sort();
    let mut out = TextTable::new(["sort key", "product"]);
    for (sk, name) in &keys {
        out.row([sk.clone(), (*name).to_owned()]);
    }
    print!("{out}");
    println!("\n149 sorts before 9.5 and 24.5 before 9.99: the point is a byte like any other, so shorter");
    println!("fractions shift the digits. And -2.5 is first only because '-' sorts below '0': -10 would");
    println!("come after it. Not the order of the prices.");
}

/// (2) `f64` fields: the readable order-preserving form, then typed range queries.
fn stage_2_floats(store: &mut Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("2. f64 prices: cheapest first, dearest first, price ranges");
    for &(name, price) in &PRODUCTS {
        store.put(SHOP, &ItemKey { price, name: name.into() })?;
    }
    let all = ItemKey::query().begins_with()?;
    let queries = [
        ("the 3 cheapest", all.clone(), Order::Ascending, Some(3)),
        ("the 3 dearest", all, Order::Descending, Some(3)),
        ("from 9.50 to 24.50", ItemKey::query().price_range().between(9.5, 24.5)?, Order::Ascending, None),
        ("under 10", ItemKey::query().price_range().lt(10.0)?, Order::Ascending, None),
    ];
    for (what, cond, order, limit) in queries {
        println!("\n{what}:  {cond}");
        let mut out = TextTable::new(["sort key", "price", "product"]).right(1);
        for sk in store.query(SHOP, &cond, order, limit)? {
            let key = ItemKey::decode(&sk)?;
            out.row([sk.clone(), key.price.to_string(), key.name]);
        }
        print!("{out}");
    }
    println!("\nP501245 is 24.5: P positive, 501 the exponent (1) plus 500, then the digits 245. M marks a");
    println!("negative number, whose exponent and digits are complemented and end in '~' (M49974~ is -2.5).");
    println!("NaN is refused: {}", ItemKey { price: f64::NAN, name: "x".into() }.encode().unwrap_err());
    Ok(())
}

/// (3) Exact cents: `Decimal` with `scale = 2`, an integer of cents in the key.
fn stage_3_decimals(store: &mut Store) -> Result<(), Box<dyn std::error::Error>> {
    heading("3. Decimal prices with scale = 2: exact cents");
    for &(name, price) in &PRODUCTS {
        let price = Decimal::new((price * 100.0).round() as i64, 2);
        store.put(SHOP, &CentsKey { price, name: name.into() })?;
    }
    let cond = CentsKey::query().price_range().between(Decimal::new(950, 2), Decimal::new(14900, 2))?;
    println!("from 9.50 to 149.00:  {cond}");
    let mut out = TextTable::new(["sort key", "price", "product"]).right(1);
    for sk in store.query(SHOP, &cond, Order::Descending, None)? {
        let key = CentsKey::decode(&sk)?;
        out.row([sk.clone(), key.price.to_string(), key.name]);
    }
    print!("{out}");
    let precise = CentsKey { price: Decimal::new(9999, 3), name: "x".into() }.encode().unwrap_err();
    println!("\nA price with more digits than the scale is refused, never rounded:\n  {precise}");
    Ok(())
}
