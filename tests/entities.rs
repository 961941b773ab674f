//! `#[derive(Entity)]`: a domain struct's primary key and index keys from its own fields, every
//! key attribute written from the whole item, sparse indexes absent when an ingredient is `None`,
//! and updates that leave no stale index key.

use serde::{Deserialize, Serialize};
use sortkey_core::{Entity, KeyNames, KeySegment, Projection, SortKey, TableDefinition};

#[derive(KeySegment, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[key(rename_all = "UPPERCASE")]
enum Status {
    Placed,
    Shipped,
}

/// An order, stored under its customer, indexed by status and (sparse) by coupon.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "CUST", customer_id(width = 8)),
    sk(prefix = "ORDER", placed_at(width = 10, desc), order_id),
    index(
        gsi1(pk(prefix = "STATUS", status), sk(placed_at(width = 10), order_id)),
        coupons(pk(prefix = "COUPON", coupon), sk(placed_at(width = 10), order_id)),
    )
)]
struct Order {
    customer_id: u32,
    order_id: String,
    placed_at: u64,
    status: Status,
    total_cents: u64,
    coupon: Option<String>,
}

fn order(coupon: Option<&str>) -> Order {
    Order {
        customer_id: 42,
        order_id: "o-1".into(),
        placed_at: 1719100800,
        status: Status::Shipped,
        total_cents: 2450,
        coupon: coupon.map(str::to_owned),
    }
}

#[test]
fn every_key_attribute_comes_from_the_item() {
    let keys = order(Some("SUMMER")).key_attributes().unwrap();
    let present: Vec<(&str, &str)> = keys.present().iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(
        present,
        [
            ("pk", "CUST#00000042"),
            ("sk", "ORDER#8280899199#o-1"),
            ("gsi1pk", "STATUS#SHIPPED"),
            ("gsi1sk", "1719100800#o-1"),
            ("couponspk", "COUPON#SUMMER"),
            ("couponssk", "1719100800#o-1"),
        ]
    );
    assert!(keys.absent().is_empty());
    assert_eq!(Order::KEYS, KeyNames::DEFAULT);
    let names: Vec<&str> = Order::INDEXES.iter().map(|i| i.name()).collect();
    assert_eq!(names, ["gsi1", "coupons"]);
    assert!(!Order::INDEXES[0].sparse() && Order::INDEXES[1].sparse());
}

#[test]
fn the_key_types_are_key_types() {
    let o = order(None);
    let key = o.primary_key();
    assert_eq!(key.partition, OrderPk { customer_id: 42 });
    assert_eq!(OrderSk::decode("ORDER#8280899199#o-1").unwrap(), key.sort);
    assert_eq!(o.gsi1_key().sort.encode().unwrap(), "1719100800#o-1");
    let cond = OrderGsi1Sk::query().placed_at_range().gte(1719100000).unwrap();
    assert!(cond.matches(&o.gsi1_key().sort.encode().unwrap()));
    assert_eq!(OrderPk::ROLE, sortkey_core::KeyRole::Partition);
}

#[test]
fn a_sparse_index_is_absent_as_a_whole() {
    let o = order(None);
    assert!(o.coupons_key().is_none());
    let keys = o.key_attributes().unwrap();
    assert_eq!(keys.absent(), ["couponspk", "couponssk"]);
    assert!(keys.get("couponspk").is_none() && keys.get("couponssk").is_none(), "never half a key, never \"\"");
    assert_eq!(keys.get("gsi1pk"), Some("STATUS#SHIPPED"));
}

#[test]
fn an_update_sets_every_index_key_and_removes_the_sparse_ones() {
    let update = order(None).key_attributes().unwrap().update(Order::KEYS);
    assert_eq!(
        update.expression_with(&["#t = :t"], &[]),
        "SET #sk_k0 = :sk_k0, #sk_k1 = :sk_k1, #t = :t REMOVE #sk_r0, #sk_r1"
    );
    let names: Vec<&str> = update.names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["gsi1pk", "gsi1sk", "couponspk", "couponssk"], "the primary key is the update's Key, not SET");
    assert_eq!(update.values[0].1, sortkey_core::ScalarValue::S("STATUS#SHIPPED".into()));
    let with_coupon = order(Some("X")).key_attributes().unwrap().update(Order::KEYS);
    assert_eq!(with_coupon.expression(), "SET #sk_k0 = :sk_k0, #sk_k1 = :sk_k1, #sk_k2 = :sk_k2, #sk_k3 = :sk_k3");
}

