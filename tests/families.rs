//! Key families: `#[derive(SortKey)]` on an enum whose variants are key types or literals.
//! Encode, strict decode by prefix, the order across and within variants, a family as a field
//! of another key, and the query law: a family query is exactly its variant's query.

use proptest::prelude::*;
use sortkey_core::{DecodeErrorKind, KeyCondition, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 10, desc)]
    placed_at: u64,
    order_id: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDERS")]
struct OrdersSummaryKey {
    #[key(width = 4)]
    year: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
struct AddressKey {
    label: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Summary(OrdersSummaryKey),
    Address(AddressKey),
}

/// A family as a field of another key, before another field.
#[derive(SortKey, Debug, Clone, PartialEq)]
struct Audit {
    item: CustomerItem,
    #[key(width = 3)]
    revision: u16,
}

fn order(placed_at: u64, id: &str) -> CustomerItem {
    CustomerItem::Order(OrderKey { placed_at, order_id: id.into() })
}

#[test]
fn each_variant_writes_its_own_key() {
    assert_eq!(CustomerItem::Profile.encode().unwrap(), "PROFILE");
    assert_eq!(order(7, "o1").encode().unwrap(), "ORDER#9999999992#o1");
    let summary = CustomerItem::Summary(OrdersSummaryKey { year: 2026 });
    assert_eq!(summary.encode().unwrap(), "ORDERS#2026");
    for item in [CustomerItem::Profile, order(7, "o1"), summary] {
        let key = item.encode().unwrap();
        assert_eq!(CustomerItem::decode(&key).unwrap(), item, "{key}");
    }
}

#[test]
fn decoding_is_as_strict_as_the_variant() {
    let e = CustomerItem::decode("CART#1").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::UnknownVariant);
    let text = e.to_string();
    assert!(text.contains("`CustomerItem`") && text.contains("\"PROFILE\"") && text.contains("\"ADDR\""), "{text}");
    // What OrderKey's own decode refuses, the family refuses, with OrderKey's error.
    let own = OrderKey::decode("ORDER#999#o1").unwrap_err();
    assert_eq!(CustomerItem::decode("ORDER#999#o1").unwrap_err(), own);
    assert!(CustomerItem::decode("PROFILE#x").is_err());
    assert!(CustomerItem::decode("PROFILEX").is_err());
    assert!(CustomerItem::decode("").is_err());
}

#[test]
fn a_family_is_a_field_of_another_key() {
    let audit = Audit { item: order(7, "o1"), revision: 3 };
    assert_eq!(audit.encode().unwrap(), "ORDER#9999999992#o1#003");
    assert_eq!(Audit::decode("ORDER#9999999992#o1#003").unwrap(), audit);
    let unit = Audit { item: CustomerItem::Profile, revision: 1 };
    assert_eq!(Audit::decode(&unit.encode().unwrap()).unwrap(), unit);
    assert_eq!(Audit::decode("CART#001").unwrap_err().kind(), DecodeErrorKind::UnknownVariant);
}

#[test]
fn unit_variants_query_their_one_key() {
    assert_eq!(CustomerItem::query().profile().eq().unwrap(), KeyCondition::Eq("PROFILE".into()));
    assert_eq!(CustomerItem::query().profile().begins_with().unwrap(), KeyCondition::Eq("PROFILE".into()));
}

fn item() -> impl Strategy<Value = CustomerItem> {
    let text = "[a-z0-9_]{0,4}";
    prop_oneof![
        Just(CustomerItem::Profile),
        (0u64..20, text).prop_map(|(t, id)| order(t, &id)),
        (2020u16..2030).prop_map(|year| CustomerItem::Summary(OrdersSummaryKey { year })),
        text.prop_map(|label| CustomerItem::Address(AddressKey { label })),
    ]
}

/// The variant index, then the value as the variant's key type orders it.
fn rank(item: &CustomerItem) -> (String, String) {
    let prefix = match item {
        CustomerItem::Profile => "PROFILE",
        CustomerItem::Order(_) => "ORDER",
        CustomerItem::Summary(_) => "ORDERS",
        CustomerItem::Address(_) => "ADDR",
    };
    (prefix.to_owned(), item.encode().unwrap())
}

proptest! {
    #[test]
    fn round_trip_and_order(a in item(), b in item()) {
        let (ka, kb) = (a.encode().unwrap(), b.encode().unwrap());
        prop_assert_eq!(CustomerItem::decode(&ka).unwrap(), a.clone());
        // Across variants by the bytes of their prefixes; within one as the key type.
        let (ra, rb) = (rank(&a), rank(&b));
        if ra.0 != rb.0 {
            prop_assert_eq!(ka.cmp(&kb), ra.0.cmp(&rb.0), "{} vs {}", ka, kb);
        }
        if let (CustomerItem::Order(x), CustomerItem::Order(y)) = (&a, &b) {
            prop_assert_eq!(ka.cmp(&kb), x.encode().unwrap().cmp(&y.encode().unwrap()));
        }
    }

    /// The query law for families: each variant's query matches exactly the keys of that
    /// variant that satisfy it, never another variant's.
    #[test]
    fn queries_match_exactly_their_variant(items in proptest::collection::vec(item(), 1..30), t in 0u64..20) {
        let all_orders = CustomerItem::query().order().begins_with().unwrap();
        let newer = CustomerItem::query().order().placed_at_range().gte(t).unwrap();
        let summaries = CustomerItem::query().summary().begins_with().unwrap();
        let profile = CustomerItem::query().profile().eq().unwrap();
        let addresses = CustomerItem::query().address().begins_with().unwrap();
        for it in &items {
            let key = it.encode().unwrap();
            let is_order = matches!(it, CustomerItem::Order(_));
            prop_assert_eq!(all_orders.matches(&key), is_order, "{}", key);
            // `desc`: placed_at >= t in the field's own order.
            let newer_expected = matches!(it, CustomerItem::Order(o) if o.placed_at >= t);
            prop_assert_eq!(newer.matches(&key), newer_expected, "{}", key);
            prop_assert_eq!(summaries.matches(&key), matches!(it, CustomerItem::Summary(_)), "{}", key);
            prop_assert_eq!(profile.matches(&key), matches!(it, CustomerItem::Profile), "{}", key);
            prop_assert_eq!(addresses.matches(&key), matches!(it, CustomerItem::Address(_)), "{}", key);
        }
    }
}
