//! Layout descriptions: every key type and family describes its encoding as a constant,
//! `K::LAYOUT`, whose text follows the README's grammar; two types have the same description
//! exactly when they encode every value alike (field names aside, which are part of it).

use std::time::SystemTime;

use proptest::prelude::*;
use sortkey_core::{KeySegment, SortKey};

/// Six layouts of the same three values `(a: u64, b: u64, c: String)`.
mod variants {
    use super::*;

    macro_rules! key {
        ($name:ident, [$($attr:tt)*], $a:meta, $b:meta) => {
            #[derive(SortKey, Debug, Clone, PartialEq)]
            #[key($($attr)*)]
            pub(crate) struct $name {
                #[$a]
                pub(crate) a: u64,
                #[$b]
                pub(crate) b: u64,
                pub(crate) c: String,
            }
        };
    }

    key!(Base, [prefix = "RUN"], key(width = 10, desc), key(width = 16));
    key!(Same, [prefix = "RUN"], key(width = 10, desc), key(width = 16));
    key!(Wider, [prefix = "RUN"], key(width = 12, desc), key(width = 16));
    key!(Asc, [prefix = "RUN"], key(width = 10), key(width = 16));
    key!(OtherPrefix, [prefix = "RUNS"], key(width = 10, desc), key(width = 16));
    key!(Piped, [prefix = "RUN", separator = '|'], key(width = 10, desc), key(width = 16));
    key!(Capped, [prefix = "RUN"], key(width = 10, desc, max = 9_999_999_999), key(width = 16));

    /// `Base` with `b` before `a`.
    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN")]
    pub(crate) struct Reordered {
        #[key(width = 16)]
        pub(crate) b: u64,
        #[key(width = 10, desc)]
        pub(crate) a: u64,
        pub(crate) c: String,
    }
}

use variants::*;

/// Every layout's description and its encoding of `(a, b, c)`.
fn all(a: u64, b: u64, c: &str) -> Vec<(String, Option<String>)> {
    let c = c.to_owned();
    vec![
        (Base::LAYOUT.to_string(), Base { a, b, c: c.clone() }.encode().ok()),
        (Same::LAYOUT.to_string(), Same { a, b, c: c.clone() }.encode().ok()),
        (Wider::LAYOUT.to_string(), Wider { a, b, c: c.clone() }.encode().ok()),
        (Asc::LAYOUT.to_string(), Asc { a, b, c: c.clone() }.encode().ok()),
        (OtherPrefix::LAYOUT.to_string(), OtherPrefix { a, b, c: c.clone() }.encode().ok()),
        (Piped::LAYOUT.to_string(), Piped { a, b, c: c.clone() }.encode().ok()),
        (Capped::LAYOUT.to_string(), Capped { a, b, c }.encode().ok()),
    ]
}

proptest! {
    /// Same description -> same encoding of every value; a different description -> some
    /// value (among the samples and the fixed edge values) encodes differently.
    #[test]
    fn same_description_exactly_when_same_encoding(a in 0..20_000_000_000u64, b in any::<u64>(), c in "[a-z#|]{0,4}") {
        let samples = [all(a, b, &c), all(0, 0, ""), all(9_999_999_999, 1, "x"), all(10_000_000_000, 2, "y")];
        let n = samples[0].len();
        for i in 0..n {
            for j in 0..n {
                let same_text = samples[0][i].0 == samples[0][j].0;
                let same_bytes = samples.iter().all(|s| s[i].1 == s[j].1);
                prop_assert_eq!(same_text, same_bytes, "{} vs {}", samples[0][i].0, samples[0][j].0);
            }
        }
    }
}

#[derive(KeySegment, Debug, Clone, Copy, PartialEq)]
#[key(rename_all = "kebab-case")]
enum Status {
    Pending,
    ShipPending,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    status: Status,
    #[key(unit = "ms", desc)]
    placed_at: SystemTime,
    coupon: Option<String>,
    #[key(width = 8)]
    order_no: u32,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition, max_len = 100)]
struct CustomerPk {
    customer_id: i32,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "PRICE")]
