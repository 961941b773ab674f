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
