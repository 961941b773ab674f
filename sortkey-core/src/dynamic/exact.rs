//! Integers in JSON, by one rule: a number when its magnitude is at most 2^53 (every integer up to
//! there is exactly an `f64`, what a JSON reader in JavaScript holds), else a string of its decimal
//! digits. Both forms are read back. Every document this crate and the `sortkey` command write
//! follows it: a layout's values, capacities, the audit's least and largest values.
//!
//! Use it as `#[serde(with = "sortkey_core::exact")]` on a field of type `u128`, `i128`, `u64`,
//! `i64`, `u32` or an `Option` of one of them.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Capacity {
//!     #[serde(with = "sortkey_core::exact")]
//!     largest: u128,
//! }
//!
//! let small = Capacity { largest: 999_999 };
//! assert_eq!(serde_json::to_string(&small).unwrap(), r#"{"largest":999999}"#);
//! let big = Capacity { largest: 99_999_999_999_999_999 };
//! assert_eq!(serde_json::to_string(&big).unwrap(), r#"{"largest":"99999999999999999"}"#);
//! assert_eq!(serde_json::from_str::<Capacity>(r#"{"largest":"99999999999999999"}"#).unwrap(), big);
//! ```

use std::fmt;

use serde_core::de::{self, Visitor};
use serde_core::{Deserializer, Serializer};

/// The largest magnitude written as a JSON number.
pub const EXACT_IN_F64: u128 = 1 << 53;

/// An integer type the rule applies to.
pub trait ExactInt: Sized {
    /// Writes the value by the rule.
    fn serialize_exact<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    /// Reads a number or a string of digits.
    fn deserialize_exact<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

/// Writes `value` as a number up to 2^53 in magnitude, else as a string of digits.
pub fn serialize<T: ExactInt, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    value.serialize_exact(s)
}

/// Reads what [`serialize`] writes (a number or a string of digits).
pub fn deserialize<'de, T: ExactInt, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::deserialize_exact(d)
}

/// Writes an `i128` by the rule.
pub(crate) fn serialize_i128<S: Serializer>(v: i128, s: S) -> Result<S::Ok, S::Error> {
    if v.unsigned_abs() <= EXACT_IN_F64 { s.serialize_i64(v as i64) } else { s.collect_str(&v) }
}

/// Writes a `u128` by the rule.
pub(crate) fn serialize_u128<S: Serializer>(v: u128, s: S) -> Result<S::Ok, S::Error> {
    if v <= EXACT_IN_F64 { s.serialize_u64(v as u64) } else { s.collect_str(&v) }
}

/// Reads a JSON integer or a string of digits as an `i128`.
struct Integer;

impl<'de> Visitor<'de> for Integer {
    type Value = i128;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer, or a string of its decimal digits")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i128, E> {
        Ok(i128::from(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i128, E> {
        Ok(i128::from(v))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<i128, E> {
        i128::try_from(v).map_err(|_| E::custom(format_args!("an integer up to 2^127, found {v}")))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<i128, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<i128, E> {
        let digits = v.strip_prefix('-').unwrap_or(v);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::invalid_value(de::Unexpected::Str(v), &self));
        }
        v.parse().map_err(|_| E::custom(format_args!("an integer that fits 128 bits, found `{v}`")))
    }
}

/// Reads an unsigned JSON integer or string of digits.
struct Unsigned;

impl<'de> Visitor<'de> for Unsigned {
    type Value = u128;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer of 0 or more, or a string of its decimal digits")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u128, E> {
        Ok(u128::from(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u128, E> {
        u128::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u128, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<u128, E> {
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::invalid_value(de::Unexpected::Str(v), &self));
        }
        v.parse().map_err(|_| E::custom(format_args!("an integer that fits 128 bits, found `{v}`")))
    }
}

/// Reads an `i128` by the rule.
pub(crate) fn deserialize_i128<'de, D: Deserializer<'de>>(d: D) -> Result<i128, D::Error> {
    d.deserialize_any(Integer)
}

/// Reads a `u128` by the rule.
pub(crate) fn deserialize_u128<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
    d.deserialize_any(Unsigned)
}

macro_rules! exact_int {
    ($($t:ty => $wide:ty, $ser:ident, $de:ident;)*) => {$(
        impl ExactInt for $t {
            fn serialize_exact<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $ser(<$wide>::from(*self), s)
            }

            fn deserialize_exact<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let wide = $de(d)?;
                <$t>::try_from(wide).map_err(|_| {
                    de::Error::custom(format_args!("an integer that fits {}, found {wide}", stringify!($t)))
                })
            }
        }
    )*};
}

exact_int! {
    u128 => u128, serialize_u128, deserialize_u128;
    u64 => u128, serialize_u128, deserialize_u128;
    u32 => u128, serialize_u128, deserialize_u128;
    i128 => i128, serialize_i128, deserialize_i128;
    i64 => i128, serialize_i128, deserialize_i128;
}

impl<T: ExactInt> ExactInt for Option<T> {
    fn serialize_exact<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Some(v) => v.serialize_exact(s),
            None => s.serialize_none(),
        }
    }

    fn deserialize_exact<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Present<T>(std::marker::PhantomData<T>);
        impl<'de, T: ExactInt> Visitor<'de> for Present<T> {
            type Value = Option<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("null, an integer, or a string of its decimal digits")
            }

            fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }

            fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }

            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
                T::deserialize_exact(d).map(Some)
            }
        }
        d.deserialize_option(Present(std::marker::PhantomData))
    }
}