struct PriceKey {
    #[key(format = "hex")]
    price: f64,
    at: Option<u8>,
    flag: bool,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "OUTER")]
struct Outer {
    inner: CustomerKey,
    tail: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "C")]
struct CustomerKey {
    #[key(width = 3)]
    id: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
}

#[test]
fn every_kind_of_segment_is_described() {
    assert_eq!(
        OrderKey::LAYOUT.to_string(),
        "ORDER#{status:enum(pending|ship-pending)}#{placed_at:timestamp width=15 desc unit=ms}\
         #{coupon:option<text>}#{order_no:u32 width=8}"
    );
    assert_eq!(CustomerPk::LAYOUT.to_string(), "partition CUST#{customer_id:i32 width=11} max_len=100");
    assert_eq!(
        PriceKey::LAYOUT.to_string(),
        "PRICE#{price:f64 format=hex}#{at:option<u8> width=3}#{flag:bool width=1}"
    );
    assert_eq!(Outer::LAYOUT.to_string(), "OUTER#{inner:key(C#{id:u16 width=3})}#{tail:text}");
    assert_eq!(
        CustomerItem::LAYOUT.to_string(),
        "family(PROFILE | ORDER#{status:enum(pending|ship-pending)}#{placed_at:timestamp width=15 desc unit=ms}\
         #{coupon:option<text>}#{order_no:u32 width=8})"
    );
    assert_eq!(variants::Piped::LAYOUT.to_string(), "RUN|{a:u64 width=10 desc}|{b:u64 width=16}|{c:text}");
}

/// The lock of `Base`, as a service would keep it.
const LOCKED: &str = "RUN#{a:u64 width=10 desc}#{b:u64 width=16}#{c:text}";

#[test]
fn the_lock_catches_every_layout_change() {
    Base::LAYOUT.check(LOCKED).unwrap();
    let cases = [
        ("a width change", Wider::LAYOUT, "RUN#{a:u64 width=1"),
        ("desc removed", Asc::LAYOUT, "RUN#{a:u64 width=10"),
        ("a field reordered", Reordered::LAYOUT, "RUN#{"),
        ("a prefix change", OtherPrefix::LAYOUT, "RUN"),
        ("a separator change", Piped::LAYOUT, "RUN"),
    ];
    for (what, layout, same) in cases {
        let e = layout.check(LOCKED).expect_err(what);
        assert_eq!(e.at, same.len(), "{what}: {e}");
        let text = e.to_string();
        assert!(text.contains(LOCKED) && text.contains(&layout.to_string()), "{what} prints both: {text}");
    }
    // desc added to a key locked without it.
    let e = Base::LAYOUT.check(&Asc::LAYOUT.to_string()).unwrap_err();
    assert_eq!(e.at, "RUN#{a:u64 width=10".len());
}

