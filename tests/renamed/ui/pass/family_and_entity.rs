// A key family and an entity with a composite, a sparse and a multi-attribute index, all through
// `crate = ::sk`: they compile and work with no crate named `sortkey_core` in scope.
use sk::{Entity, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(crate = ::sk, prefix = "ORDER")]
struct OrderKey {
    #[key(width = 4)]
    n: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(crate = ::sk)]
enum Item {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    crate = ::sk,
    pk(prefix = "CUST", customer(width = 4)),
    sk(prefix = "ORDER", id),
    index(
        gsi1(pk(prefix = "S", state), sk(id)),
        coupons(pk(coupon), sk(id)),
        by_region(multi, pk(region), sk(year)),
    )
)]
struct Order {
    customer: u32,
    id: String,
    state: String,
    coupon: Option<String>,
    region: String,
    year: u16,
}

fn main() {
    let item = Item::Order(OrderKey { n: 7 });
    assert_eq!(item.encode().unwrap(), "ORDER#0007");
    assert_eq!(Item::decode("PROFILE").unwrap(), Item::Profile);
    let c = Item::query().order().n(7).eq().unwrap();
    assert!(c.matches("ORDER#0007"));

    let o = Order {
        customer: 1,
        id: "o".into(),
        state: "NEW".into(),
        coupon: None,
        region: "eu".into(),
        year: 2026,
    };
    assert_eq!(o.key_attributes().unwrap().get("gsi1pk"), Some("S#NEW"));
    assert!(o.coupons_key().is_none());
    assert_eq!(Order::INDEXES.len(), 3);
    let _ = Order::by_region("eu").year_range().gte(2025u16);
}