#[test]
fn a_key_that_cannot_be_encoded_gives_no_attributes() {
    let mut o = order(Some("SUMMER"));
    o.customer_id = 1_000_000_000; // wider than width 8
    let e = o.key_attributes().unwrap_err();
    assert!(e.to_string().contains("customer_id"), "{e}");
}

#[test]
fn the_entity_stays_a_serde_struct() {
    let json = serde_json::to_string(&order(None)).unwrap();
    assert_eq!(
        json,
        r#"{"customer_id":42,"order_id":"o-1","placed_at":1719100800,"status":"Shipped","total_cents":2450,"coupon":null}"#
    );
}

/// An address shares the orders' table and their primary key attributes.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "CUST", customer_id(width = 8)), sk(prefix = "ADDR", label))]
struct Address {
    customer_id: u32,
    label: String,
}

/// A legacy entity with other attribute names, and an index `gsi1` keyed otherwise.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    pk(name = "PK", prefix = "CUST", customer_id),
    sk(name = "SK", prefix = "CART", cart_id),
    index(gsi1(pk(name = "GSI1PK", cart_id), sk(name = "GSI1SK", customer_id)))
)]
struct Cart {
    customer_id: u32,
    cart_id: String,
}

/// Cart's index under the orders' key names: conflicts with Order's `gsi1` only.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "CART", cart_id),
    index(gsi1(pk(name = "GSI1PK", cart_id), sk(name = "GSI1SK", customer_id)))
)]
struct Wishlist {
    customer_id: u32,
    cart_id: String,
}

#[test]
fn entities_sharing_a_table_share_one_definition() {
    let table = TableDefinition::of::<Order>("shop").with::<Address>().unwrap();
    assert_eq!(table.attributes(), ["pk", "sk", "gsi1pk", "gsi1sk", "couponspk", "couponssk"]);
    let names: Vec<&str> = table.indexes().iter().map(|i| i.names.name()).collect();
    assert_eq!(names, ["gsi1", "coupons"]);
    assert_eq!(table.indexes()[0].projection, Projection::All);
    let table = table.projection("coupons", Projection::Include(vec!["total_cents".into()])).unwrap();
    assert!(table.clone().projection("nope", Projection::KeysOnly).unwrap_err().to_string().contains("`nope`"));

    let e = TableDefinition::of::<Order>("shop").with::<Cart>().unwrap_err().to_string();
    assert_eq!(
        e,
        "table `shop`: entity `Cart` has the primary key attributes (PK, SK), but entity `Order` has (pk, sk); \
         expected one key schema per table"
    );
    let e = table.with::<Wishlist>().unwrap_err().to_string();
    assert!(
        e.contains("index `gsi1` of entity `Wishlist`") && e.contains("entity `Order` gives it (gsi1pk, gsi1sk)"),
        "{e}"
    );
}

#[test]
fn an_index_query_uses_the_index_names() {
    let q = Order::gsi1(&OrderGsi1Pk { status: Status::Shipped })
        .unwrap()
        .sort(OrderGsi1Sk::query().placed_at_range().gte(1719100000).unwrap());
    assert_eq!(q.index().name(), "gsi1");
    let e = q.expression();
    assert_eq!(e.names[0], ("#pk".to_string(), "gsi1pk".to_string()));
    assert_eq!(e.names[1], ("#sk".to_string(), "gsi1sk".to_string()));
    assert_eq!(e.values[0], (":pk".to_string(), "STATUS#SHIPPED".to_string()));
    let o = order(None);
    let key = o.gsi1_key();
    assert!(q.matches(&key.partition.encode().unwrap(), &key.sort.encode().unwrap()));
}

/// A shipment with a multi-attribute index: partition (region, tenant), sort (year, week, dock).
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SHIP", id),
    sk(prefix = "V", version),
    index(by_region(multi, pk(region, tenant), sk(year, week, dock)), by_status(multi, pk(status), sk(year)),)
)]
struct Shipment {
    id: String,
    version: u32,
    region: String,
    tenant: u32,
    year: u16,
    week: u8,
    dock: Option<String>,
    status: Status,
}

