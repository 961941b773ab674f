//! Each sample type's value as the [`DynValue`] its layout reads, written by hand, field by
//! field.

use std::borrow::Cow;
use std::time::SystemTime;

use sortkey_core::DynValue;
use sortkey_core::chrono::{DateTime, Utc};
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;

use super::*;
use crate::leaderboard::{RankKey, RankKeyV1};

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