#[test]
fn a_lock_file_is_checked_and_updated_on_purpose() {
    let path = std::env::temp_dir().join(format!("sortkey-layouts-{}.lock", std::process::id()));
    std::fs::write(&path, format!("Base = {LOCKED}\nOrderKey = {}\n", OrderKey::LAYOUT)).unwrap();
    sortkey_core::check_lock_file(&path, &[("Base", Base::LAYOUT), ("OrderKey", OrderKey::LAYOUT)]).unwrap();
    let e =
        sortkey_core::check_lock_file(&path, &[("Base", Wider::LAYOUT), ("PriceKey", PriceKey::LAYOUT)]).unwrap_err();
    let sortkey_core::LockErrorKind::Differs(differences) = &e.kind else { panic!("{e}") };
    let names: Vec<String> = differences
        .iter()
        .map(|d| match d {
            sortkey_core::LayoutDifference::Changed { name, mismatch, .. } => {
                format!("{name} changed at {}", mismatch.at)
            }
            sortkey_core::LayoutDifference::NotLocked { name, .. } => format!("{name} not locked"),
            sortkey_core::LayoutDifference::NotChecked { name, .. } => format!("{name} not checked"),
            other => format!("{other}"),
        })
        .collect();
    assert_eq!(names, ["Base changed at 18", "PriceKey not locked", "OrderKey not checked"]);
    let e = e.to_string();
    assert!(e.starts_with("3 layouts differ"), "{e}");
    assert!(e.contains("`Base`: the key layout differs from its lock at byte 18"), "{e}");
    assert!(e.contains("`PriceKey` is not in the lock") && e.contains("`OrderKey` is in the lock"), "{e}");
    assert!(e.contains("SORTKEY_UPDATE_LOCK=1"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

/// The typed errors of the layout tools: a vector whose key does not come back, and text that is
/// no value of a field, each with its kind and what it names.
#[test]
fn vectors_and_field_values_refuse_with_typed_errors() {
    use sortkey_core::vectors::{RoundTripErrorKind, Vector, check_round_trip, vectors};
    let key = PriceKey { price: 1.5, at: Some(7), flag: true };
    let mut good = vectors([("{}".to_owned(), key)]);
    assert_eq!(check_round_trip::<PriceKey>(&good), Ok(()));
    let Ok(encoded) = good[0].key.clone() else { panic!("the key encodes") };
    good.push(Vector { fields: "{}".into(), key: Ok(format!("X{encoded}")) });
    let e = check_round_trip::<PriceKey>(&good).unwrap_err();
    assert_eq!(e.key, format!("X{encoded}"));
    assert!(matches!(e.kind, RoundTripErrorKind::NoDecode(_)), "{e}");
    assert!(e.to_string().contains("does not decode"), "{e}");

    let lock = sortkey_core::LockFile::parse("K = K#{n:u8 width=3}#{t:text}\n").unwrap();
    let layout = lock.get("K").unwrap();
    let field = &layout.field_paths()[0].1;
    let e = field.value_from_text("thirty").unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.kind, e.found.as_str()),
        ("n", sortkey_core::ValueTextErrorKind::NotAValue, "thirty")
    );
    assert_eq!(e.to_string(), "field `n`: expected a `u8` value, found \"thirty\"");
}

mod service {
    use sortkey_core::Entity;

    /// An order, locked through its table: its primary key and one index.
    #[derive(Entity)]
    #[entity(
        pk(prefix = "CUST", customer_id),
        sk(prefix = "ORDER", order_no(width = 8)),
        index(by_day(name = "gsi1", pk(prefix = "DAY", day(width = 8)), sk(order_no(width = 8))))
    )]
    pub(crate) struct Order {
        customer_id: String,
        order_no: u32,
        day: u32,
    }

    /// The same order after an index was added (`by_coupon`): the key a lock must not miss.
    #[derive(Entity)]
    #[entity(
        pk(prefix = "CUST", customer_id),
        sk(prefix = "ORDER", order_no(width = 8)),
        index(
            by_day(name = "gsi1", pk(prefix = "DAY", day(width = 8)), sk(order_no(width = 8))),
            by_coupon(name = "gsi2", pk(prefix = "COUPON", coupon), sk(order_no(width = 8)))
        )
    )]
    pub(crate) struct OrderWithCoupon {
        customer_id: String,
        order_no: u32,
        day: u32,
        coupon: Option<String>,
    }

    /// A profile in the same table, under the same attributes.
    #[derive(Entity)]
    #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "PROFILE", version(width = 4)))]
    pub(crate) struct Profile {
        customer_id: String,
        version: u16,
    }
}