#[test]
fn a_multi_attribute_index_writes_typed_attributes() {
    use sortkey_core::{ScalarType, ScalarValue};
    let s = Shipment {
        id: "s1".into(),
        version: 3,
        region: "eu".into(),
        tenant: 7,
        year: 2025,
        week: 9,
        dock: None,
        status: Status::Placed,
    };
    let keys = s.key_attributes().unwrap();
    assert_eq!(keys.get("pk"), Some("SHIP#s1"));
    let present: Vec<(&str, &ScalarValue)> = keys.present().iter().map(|(n, v)| (*n, v)).collect();
    assert_eq!(
        present,
        [
            ("pk", &ScalarValue::S("SHIP#s1".into())),
            ("sk", &ScalarValue::S(keys.get("sk").unwrap().into())),
            ("region", &ScalarValue::S("eu".into())),
            ("tenant", &ScalarValue::N("7".into())),
            ("year", &ScalarValue::N("2025".into())),
            ("week", &ScalarValue::N("9".into())),
            ("status", &ScalarValue::S("PLACED".into())),
        ]
    );
    assert_eq!(
        Shipment::by_status(Status::Shipped).year_range().gt(2024u16).to_string(),
        "status = \"SHIPPED\" AND year > 2024"
    );
    assert_eq!(keys.absent(), ["dock"], "attribute by attribute: no dock, not in the index");
    let multi = Shipment::INDEXES[0].multi_keys().unwrap();
    assert_eq!(multi.partition, [("region", ScalarType::S), ("tenant", ScalarType::N)]);
    assert_eq!(multi.sort.len(), 3);

    let c = Shipment::by_region("eu", 7u32).year(2025u16).week_range().between(5u8, 10u8).unwrap();
    assert_eq!(c.to_string(), "region = \"eu\" AND tenant = 7 AND year = 2025 AND week BETWEEN 5 AND 10");
    assert_eq!(c.index(), "by_region");
    assert!(Shipment::by_region("eu", 7u32).year(2025u16).week_range().between(10u8, 5u8).is_err(), "an empty range");
    let prefix = Shipment::by_region("eu", 7u32).year(2025u16).week(9u8).dock_range().begins_with("D");
    assert_eq!(
        prefix.expression().expression,
        "#m0 = :m0 AND #m1 = :m1 AND #m2 = :m2 AND #m3 = :m3 AND begins_with(#m4, :m4)"
    );
    assert_eq!(Shipment::by_region("eu", 7u32).condition().expression().expression, "#m0 = :m0 AND #m1 = :m1");

    let table = TableDefinition::of::<Shipment>("ships");
    assert_eq!(
        table.attribute_types(),
        [
            ("pk", ScalarType::S),
            ("sk", ScalarType::S),
            ("region", ScalarType::S),
            ("tenant", ScalarType::N),
            ("year", ScalarType::N),
            ("week", ScalarType::N),
            ("dock", ScalarType::S),
            ("status", ScalarType::S),
        ]
    );
}

/// An entity that is neither `Debug`, `Clone` nor `PartialEq`.
#[derive(Entity)]
#[entity(
    pk(prefix = "NOTE", author),
    sk(prefix = "AT", written(width = 10)),
    index(by_topic(pk(prefix = "TOPIC", topic), sk(written(width = 10))), by_day(multi, pk(topic), sk(written)))
)]
struct Note {
    author: String,
    written: u64,
    topic: String,
}

/// The index keys, cursors and queries of an entity are `Debug`, `Clone` and `PartialEq` when
/// its key types are, whatever the entity itself implements.
#[test]
fn index_keys_and_queries_need_nothing_of_the_entity() {
    let note = Note { author: "ann".into(), written: 1719100800, topic: "rust".into() };
    let key = sortkey_core::IndexKey::<Note, _, _> { index: note.by_topic_key(), primary: note.primary_key() };
    let copy = key.clone();
    assert_eq!(copy, key);
    assert!(format!("{key:?}").contains("rust"), "{key:?}");
    let q = Note::by_topic(&NoteByTopicPk { topic: "rust".into() }).unwrap();
    assert_eq!(q.clone(), q);
    assert!(format!("{q:?}").contains("TOPIC#rust"), "{q:?}");
    let c = Note::by_day("rust").written_range().gte(1719100000u64);
    assert_eq!(c.clone(), c);
    assert_eq!(c.attributes().sort, [("written", sortkey_core::ScalarType::N)]);
    assert!(format!("{c:?}").contains("by_day"), "{c:?}");
}

/// `name = "..."` names an index and its default key attributes wherever it is written in the
/// index, before its keys or after them.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    pk(id),
    sk(version(width = 3)),
    index(
        before(name = "by-state", pk(state), sk(version(width = 3))),
        after(pk(owner), sk(version(width = 3)), name = "by-owner"),
    )
)]
struct Document {
    id: String,
    version: u16,
    state: String,
    owner: String,
}

