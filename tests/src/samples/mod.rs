//! Key types of every field type, option and family shape, with sample keys: what the tests of
//! layouts you can run (tests/dyn_layouts.rs, tests/dyn_values.rs) hold the runtime layout to,
//! and each type's value as a `DynValue`, written by hand, field by field.

use std::borrow::Cow;
use std::time::SystemTime;

use sortkey_core::chrono::{DateTime, Utc};
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;
use sortkey_core::{KeySegment, Layout, SortKey};

use crate::leaderboard::{RankKey, RankKeyV1};

mod queries;
mod to_dyn;
mod values;

pub use queries::{QueryLaw, calls, same_as_layout};
pub use to_dyn::ToDyn;
pub use values::*;

/// An enum segment, its names in kebab-case.
#[derive(KeySegment, Debug, Clone, Copy, PartialEq)]
#[key(rename_all = "kebab-case")]
pub enum Status {
    Pending,
    ShipPending,
}

/// Every integer type, and widths with `desc` and `max`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "I")]
pub struct Ints {
    pub a: u8,
    pub b: u16,
    pub c: u32,
    pub d: u64,
    pub e: u128,
    pub f: usize,
    pub g: i8,
    pub h: i16,
    pub i: i32,
    pub j: i64,
    pub k: i128,
    pub l: isize,
    #[key(width = 4, desc, max = 5000)]
    pub m: u32,
    #[key(width = 5, desc)]
    pub n: i32,
}

/// `bool`, `char` and the text types, borrowed and owned.
#[derive(SortKey, Debug, Clone, PartialEq)]
pub struct Texts<'a> {
    pub flag: bool,
    pub letter: char,
    pub name: &'a str,
    pub cow: Cow<'a, str>,
    pub last: String,
}

/// Timestamps: a unit, `desc`, RFC 3339, an option; the separator `|`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "T", separator = '|')]
pub struct Times {
    #[key(unit = "ms", desc)]
    pub at: SystemTime,
    #[key(format = "rfc3339", unit = "us")]
    pub text: DateTime<Utc>,
    pub plain: Option<SystemTime>,
}

/// Floats (hex and shortest digits) and a decimal.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "F")]
pub struct Floats {
    #[key(format = "hex")]
    pub hex: f64,
    pub small: f32,
    #[key(scale = 2)]
    pub price: Decimal,
    pub last: f64,
}

/// UUID, ULID, an enum and an optional enum.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ID")]
pub struct Ids {
    pub id: Uuid,
    pub ulid: Ulid,
    pub status: Status,
    pub maybe: Option<Status>,
}

/// A key nested in [`Outer`].
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "C")]
pub struct Inner {
    #[key(width = 3)]
    pub id: u16,
}

/// A nested key, an optional nested key, and a last text.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "OUT")]
pub struct Outer {
    pub inner: Inner,
    pub opt: Option<Inner>,
    pub tail: String,
}

/// A partition key with its own `max_len`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition, max_len = 100)]
pub struct Partition {
    pub customer_id: i32,
}

/// A variant of [`Item`].
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
pub struct OrderKey {
    #[key(width = 10, desc)]
    pub placed_at: u64,
    pub order_id: String,
}

/// A variant of [`Item`].
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
pub struct AddressKey {
    #[key(width = 2)]
    pub n: u8,
}

/// A family: a unit variant and two keyed ones.
#[derive(SortKey, Debug, Clone, PartialEq)]
pub enum Item {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Address(AddressKey),
}

/// A family nested in a key.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "AUDIT")]
pub struct Audit {
    pub item: Item,
    #[key(width = 3)]
    pub revision: u16,
}

/// A hand-written key: its layout says its prefix and separator only.
#[derive(Debug)]
pub struct Custom;

impl SortKey for Custom {
    const PREFIX: Option<&'static str> = Some("CUSTOM");
    const SEPARATOR: char = '#';
    const ENCODED_LEN: Option<usize> = None;
    const MAX_LEN: usize = 1024;

    fn encode_into(&self, out: &mut String) -> Result<(), sortkey_core::EncodeError> {
        out.push_str("CUSTOM#x");
        Ok(())
    }
}

/// Widths and `max` at the edges of each integer type (what a field can hold).
#[derive(SortKey, Debug, Clone, Copy, Default, PartialEq)]
#[key(prefix = "CAP")]
pub struct Caps {
    pub a: u8,
    #[key(width = 2)]
    pub b: u8,
    #[key(width = 4, max = 5000)]
    pub c: u32,
    pub d: i8,
    #[key(width = 3)]
    pub e: i16,
    pub f: i128,
    pub g: u128,
    #[key(width = 5)]
    pub h: i64,
}