/// An entity is locked whole: `Entity::LAYOUTS` holds every composite key (the primary key's and
/// each index's), so a lock written before an index was added fails the check, naming the new
/// index's key types; a table definition locks its entities and says which layouts each of its
/// attributes holds, and the lock reads that back.
#[test]
fn a_lock_of_entities_and_tables_misses_no_key() {
    use service::{Order, OrderWithCoupon, Profile};
    use sortkey_core::{Entity, LayoutDifference, LockErrorKind, LockFile, LockedKeys, TableDefinition};

    let names: Vec<(&str, &str, Option<&str>)> =
        Order::LAYOUTS.iter().map(|k| (k.name, k.attribute, k.index)).collect();
    assert_eq!(
        names,
        [
            ("OrderPk", "pk", None),
            ("OrderSk", "sk", None),
            ("OrderByDayPk", "gsi1pk", Some("gsi1")),
            ("OrderByDaySk", "gsi1sk", Some("gsi1"))
        ]
    );
    let path = std::env::temp_dir().join(format!("sortkey-entities-{}.lock", std::process::id()));
    std::fs::write(&path, LockedKeys::new().entity::<Order>().text()).unwrap();
    LockedKeys::new().entity::<Order>().check(&path).unwrap();
    // The index added later: its key types are not in the lock.
    let e = LockedKeys::new().entity::<OrderWithCoupon>().check(&path).unwrap_err();
    let LockErrorKind::Differs(differences) = &e.kind else { panic!("{e}") };
    let missing: Vec<&str> = differences
        .iter()
        .filter_map(|d| match d {
            LayoutDifference::NotLocked { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert!(missing.contains(&"OrderWithCouponByCouponPk") && missing.contains(&"OrderWithCouponByCouponSk"), "{e}");

    // A table of two entities: each attribute names the layouts it holds.
    let table = TableDefinition::of::<Order>("orders").with::<Profile>().unwrap();
    let text = LockedKeys::new().table(&table).text();
    assert!(
        text.ends_with(
            "table orders pk: OrderPk, ProfilePk\ntable orders sk: OrderSk, ProfileSk\n\
         table orders gsi1pk: OrderByDayPk\ntable orders gsi1sk: OrderByDaySk\n"
        ),
        "{text}"
    );
    let lock = LockFile::parse(&text).unwrap();
    assert_eq!(lock.text(), text, "a lock with tables reads back as written");
    let sk: Vec<&str> = lock.layouts_of("orders", "sk").unwrap().iter().map(|(n, _)| *n).collect();
    assert_eq!(sk, ["OrderSk", "ProfileSk"]);
    assert_eq!(lock.layouts_of("orders", "other").unwrap().len(), 0, "an attribute the table does not key");
    assert!(lock.layouts_of("runs", "sk").is_none(), "a table the lock says nothing of");
    std::fs::write(&path, &text).unwrap();
    LockedKeys::new().table(&table).check(&path).unwrap();
    // The same keys without the table: the lock's table lines are a difference.
    let e = LockedKeys::new().entity::<Order>().entity::<Profile>().check(&path).unwrap_err().to_string();
    assert!(e.contains("table `orders`, attribute `sk`: the table definitions give it none, but the lock records OrderSk, ProfileSk"), "{e}");
    std::fs::remove_file(&path).unwrap();

    // A table line naming no layout of the lock, or two roles, is refused at its byte.
    let bad = format!("{}table orders sk: OrderSk, Nope\n", LockedKeys::new().entity::<Order>().text());
    let e = LockFile::parse(&bad).unwrap_err();
    assert_eq!((e.line, e.error.offset), (5, "table orders sk: OrderSk, ".len()), "{e}");
    let mixed = format!("{}table orders sk: OrderSk, OrderPk\n", LockedKeys::new().entity::<Order>().text());
    assert!(LockFile::parse(&mixed).unwrap_err().to_string().contains("a layout of the same role as `OrderSk`"));
}

/// The failure of a changed layout says what it means for stored keys and what to do: `legacy`,
/// `sortkey audit`, `sortkey migrate`.
#[test]
fn a_changed_layout_says_that_stored_keys_stop_decoding() {
    let path = std::env::temp_dir().join(format!("sortkey-advice-{}.lock", std::process::id()));
    std::fs::write(&path, format!("Base = {LOCKED}\n")).unwrap();
    let e = sortkey_core::check_lock_file(&path, &[("Base", Wider::LAYOUT)]).unwrap_err().to_string();
    // A key checked by itself is in no table: the commands' shape, the table to fill in.
    let shape = ["`sortkey audit --table TABLE`", "`sortkey migrate --table TABLE --to Base --compare-attributes`"];
    for needle in ["stop decoding", "`BaseV1`", "legacy = BaseV1"].iter().chain(&shape) {
        assert!(e.contains(needle), "{needle}: {e}");
    }
    std::fs::remove_file(&path).unwrap();
}