#[test]
fn an_index_name_means_the_same_before_and_after_its_keys() {
    let d = Document { id: "d".into(), version: 2, state: "DRAFT".into(), owner: "ann".into() };
    let names: Vec<&str> = Document::INDEXES.iter().map(|i| i.name()).collect();
    assert_eq!(names, ["by-state", "by-owner"]);
    let keys = d.key_attributes().unwrap();
    let present: Vec<&str> = keys.present().iter().map(|(n, _)| *n).collect();
    assert_eq!(present, ["pk", "sk", "by-statepk", "by-statesk", "by-ownerpk", "by-ownersk"]);
}

/// A second entity declaring Shipment's multi-attribute index `by_region` with other sort
/// attributes: the server would refuse its queries, so the table definition does.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "CRATE", id),
    sk(prefix = "V", version),
    index(by_region(multi, pk(region, tenant), sk(year, dock)))
)]
struct Crate {
    id: String,
    version: u32,
    region: String,
    tenant: u32,
    year: u16,
    dock: u8,
}

#[test]
fn entities_sharing_a_multi_attribute_index_declare_the_same_attributes() {
    let e = TableDefinition::of::<Shipment>("ships").with::<Crate>().unwrap_err().to_string();
    assert_eq!(
        e,
        "table `ships`: index `by_region` of entity `Crate` has the key attributes (region S, tenant N; year N, dock \
         N), but entity `Shipment` gives it (region S, tenant N; year N, week N, dock S): its sort attribute 2 is \
         `dock` N here and `week` N there; expected one key schema per index"
    );
}

/// Two entities that type one attribute differently in different indexes: the table could
/// define it once only, so the definition refuses the second.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "LOT", id), sk(prefix = "V", version), index(by_year(multi, pk(region), sk(year))))]
struct Lot {
    id: String,
    version: u32,
    region: String,
    year: String,
}

#[test]
fn one_attribute_has_one_type_across_the_table() {
    let e = TableDefinition::of::<Shipment>("ships").with::<Lot>().unwrap_err().to_string();
    assert_eq!(
        e,
        "table `ships`: entity `Lot` types the attribute `year` S in index `by_year`, but entity `Shipment` types it N \
         in index `by_region`; expected one type per attribute, as a table defines each attribute once"
    );
}

#[test]
fn a_multi_attribute_key_refuses_an_empty_string() {
    let s = Shipment {
        id: "s1".into(),
        version: 1,
        region: String::new(),
        tenant: 7,
        year: 2025,
        week: 9,
        dock: Some(String::new()),
        status: Status::Placed,
    };
    let e = s.key_attributes().unwrap_err();
    assert_eq!((e.key(), e.field(), e.kind()), ("Shipment", Some("region"), &sortkey_core::EncodeErrorKind::Empty));
    let e = Shipment { region: "eu".into(), ..s }.key_attributes().unwrap_err();
    assert_eq!(e.field(), Some("dock"), "a sparse attribute that is present must not be empty either");
}

/// A table keyed by a partition key alone, with an index of a partition key alone ("users by
/// email") and a multi-attribute index without a sort attribute: every key shape DynamoDB allows.
#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "USER", id), index(by_email(pk(email)), by_team(multi, pk(team))))]
struct User {
    id: String,
    email: String,
    team: Option<String>,
}

#[test]
fn a_partition_key_alone_for_the_table_and_for_an_index() {
    use sortkey_core::{IndexKeys, KeyNames, NoSort};
    let u = User { id: "u1".into(), email: "ann@example.com".into(), team: None };
    assert_eq!(User::KEYS, KeyNames::partition_only("pk"));
    assert_eq!(u.primary_key().sort, NoSort);
    let keys = u.key_attributes().unwrap();
    let present: Vec<(&str, &str)> = keys.present().iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(present, [("pk", "USER#u1"), ("by_emailpk", "ann@example.com")]);
    assert_eq!(keys.absent(), ["team"]);
    assert_eq!(User::INDEXES[0].keys(), IndexKeys::Composite(KeyNames::partition_only("by_emailpk")));
    assert_eq!(u.by_email_key().partition, UserByEmailPk { email: "ann@example.com".into() });

    let query = User::by_email(&UserByEmailPk { email: "ann@example.com".into() }).unwrap();
    assert_eq!(query.expression().expression, "#pk = :pk");
    assert!(query.matches_keys(&keys));
    let other = User { email: "bob@example.com".into(), ..u.clone() };
    assert!(!query.matches_keys(&other.key_attributes().unwrap()));
    let team = User::by_team("red").condition();
    assert!(!team.matches_keys(&keys), "no team: not in the index");
    assert!(team.matches_keys(&User { team: Some("red".into()), ..u }.key_attributes().unwrap()));

    let table = TableDefinition::of::<User>("users");
    assert_eq!(table.attributes(), ["pk", "by_emailpk", "team"]);
}

