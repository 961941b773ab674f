//! A [`DynValue`] as JSON (or any self-describing serde format), with the `serde` feature: a
//! key is an object of field name to value; the layout says how to read each value back
//! ([`DynLayout::value_seed`]).
//!
//! | Layout type | JSON |
//! |---|---|
//! | integers | a number when it is at most 2^53 in magnitude (an `f64` holds it exactly), else a string of decimal digits; both are read |
//! | `f32`, `f64` | a number; `"inf"`, `"-inf"` (JSON has no infinities); `"NaN"` is read and refused by the encoder |
//! | `bool`, `char`, `text` | a boolean, a one-character string, a string |
//! | `timestamp` | RFC 3339 UTC text, with 0, 3, 6 or 9 fraction digits, the fewest that hold the instant |
//! | `uuid`, `ulid`, `decimal` | their canonical text |
//! | `enum(...)` | the variant's name |
//! | `option<T>` | `null`, or the value (`[value]` when `T` is itself an option) |
//! | `key(...)`, the whole key | an object of field name to value, in the layout's order |
//! | a family | a unit variant's literal, or an object of one entry: the variant's prefix to its key |
//! | `custom` | the segment's raw text |
//!
//! A float is written in the shortest digits that read back to its exact bits; a reader must
//! parse them correctly rounded (serde_json does with its feature `float_roundtrip`; without it
//! the last bit may differ).

use std::fmt;
use std::time::SystemTime;

use serde_core::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_core::ser::{self, SerializeMap, SerializeSeq};
use serde_core::{Deserializer, Serialize, Serializer};

use crate::dynamic::exact;
use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::value::DynValue;
use crate::encoding::impls::time::{self, MAX_NANOS, parse_rfc3339_any, push_rfc3339};
use crate::encoding::spec::TimeUnit;

impl Serialize for DynValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            DynValue::Unsigned(v) => exact::serialize_u128(*v, s),
            DynValue::Signed(v) => exact::serialize_i128(*v, s),
            DynValue::Bool(v) => s.serialize_bool(*v),
            DynValue::Char(v) => s.serialize_char(*v),
            DynValue::F32(v) if v.is_finite() => s.serialize_f32(*v),
            DynValue::F64(v) if v.is_finite() => s.serialize_f64(*v),
            DynValue::F32(v) => s.serialize_str(non_finite(f64::from(*v))),
            DynValue::F64(v) => s.serialize_str(non_finite(*v)),
            DynValue::Timestamp(t) => {
                s.serialize_str(&rfc3339(*t).ok_or_else(|| {
                    ser::Error::custom(format_args!("a timestamp from 1970 to year 9999, found {t:?}"))
                })?)
            }
            DynValue::Text(v)
            | DynValue::Uuid(v)
            | DynValue::Ulid(v)
            | DynValue::Decimal(v)
            | DynValue::Enum(v)
            | DynValue::Custom(v) => s.serialize_str(v),
            DynValue::Option(None) => s.serialize_none(),
            DynValue::Option(Some(v)) if matches!(**v, DynValue::Option(_)) => {
                let mut seq = s.serialize_seq(Some(1))?;
                seq.serialize_element(v)?;
                seq.end()
            }
            DynValue::Option(Some(v)) => s.serialize_some(v),
            DynValue::Key(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (name, value) in fields {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
            DynValue::Variant(name, None) => s.serialize_str(name),
            DynValue::Variant(name, Some(value)) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(name, value)?;
                map.end()
            }
        }
    }
}

/// An infinity's (or NaN's) text.
fn non_finite(v: f64) -> &'static str {
    match v {
        f64::INFINITY => "inf",
        f64::NEG_INFINITY => "-inf",
        _ => "NaN",
    }
}

