//! What a layout's field can still hold: the least and the largest value its type, width and
//! `max` admit, and for a timestamp the last instant. The audit of a live table compares the
//! largest values it sees with these (the width is a one-way door).

use crate::dynamic::model::{DynField, DynType};
use crate::dynamic::value::DynValue;
use crate::encoding::impls::time::{MAX_NANOS, push_rfc3339};
use crate::encoding::spec::TimeUnit;
use crate::query::ends::{digits_max, unsigned_max};

impl std::fmt::Display for Capacity {
    /// What the field can hold, for people: `999999`, `-99..99`, or a timestamp's largest count
    /// of its unit with its last instant, `9999999999 s (2286-11-20T17:46:39Z)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Capacity::Unsigned { largest } => write!(f, "{largest}"),
            Capacity::Signed { least, largest } => write!(f, "{least}..{largest}"),
            Capacity::Timestamp { largest, unit, last_instant } => {
                write!(f, "{largest} {} ({last_instant})", unit.name())
            }
        }
    }
}

/// The range a numeric or timestamp field admits.
///
/// With the `serde` feature it is an object tagged by `kind` (`"unsigned"`, `"signed"`,
/// `"timestamp"`), its integers by the one rule of `sortkey_core::exact` (a module of that
/// feature): `{"kind": "unsigned", "largest": 999999}`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "snake_case"))]
pub enum Capacity {
    /// An unsigned integer field: from 0 to `largest`.
    Unsigned {
        /// The largest value.
        #[cfg_attr(feature = "serde", serde(with = "crate::dynamic::exact"))]
        largest: u128,
    },
    /// A signed integer field: from `least` to `largest`.
    Signed {
        /// The least value.
        #[cfg_attr(feature = "serde", serde(with = "crate::dynamic::exact"))]
        least: i128,
        /// The largest value.
        #[cfg_attr(feature = "serde", serde(with = "crate::dynamic::exact"))]
        largest: i128,
    },
    /// A timestamp field: up to `largest` units since 1970-01-01T00:00:00Z.
    Timestamp {
        /// Its unit.
        unit: TimeUnit,
        /// The largest count of units.
        #[cfg_attr(feature = "serde", serde(with = "crate::dynamic::exact"))]
        largest: u128,
        /// That instant, in RFC 3339.
        last_instant: String,
    },
}

impl Capacity {
    /// A value of the field as people read it (a [`FieldUsage`](crate::FieldUsage)'s least or
    /// largest): the integer, or for a timestamp field its count of the unit with the instant,
    /// `1719100800 s (2024-06-23T00:00:00Z)`; empty for a value of another kind.
    pub fn value_text(&self, value: &DynValue) -> String {
        match (self, value) {
            (Capacity::Timestamp { unit, .. }, DynValue::Unsigned(count)) => {
                let mut instant = String::new();
                match count.checked_mul(unit.nanos()).filter(|n| *n <= MAX_NANOS) {
                    Some(nanos) => push_rfc3339(&mut instant, nanos, *unit),
                    None => return format!("{count} {}", unit.name()),
                }
                format!("{count} {} ({instant})", unit.name())
            }
            (_, DynValue::Unsigned(v)) => v.to_string(),
            (_, DynValue::Signed(v)) => v.to_string(),
            _ => String::new(),
        }
    }
}

impl DynField {
    /// The range the field admits (of the type under any `option<..>`): `None` for a field
    /// that is no integer or timestamp.
    pub fn capacity(&self) -> Option<Capacity> {
        let below_max = |v: u128| self.max.map_or(v, |m| v.min(m));
        let width = self.effective_width();
        match self.ty.innermost() {
            DynType::Unsigned(bits) => {
                let type_max = unsigned_max(*bits);
                let by_width = match width {
                    0 => type_max,
                    w => digits_max(w).min(type_max),
                };
                Some(Capacity::Unsigned { largest: below_max(by_width) })
            }
            DynType::Signed(bits) => {
                let type_max = unsigned_max(*bits) >> 1;
                // One position holds the sign: the magnitude has one digit fewer than the width.
                let limit = match width {
                    0 => u128::MAX,
                    w => digits_max(w.saturating_sub(1)),
                };
                let largest = below_max(limit.min(type_max)) as i128;
                let magnitude = limit.min(type_max + 1);
                let least = i128::try_from(magnitude).map_or(i128::MIN, |m| -m);
                Some(Capacity::Signed { least, largest })
            }
            DynType::Timestamp => {
                let unit = self.unit.unwrap_or(TimeUnit::Seconds);
                let in_range = MAX_NANOS / unit.nanos();
                let largest = match (self.rfc3339, width) {
                    (true, _) | (false, 0) => in_range,
                    (false, w) => digits_max(w).min(in_range),
                };
                let largest = below_max(largest);
                let mut last_instant = String::new();
                push_rfc3339(&mut last_instant, largest * unit.nanos(), unit);
                Some(Capacity::Timestamp { unit, largest, last_instant })
            }
            _ => None,
        }
    }
}