#[test]
fn requests_are_data_without_a_client() {
    use sortkey_core::{KeyType, ScalarType, ScalarValue};
    let o = order(Some("SUMMER"));
    let cond = OrderGsi1Sk::query().placed_at_range().gte(1719100000).unwrap();
    let request = Order::gsi1(&OrderGsi1Pk { status: Status::Shipped }).unwrap().sort(cond).request(None).unwrap();
    assert_eq!(request.index_name, Some("gsi1"));
    assert_eq!(request.key_condition_expression, "#pk = :pk AND #sk >= :sk0");
    assert_eq!(request.values[0], (":pk".to_owned(), ScalarValue::S("STATUS#SHIPPED".into())));
    assert_eq!(request.exclusive_start_key, None);
    let start = sortkey_core::IndexKey { index: o.gsi1_key(), primary: o.primary_key() };
    let paged = Order::gsi1(&OrderGsi1Pk { status: Status::Shipped }).unwrap().request(Some(&start)).unwrap();
    let names: Vec<&str> = paged.exclusive_start_key.as_ref().unwrap().iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["gsi1pk", "gsi1sk", "pk", "sk"]);
    assert_eq!(o.primary_key().key_values(Order::KEYS).unwrap()[0].0, "pk");

    let multi = Shipment::by_region("eu", 7u32).year(2025u16).week_range().gte(5u8).request(None).unwrap();
    assert_eq!(multi.index_name, Some("by_region"));
    assert_eq!(multi.values[1], (":m1".to_owned(), ScalarValue::N("7".into())));

    let create = TableDefinition::of::<Shipment>("ships").create_request();
    assert_eq!(create.key_schema, [("pk", KeyType::Hash), ("sk", KeyType::Range)]);
    assert_eq!(create.indexes[0].key_schema[1], ("tenant", KeyType::Hash));
    assert_eq!(create.indexes[0].key_schema[2], ("year", KeyType::Range));
    assert!(create.attribute_definitions.contains(&("week", ScalarType::N)));
}

/// The partition key every entity of a customer's partition shares: one type, so that a family
/// query and an item key need no stand-in.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 8)]
    customer_id: u32,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(pk(type = CustomerPk, prefix = "CUST", customer_id(width = 8)), sk(prefix = "ORDER", order_id))]
struct ShopOrder {
    customer_id: u32,
    order_id: String,
}

#[derive(Entity, Debug, Clone, PartialEq)]
#[entity(pk(type = CustomerPk, prefix = "CUST", customer_id(width = 8)), sk(prefix = "ADDR", label))]
struct ShopAddress {
    customer_id: u32,
    label: String,
}

/// Every item of a customer's partition.
#[derive(SortKey, Debug, Clone, PartialEq)]
enum ShopItem {
    Order(ShopOrderSk),
    Address(ShopAddressSk),
}

#[test]
fn entities_of_a_partition_share_one_partition_key_type() {
    let o = ShopOrder { customer_id: 42, order_id: "o-1".into() };
    let a = ShopAddress { customer_id: 42, label: "home".into() };
    // Both entities' partition keys are the one type.
    let (po, pa): (CustomerPk, CustomerPk) = (o.primary_key().partition, a.primary_key().partition);
    assert_eq!(po, pa);
    assert_eq!(po.encode().unwrap(), "CUST#00000042");
    let key: ItemKeyOf = sortkey_core::ItemKey::new(po, ShopItem::Order(o.primary_key().sort));
    assert_eq!(key.encode().unwrap(), ("CUST#00000042".to_owned(), "ORDER#o-1".to_owned()));
    let everything = KeyNames::DEFAULT.query::<CustomerPk, ShopItem>(&pa).unwrap();
    let addresses = everything.clone().sort(ShopItem::query().address().begins_with().unwrap());
    assert!(addresses.matches("CUST#00000042", "ADDR#home") && !addresses.matches("CUST#00000042", "ORDER#o-1"));
}

type ItemKeyOf = sortkey_core::ItemKey<CustomerPk, ShopItem>;