/// The instant as RFC 3339 UTC text with the fewest fraction digits (0, 3, 6, 9) that hold it;
/// `None` before 1970 or after year 9999.
fn rfc3339(t: SystemTime) -> Option<String> {
    let nanos = t.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_nanos();
    if nanos > MAX_NANOS {
        return None;
    }
    let unit = [TimeUnit::Seconds, TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos]
        .into_iter()
        .find(|unit| nanos % unit.nanos() == 0)
        .unwrap_or(TimeUnit::Nanos);
    let mut out = String::with_capacity(30);
    push_rfc3339(&mut out, nanos, unit);
    Some(out)
}

/// RFC 3339 UTC text (no fraction, or 1 to 9 digits) as an instant.
fn instant(text: &str) -> Option<SystemTime> {
    time::instant(parse_rfc3339_any(text)?)
}

impl DynLayout {
    /// Reads a value of this layout from a serde deserializer, as [`DynValue`]'s `Serialize`
    /// writes it (the mapping is in the module's documentation and the README): the layout
    /// says which fields there are and how each is read.
    ///
    /// ```
    /// # use serde_core::de::DeserializeSeed;
    /// let layout = sortkey_core::DynLayout::parse("RUN#{score:u64 width=10 desc}#{player:text}")?;
    /// let json = r#"{"score": 1500, "player": "p_8842"}"#;
    /// let value = layout.value_seed().deserialize(&mut serde_json::Deserializer::from_str(json))?;
    /// assert_eq!(layout.encode(&value)?, "RUN#9999998499#p_8842");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_seed(&self) -> ValueSeed<'_> {
        ValueSeed(Target::Key(&self.key))
    }
}

impl DynField {
    /// Reads a value of this field alone (what a query builder's `fix` or `compare` takes), as
    /// [`DynLayout::value_seed`] reads it inside a key's object.
    ///
    /// ```
    /// # use serde_core::de::DeserializeSeed;
    /// let layout = sortkey_core::DynLayout::parse("RUN#{score:u64 width=10 desc}#{player:text}")?;
    /// let (_, score) = &layout.field_paths()[0];
    /// let value = score.value_seed().deserialize(&mut serde_json::Deserializer::from_str("1500"))?;
    /// assert_eq!(value, sortkey_core::DynValue::Unsigned(1500));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn value_seed(&self) -> ValueSeed<'_> {
        ValueSeed(Target::Type(&self.ty))
    }
}

/// A [`DeserializeSeed`] of a layout's values: [`DynLayout::value_seed`].
#[derive(Debug, Clone, Copy)]
pub struct ValueSeed<'a>(Target<'a>);

