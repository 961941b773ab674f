//! A key's value read through a layout: every field by name with its typed value, what
//! [`DynLayout::decode`](crate::DynLayout::decode) returns and
//! [`DynLayout::encode`](crate::DynLayout::encode) writes.

use std::time::SystemTime;

/// A key's value, read through its layout: every field by name with its typed value.
///
/// A whole key is a [`DynValue::Key`] (its fields in the layout's order) or, for a family, a
/// [`DynValue::Variant`]. Integers keep every bit of any width, floats their exact bits, a
/// timestamp its instant to the field's unit; UUIDs, ULIDs and decimals are held as their
/// canonical text (so that no feature is needed to hold one), and a `custom` segment (a type
/// of the user's own, which the layout cannot describe) as its raw text, marked as such.
#[derive(Debug, Clone, PartialEq)]
pub enum DynValue {
    /// An unsigned integer, of any width.
    Unsigned(u128),
    /// A signed integer, of any width.
    Signed(i128),
    /// `bool`.
    Bool(bool),
    /// `char`.
    Char(char),
    /// Text.
    Text(String),
    /// `f32`, with its exact bits.
    F32(f32),
    /// `f64`, with its exact bits.
    F64(f64),
    /// A timestamp, to its unit.
    Timestamp(SystemTime),
    /// A UUID, as its text.
    Uuid(String),
    /// A ULID, as its text.
    Ulid(String),
    /// A decimal, as its text.
    Decimal(String),
    /// An option: `None`, or `Some` of the value.
    Option(Option<Box<DynValue>>),
    /// An enum: its variant's name.
    Enum(String),
    /// A key: its fields by name, in order.
    Key(Vec<(&'static str, DynValue)>),
    /// A family's variant: its literal (a unit's) or prefix (a key's), and a key's value.
    Variant(String, Option<Box<DynValue>>),
    /// A custom segment (a type of the user's own), as its raw text.
    Custom(String),
}

impl DynValue {
    /// The field `name` of a key's value; `None` for another value or an unknown name.
    pub fn field(&self, name: &str) -> Option<&DynValue> {
        match self {
            DynValue::Key(fields) => fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What kind of value this is, for messages: `an unsigned integer`, `text`, ...
    pub fn kind(&self) -> &'static str {
        match self {
            DynValue::Unsigned(_) => "an unsigned integer",
            DynValue::Signed(_) => "a signed integer",
            DynValue::Bool(_) => "a bool",
            DynValue::Char(_) => "a char",
            DynValue::Text(_) => "text",
            DynValue::F32(_) => "an f32",
            DynValue::F64(_) => "an f64",
            DynValue::Timestamp(_) => "a timestamp",
            DynValue::Uuid(_) => "a UUID",
            DynValue::Ulid(_) => "a ULID",
            DynValue::Decimal(_) => "a decimal",
            DynValue::Option(_) => "an option",
            DynValue::Enum(_) => "an enum name",
            DynValue::Key(_) => "a key",
            DynValue::Variant(..) => "a family variant",
            DynValue::Custom(_) => "a custom segment",
        }
    }
}

impl crate::dynamic::model::DynField {
    /// A value of this field from its text as a person types it (on a command line): an
    /// integer in decimal, a float (`inf`, `-inf`), `true`/`false`, a char, text as it is, a
    /// UUID, ULID or decimal as its text, an enum name, a timestamp as RFC 3339 UTC text (no
    /// fraction, or 1 to 9 digits, no finer than the field's unit) or as a count of the field's
    /// unit since 1970, `null` for an option's `None` (anything else is its
    /// value). A nested key has no text form here: an error says so.
    pub fn value_from_text(&self, text: &str) -> Result<DynValue, ValueTextError> {
        value_of(&self.ty, self.unit, text).map_err(|expected| ValueTextError {
            field: self.name.to_owned(),
            kind: if matches!(self.ty.innermost(), crate::dynamic::model::DynType::Key(_)) {
                ValueTextErrorKind::NestedKey
            } else {
                ValueTextErrorKind::NotAValue
            },
            expected,
            found: text.to_owned(),
        })
    }
}

/// Text that is no value of a field ([`DynField::value_from_text`](crate::DynField::value_from_text)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueTextError {
    /// The field's name.
    pub field: String,
    /// Why.
    pub kind: ValueTextErrorKind,
    /// What the field's type reads: `a \`u64\` value`, `one of gold, silver`.
    pub expected: String,
    /// The text.
    pub found: String,
}

/// Why text is no value of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueTextErrorKind {
    /// The text is not what the field's type reads (or a value beyond its range).
    NotAValue,
    /// The field is a nested key, which has no text form: its fields are given one by one.
    NestedKey,
}

impl std::fmt::Display for ValueTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "field `{}`: expected {}, found {:?}", self.field, self.expected, self.found)
    }
}

impl std::error::Error for ValueTextError {}

/// The value of type `ty` that `text` writes, or what was expected.
fn value_of(
    ty: &crate::dynamic::model::DynType,
    unit: Option<crate::encoding::spec::TimeUnit>,
    text: &str,
) -> Result<DynValue, String> {
    use crate::dynamic::model::DynType;
    let expected = || format!("a `{ty}` value");
    Ok(match ty {
        DynType::Unsigned(_) => DynValue::Unsigned(text.parse().map_err(|_| expected())?),
        DynType::Signed(_) => DynValue::Signed(text.parse().map_err(|_| expected())?),
        DynType::Float(32) => DynValue::F32(text.parse().map_err(|_| expected())?),
        DynType::Float(_) => DynValue::F64(text.parse().map_err(|_| expected())?),
        DynType::Bool => DynValue::Bool(text.parse().map_err(|_| "`true` or `false`".to_owned())?),
        DynType::Char => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => DynValue::Char(c),
                _ => return Err("one character".to_owned()),
            }
        }
        DynType::Text => DynValue::Text(text.to_owned()),
        DynType::Custom => DynValue::Custom(text.to_owned()),
        DynType::Uuid => DynValue::Uuid(text.to_owned()),
        DynType::Ulid => DynValue::Ulid(text.to_owned()),
        DynType::Decimal => DynValue::Decimal(text.to_owned()),
        DynType::Enum(names) if names.iter().any(|n| n == text) => DynValue::Enum(text.to_owned()),
        DynType::Enum(names) => return Err(format!("one of {}", names.join(", "))),
        DynType::Timestamp => {
            let unit = unit.unwrap_or(crate::encoding::spec::TimeUnit::Seconds);
            let nanos = match text.parse::<u128>() {
                Ok(count) => count.checked_mul(unit.nanos()),
                Err(_) => crate::encoding::impls::time::parse_rfc3339_any(text),
            };
            let nanos = nanos.ok_or_else(|| format!("RFC 3339 UTC text or a count of {} since 1970", unit.name()))?;
            // Finer than the unit, the instant is the field's value truncated toward the past, as
            // every writer and reader of the format takes it (SK-ENC-015, SK-ENC-016): in a key
            // and in a condition alike.
            DynValue::Timestamp(crate::encoding::impls::time::instant(nanos).ok_or_else(expected)?)
        }
        DynType::Option(_) if text == "null" => DynValue::Option(None),
        DynType::Option(inner) => DynValue::Option(Some(Box::new(value_of(inner, unit, text)?))),
        DynType::Key(_) => return Err("a nested key, which has no text form: give the fields before it".to_owned()),
    })
}
