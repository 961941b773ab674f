//! Key types of every field type, option and family shape, with sample keys: what the tests of
//! layouts you can run (tests/dyn_layouts.rs, tests/dyn_values.rs) hold the runtime layout to,
//! and each type's value as a [`DynValue`], written by hand, field by field.

use std::borrow::Cow;
use std::time::SystemTime;

use sortkey_core::chrono::{DateTime, Utc};
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;
use sortkey_core::{DynValue, KeySegment, Layout, SortKey};

use crate::leaderboard::{RankKey, RankKeyV1};

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

/// A value of a derived key type as the [`DynValue`] its layout reads, written by hand: the
/// other side of the law that the runtime layout decodes and encodes as the derived type.
pub trait ToDyn {
    /// The value as a [`DynValue`].
    fn to_dyn(&self) -> DynValue;
}

macro_rules! to_dyn_as {
    ($variant:ident($via:ty): $($t:ty),*) => {$(
        impl ToDyn for $t {
            fn to_dyn(&self) -> DynValue {
                DynValue::$variant(<$via>::try_from(*self).expect("widens"))
            }
        }
    )*};
}
to_dyn_as!(Unsigned(u128): u8, u16, u32, u64, u128, usize);
to_dyn_as!(Signed(i128): i8, i16, i32, i64, i128, isize);
to_dyn_as!(Bool(bool): bool);
to_dyn_as!(Char(char): char);
to_dyn_as!(F32(f32): f32);
to_dyn_as!(F64(f64): f64);
to_dyn_as!(Timestamp(SystemTime): SystemTime);

impl ToDyn for String {
    fn to_dyn(&self) -> DynValue {
        DynValue::Text(self.clone())
    }
}

impl ToDyn for &str {
    fn to_dyn(&self) -> DynValue {
        DynValue::Text((*self).to_owned())
    }
}

impl ToDyn for Cow<'_, str> {
    fn to_dyn(&self) -> DynValue {
        DynValue::Text(self.to_string())
    }
}

impl ToDyn for DateTime<Utc> {
    fn to_dyn(&self) -> DynValue {
        let since = std::time::Duration::new(self.timestamp() as u64, self.timestamp_subsec_nanos());
        DynValue::Timestamp(SystemTime::UNIX_EPOCH + since)
    }
}

impl ToDyn for Uuid {
    fn to_dyn(&self) -> DynValue {
        DynValue::Uuid(self.to_string())
    }
}

impl ToDyn for Ulid {
    fn to_dyn(&self) -> DynValue {
        DynValue::Ulid(self.to_string())
    }
}

impl ToDyn for Decimal {
    fn to_dyn(&self) -> DynValue {
        DynValue::Decimal(self.to_string())
    }
}

impl<T: ToDyn> ToDyn for Option<T> {
    fn to_dyn(&self) -> DynValue {
        DynValue::Option(self.as_ref().map(|v| Box::new(v.to_dyn())))
    }
}

impl ToDyn for Status {
    fn to_dyn(&self) -> DynValue {
        let name = match self {
            Status::Pending => "pending",
            Status::ShipPending => "ship-pending",
        };
        DynValue::Enum(name.to_owned())
    }
}

/// `ToDyn` of key types, each `Type { field, ... }`: a [`DynValue::Key`] of the fields in order.
#[macro_export]
macro_rules! key_to_dyn {
    ($($t:ty { $($f:ident),* })*) => {$(
        impl $crate::samples::ToDyn for $t {
            fn to_dyn(&self) -> sortkey_core::DynValue {
                sortkey_core::DynValue::Key(vec![$((stringify!($f), $crate::samples::ToDyn::to_dyn(&self.$f))),*])
            }
        }
    )*};
}
crate::key_to_dyn! {
    Ints { a, b, c, d, e, f, g, h, i, j, k, l, m, n }
    Texts<'_> { flag, letter, name, cow, last }
    Times { at, text, plain }
    Floats { hex, small, price, last }
    Ids { id, ulid, status, maybe }
    Inner { id }
    Outer { inner, opt, tail }
    Partition { customer_id }
    OrderKey { placed_at, order_id }
    AddressKey { n }
    Audit { item, revision }
    Caps { a, b, c, d, e, f, g, h }
    Stamps { at, plain }
    RankKey { score, player }
    RankKeyV1 { score, player }
}

impl ToDyn for Item {
    fn to_dyn(&self) -> DynValue {
        match self {
            Item::Profile => DynValue::Variant("PROFILE".to_owned(), None),
            Item::Order(k) => DynValue::Variant("ORDER".to_owned(), Some(Box::new(k.to_dyn()))),
            Item::Address(k) => DynValue::Variant("ADDR".to_owned(), Some(Box::new(k.to_dyn()))),
        }
    }
}