/// What a value is read as: a key (or family), or a field's type.
#[derive(Debug, Clone, Copy)]
enum Target<'a> {
    Key(&'a DynKey),
    Type(&'a DynType),
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = DynValue;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<DynValue, D::Error> {
        d.deserialize_any(self)
    }
}

/// One scalar of the input, as the visitor saw it.
enum Scalar<'s> {
    Null,
    Unsigned(u128),
    Signed(i128),
    Float(f64),
    Bool(bool),
    Str(&'s str),
}

impl ValueSeed<'_> {
    /// The key (nested or whole) this seed reads, under any options.
    fn key(&self) -> Option<&DynKey> {
        match self.0 {
            Target::Key(key) => Some(key),
            Target::Type(ty) => match ty {
                DynType::Key(key) => Some(key),
                _ => None,
            },
        }
    }

    /// `scalar` as a value of this seed's type.
    fn scalar<E: de::Error>(self, scalar: Scalar<'_>) -> Result<DynValue, E> {
        let ty = match self.0 {
            Target::Type(DynType::Key(_)) | Target::Key(_) => return self.key_scalar(scalar),
            Target::Type(ty) => ty,
        };
        let value = match (ty, scalar) {
            (DynType::Option(_), Scalar::Null) => DynValue::Option(None),
            (DynType::Option(inner), scalar) if !matches!(**inner, DynType::Option(_)) => {
                DynValue::Option(Some(Box::new(ValueSeed(Target::Type(inner)).scalar(scalar)?)))
            }
            (DynType::Unsigned(_), Scalar::Unsigned(v)) => DynValue::Unsigned(v),
            (DynType::Unsigned(_), Scalar::Signed(v)) if v >= 0 => DynValue::Unsigned(v as u128),
            (DynType::Unsigned(_), Scalar::Str(s)) => DynValue::Unsigned(s.parse().map_err(|_| wrong(ty, s))?),
            (DynType::Signed(_), Scalar::Signed(v)) => DynValue::Signed(v),
            (DynType::Signed(_), Scalar::Unsigned(v)) => {
                DynValue::Signed(i128::try_from(v).map_err(|_| wrong(ty, &v.to_string()))?)
            }
            (DynType::Signed(_), Scalar::Str(s)) => DynValue::Signed(s.parse().map_err(|_| wrong(ty, s))?),
            (DynType::Float(bits), scalar) => float(*bits, scalar).ok_or_else(|| wrong(ty, "another value"))?,
            (DynType::Bool, Scalar::Bool(v)) => DynValue::Bool(v),
            (DynType::Char, Scalar::Str(s)) => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => DynValue::Char(c),
                    _ => return Err(wrong(ty, s)),
                }
            }
            (DynType::Text, Scalar::Str(s)) => DynValue::Text(s.to_owned()),
            (DynType::Timestamp, Scalar::Str(s)) => DynValue::Timestamp(instant(s).ok_or_else(|| wrong(ty, s))?),
            (DynType::Uuid, Scalar::Str(s)) => DynValue::Uuid(s.to_owned()),
            (DynType::Ulid, Scalar::Str(s)) => DynValue::Ulid(s.to_owned()),
            (DynType::Decimal, Scalar::Str(s)) => DynValue::Decimal(s.to_owned()),
            (DynType::Enum(names), Scalar::Str(s)) if names.iter().any(|n| n == s) => DynValue::Enum(s.to_owned()),
            (DynType::Custom, Scalar::Str(s)) => DynValue::Custom(s.to_owned()),
            (ty, _) => return Err(wrong(ty, "another value")),
        };
        Ok(value)
    }

    /// A scalar where a key is read: a family's unit variant, or a custom key's raw text.
    fn key_scalar<E: de::Error>(self, scalar: Scalar<'_>) -> Result<DynValue, E> {
        let key = self.key().ok_or_else(|| E::custom("a key"))?;
        match (&key.body, scalar) {
            (DynBody::Family(variants), Scalar::Str(s))
                if variants.iter().any(|v| matches!(v, DynVariant::Unit(l) if l == s)) =>
            {
                Ok(DynValue::Variant(s.to_owned(), None))
            }
            (DynBody::Custom, Scalar::Str(s)) => Ok(DynValue::Custom(s.to_owned())),
            (DynBody::Family(_), _) => Err(E::custom(format_args!("expected a variant of `{key}`"))),
            _ => Err(E::custom(format_args!("expected an object of the fields of `{key}`"))),
        }
    }
}

/// A float from a number, or from `"inf"`, `"-inf"`, `"NaN"` or a number's text.
fn float(bits: u32, scalar: Scalar<'_>) -> Option<DynValue> {
    let v = match scalar {
        Scalar::Float(v) => v,
        Scalar::Unsigned(v) => v as f64,
        Scalar::Signed(v) => v as f64,
        Scalar::Str(s) if bits == 32 => return s.parse::<f32>().ok().map(DynValue::F32),
        Scalar::Str(s) => s.parse().ok()?,
        _ => return None,
    };
    Some(if bits == 32 { DynValue::F32(v as f32) } else { DynValue::F64(v) })
}