/// A timestamp with a width, and one without.
#[derive(SortKey, Debug, Clone, PartialEq)]
pub struct Stamps {
    #[key(unit = "ms", width = 13)]
    pub at: SystemTime,
    pub plain: SystemTime,
}

/// Every layout of this module's and the leaderboard's key types: every field type, option and
/// family shape.
pub fn layouts() -> Vec<(&'static str, Layout)> {
    vec![
        ("Ints", Ints::LAYOUT),
        ("Texts", Texts::LAYOUT),
        ("Times", Times::LAYOUT),
        ("Floats", Floats::LAYOUT),
        ("Ids", Ids::LAYOUT),
        ("Inner", Inner::LAYOUT),
        ("Outer", Outer::LAYOUT),
        ("Partition", Partition::LAYOUT),
        ("OrderKey", OrderKey::LAYOUT),
        ("AddressKey", AddressKey::LAYOUT),
        ("Item", Item::LAYOUT),
        ("Audit", Audit::LAYOUT),
        ("Custom", Custom::LAYOUT),
        ("RankKey", RankKey::LAYOUT),
        ("RankKeyV1", RankKeyV1::LAYOUT),
    ]
}

/// A derived type's decode, its value left out: whether and how it refuses a string.
pub type Derived = fn(&str) -> Result<(), sortkey_core::DecodeError>;

/// Valid keys of the derived types above, each with the derived type's decode: what the
/// decode law mutates.
pub fn samples() -> Vec<(String, Layout, Derived)> {
    fn check<K: for<'k> sortkey_core::DecodeKey<'k> + SortKey>(s: &str) -> Result<(), sortkey_core::DecodeError> {
        K::decode(s).map(drop)
    }
    let at = |s: u64| SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(s);
    let ints = Ints {
        a: 7,
        b: 65535,
        c: 0,
        d: u64::MAX,
        e: 1,
        f: 2,
        g: -8,
        h: 300,
        i: -1,
        j: i64::MIN,
        k: 5,
        l: -2,
        m: 4999,
        n: -42,
    };
    let times =
        Times { at: at(1_719_100_800_123), text: DateTime::from_timestamp(1_719_100_800, 0).unwrap(), plain: None };
    let floats = Floats { hex: -1.5, small: 0.25, price: Decimal::new(12345, 2), last: f64::MAX };
    let ids = Ids { id: Uuid::nil(), ulid: Ulid::from(42u128), status: Status::ShipPending, maybe: None };
    let outer = Outer { inner: Inner { id: 7 }, opt: Some(Inner { id: 999 }), tail: "t#x".into() };
    let order = || OrderKey { placed_at: 1_719_100_800, order_id: "o-1".into() };
    let keys: Vec<(String, Layout, Derived)> = vec![
        (ints.encode().unwrap(), Ints::LAYOUT, check::<Ints>),
        (times.encode().unwrap(), Times::LAYOUT, check::<Times>),
        (floats.encode().unwrap(), Floats::LAYOUT, check::<Floats>),
        (ids.encode().unwrap(), Ids::LAYOUT, check::<Ids>),
        (Inner { id: 12 }.encode().unwrap(), Inner::LAYOUT, check::<Inner>),
        (outer.encode().unwrap(), Outer::LAYOUT, check::<Outer>),
        (Partition { customer_id: -5 }.encode().unwrap(), Partition::LAYOUT, check::<Partition>),
        (order().encode().unwrap(), OrderKey::LAYOUT, check::<OrderKey>),
        (AddressKey { n: 3 }.encode().unwrap(), AddressKey::LAYOUT, check::<AddressKey>),
        (Item::Order(order()).encode().unwrap(), Item::LAYOUT, check::<Item>),
        (Item::Profile.encode().unwrap(), Item::LAYOUT, check::<Item>),
        (
            Audit { item: Item::Address(AddressKey { n: 9 }), revision: 2 }.encode().unwrap(),
            Audit::LAYOUT,
            check::<Audit>,
        ),
        (Caps { c: 5000, e: -99, ..Caps::default() }.encode().unwrap(), Caps::LAYOUT, check::<Caps>),
        (Stamps { at: at(5), plain: at(9_000) }.encode().unwrap(), Stamps::LAYOUT, check::<Stamps>),
        (RankKey { score: 1500, player: "p_8842".into() }.encode().unwrap(), RankKey::LAYOUT, check::<RankKey>),
        (RankKeyV1 { score: 15, player: "p".into() }.encode().unwrap(), RankKeyV1::LAYOUT, check::<RankKeyV1>),
    ];
    keys
}
