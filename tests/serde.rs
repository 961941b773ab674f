//! Feature `serde`: key types, partition keys and families serialize as their encoded string
//! and deserialize strictly through the decoder; `Display` prints the encoding.

use serde::{Deserialize, Serialize};
use sortkey_core::SortKey;

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 6)]
    customer_id: u32,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 4, desc)]
    placed_at: u16,
    order_id: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Order {
    pk: CustomerPk,
    sk: CustomerItem,
    total: u64,
}

fn order() -> Order {
    Order {
        pk: CustomerPk { customer_id: 42 },
        sk: CustomerItem::Order(OrderKey { placed_at: 7, order_id: "o1".into() }),
        total: 1250,
    }
}

#[test]
fn an_item_round_trips_through_json() {
    let json = serde_json::to_string(&order()).unwrap();
    assert_eq!(json, r#"{"pk":"CUST#000042","sk":"ORDER#9992#o1","total":1250}"#);
    assert_eq!(serde_json::from_str::<Order>(&json).unwrap(), order());
}

#[test]
fn decoding_is_strict_and_names_type_field_and_offset() {
    let e = serde_json::from_str::<Order>(r#"{"pk":"CUST#42","sk":"PROFILE","total":1}"#).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("`CustomerPk`") && text.contains("customer_id") && text.contains("byte 5"), "{text}");
    let e = serde_json::from_str::<Order>(r#"{"pk":"CUST#000042","sk":"CART#1","total":1}"#).unwrap_err();
    assert!(e.to_string().contains("`CustomerItem`"), "{e}");
    assert!(serde_json::from_str::<Order>(r#"{"pk":42,"sk":"PROFILE","total":1}"#).is_err());
}

#[test]
fn an_unencodable_key_is_a_serde_error() {
    let bad = CustomerPk { customer_id: 10_000_000 };
    let e = serde_json::to_string(&bad).unwrap_err();
    assert!(e.to_string().contains("customer_id"), "{e}");
}

#[test]
fn display_prints_the_encoding() {
    let o = order();
    assert_eq!(o.pk.to_string(), "CUST#000042");
    assert_eq!(o.sk.to_string(), "ORDER#9992#o1");
    assert_eq!(CustomerItem::Profile.to_string(), "PROFILE");
    use std::fmt::Write;
    let mut s = String::new();
    assert!(write!(s, "{}", CustomerPk { customer_id: 10_000_000 }).is_err(), "no wrong key is printed");
}