/// The error of a value its field's type does not read.
fn wrong<E: de::Error>(ty: &DynType, found: &str) -> E {
    E::custom(format_args!("expected a `{ty}` value, found {found:?}"))
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = DynValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Target::Key(key) => write!(f, "a value of `{key}`"),
            Target::Type(ty) => write!(f, "a `{ty}` value"),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<DynValue, E> {
        self.scalar(Scalar::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<DynValue, E> {
        self.scalar(Scalar::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<DynValue, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<DynValue, E> {
        self.scalar(Scalar::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<DynValue, E> {
        self.scalar(Scalar::Unsigned(v.into()))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<DynValue, E> {
        self.scalar(Scalar::Unsigned(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<DynValue, E> {
        self.scalar(Scalar::Signed(v.into()))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<DynValue, E> {
        self.scalar(Scalar::Signed(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<DynValue, E> {
        self.scalar(Scalar::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<DynValue, E> {
        self.scalar(Scalar::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DynValue, A::Error> {
        // `[value]`: `Some` of an option whose value is itself an option.
        let Target::Type(DynType::Option(inner)) = self.0 else {
            return Err(de::Error::invalid_type(de::Unexpected::Seq, &self));
        };
        let value = seq.next_element_seed(ValueSeed(Target::Type(inner)))?;
        match (value, seq.next_element::<de::IgnoredAny>()?) {
            (Some(value), None) => Ok(DynValue::Option(Some(Box::new(value)))),
            _ => Err(de::Error::invalid_length(2, &"one element, the option's value")),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<DynValue, A::Error> {
        if let Target::Type(DynType::Option(inner)) = self.0 {
            let value = ValueSeed(Target::Type(inner)).visit_map(map)?;
            return Ok(DynValue::Option(Some(Box::new(value))));
        }
        let key = self.key().ok_or_else(|| de::Error::invalid_type(de::Unexpected::Map, &self))?;
        match &key.body {
            DynBody::Fields(_) => fields(key, map),
            DynBody::Family(variants) => variant(variants, map),
            DynBody::Custom => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }
}

/// A key's fields from an object, in the layout's order; every field once, no other.
fn fields<'de, A: MapAccess<'de>>(key: &DynKey, mut map: A) -> Result<DynValue, A::Error> {
    let DynBody::Fields(fields) = &key.body else { unreachable!("the caller matched fields") };
    let mut values: Vec<Option<DynValue>> = vec![None; fields.len()];
    while let Some(name) = map.next_key::<String>()? {
        let Some(i) = fields.iter().position(|f| f.name == name) else {
            return Err(de::Error::custom(format_args!("unknown field `{name}` of `{key}`")));
        };
        if values[i].is_some() {
            return Err(de::Error::custom(format_args!("field `{name}` given twice")));
        }
        let value = map
            .next_value_seed(ValueSeed(Target::Type(&fields[i].ty)))
            .map_err(|e: A::Error| de::Error::custom(format_args!("field `{name}`: {e}")))?;
        values[i] = Some(value);
    }
    let mut out = Vec::with_capacity(fields.len());
    for (field, value) in fields.iter().zip(values) {
        let value =
            value.ok_or_else(|| de::Error::custom(format_args!("missing field `{}` of `{key}`", field.name)))?;
        out.push((field.name, value));
    }
    Ok(DynValue::Key(out))
}

/// A family's keyed variant from an object of one entry, its prefix to its key.
fn variant<'de, A: MapAccess<'de>>(variants: &[DynVariant], mut map: A) -> Result<DynValue, A::Error> {
    let Some(name) = map.next_key::<String>()? else {
        return Err(de::Error::invalid_length(0, &"one entry: a variant's prefix to its key"));
    };
    let Some(key) = variants.iter().find_map(|v| match v {
        DynVariant::Key(key) if key.prefix.as_deref() == Some(name.as_str()) => Some(key),
        _ => None,
    }) else {
        return Err(de::Error::custom(format_args!("no keyed variant with the prefix {name:?}")));
    };
    let value = map.next_value_seed(ValueSeed(Target::Key(key)))?;
    if map.next_key::<de::IgnoredAny>()?.is_some() {
        return Err(de::Error::invalid_length(2, &"one entry: a variant's prefix to its key"));
    }
    Ok(DynValue::Variant(name, Some(Box::new(value))))
}
