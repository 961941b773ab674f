//! The owned schema of a key layout: [`DynLayout`], its key ([`DynKey`]), body
//! ([`DynBody`]), variants ([`DynVariant`]), fields ([`DynField`]) and their types
//! ([`DynType`]), and the text each prints. Every other module of `dynamic` reads these.

use std::fmt;

use crate::encoding::key::KeyRole;
use crate::encoding::shard::Shards;
use crate::encoding::spec::TimeUnit;

/// A key layout read from its text: a key or a family, its role and its longest encoding, and
/// the name its errors give it. Two layouts are equal when they read and write the same keys:
/// their names are not compared.
#[derive(Debug, Clone)]
pub struct DynLayout {
    /// The name its decode, encode and query errors give the key: its name in the lock for a
    /// lock's layout ([`LockFile::parse`](crate::LockFile::parse)), `DynLayout` for one read alone ([`DynLayout::parse`])
    /// or made from a derived `Layout`; another with [`DynLayout::named`].
    pub name: &'static str,
    /// Sort key (the default) or partition key (`partition ` before the key).
    pub role: KeyRole,
    /// The longest encoding allowed (` max_len=N` when it is not the role's limit).
    pub max_len: usize,
    /// The key: prefix, separator and fields, or a family.
    pub key: DynKey,
}

impl PartialEq for DynLayout {
    fn eq(&self, other: &Self) -> bool {
        (self.role, self.max_len, &self.key) == (other.role, other.max_len, &other.key)
    }
}

impl Eq for DynLayout {}

/// The key part of a layout, also what a nested key (`key(...)`) and a family's keyed variant
/// hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynKey {
    /// The literal first segment.
    pub prefix: Option<String>,
    /// The character between segments. A text that shows no separator (one field, no prefix,
    /// or a family of literals) reads as `#`, which then changes no byte.
    pub separator: char,
    /// Fields, family variants, or a hand-written key's `{custom}`.
    pub body: DynBody,
}

/// What a key is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DynBody {
    /// Segments in order.
    Fields(Vec<DynField>),
    /// A key family: its variants in order.
    Family(Vec<DynVariant>),
    /// A hand-written `SortKey` impl, which says no more than its prefix and separator.
    Custom,
}

/// A variant of a key family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DynVariant {
    /// A unit variant: its one literal key.
    Unit(String),
    /// A variant of a key type.
    Key(DynKey),
}

/// One field: its name, its type and the options that change its bytes, as written. Two fields
/// are equal when their names, types and options are, a width not written being the one the
/// type and unit imply ([`effective_width`](Self::effective_width)): `{n:u64}` is `{n:u64
/// width=20}`, and a timestamp without a unit is in seconds.
#[derive(Debug, Clone)]
pub struct DynField {
    /// The field's name. Names are kept for the life of the program, once each (the errors of a
    /// layout carry them, as a derived type's carry its field names): [`DynLayout::parse`]
    /// keeps each distinct name once, however many layouts it reads.
    pub name: &'static str,
    /// Its type.
    pub ty: DynType,
    /// `width=N`, 0 when not written.
    pub width: u32,
    /// `desc`.
    pub desc: bool,
    /// `max=N`.
    pub max: Option<u128>,
    /// `unit=...` of a timestamp.
    pub unit: Option<TimeUnit>,
    /// `format=rfc3339` of a timestamp.
    pub rfc3339: bool,
    /// `format=hex` of a float.
    pub hex: bool,
    /// `scale=N` of a decimal.
    pub scale: Option<u32>,
    /// `shards=N by=name` or `shards=N random`: the field is the shard of a sharded partition
    /// key (its width and `max` are then the ones the count implies).
    pub shards: Option<Shards>,
}

impl DynField {
    /// A field named `name` of type `ty` with no option written: `{name:ty}`.
    pub fn new(name: &'static str, ty: DynType) -> Self {
        DynField {
            name,
            ty,
            width: 0,
            desc: false,
            max: None,
            unit: None,
            rfc3339: false,
            hex: false,
            scale: None,
            shards: None,
        }
    }
}

impl PartialEq for DynField {
    fn eq(&self, other: &Self) -> bool {
        // A unit not written is seconds.
        fn options(f: &DynField) -> (&str, &DynType, bool, Option<u128>, TimeUnit, bool, bool, Option<u32>) {
            (f.name, &f.ty, f.desc, f.max, f.unit.unwrap_or(TimeUnit::Seconds), f.rfc3339, f.hex, f.scale)
        }
        options(self) == options(other)
            && self.effective_width() == other.effective_width()
            && self.shards == other.shards
    }
}

impl Eq for DynField {}

/// A field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DynType {
    /// `u8` ... `u128` (the bits), `usize` (0).
    Unsigned(u32),
    /// `i8` ... `i128` (the bits), `isize` (0).
    Signed(u32),
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `text`.
    Text,
    /// `f32`, `f64` (the bits).
    Float(u32),
    /// `timestamp`.
    Timestamp,
    /// `uuid`.
    Uuid,
    /// `ulid`.
    Ulid,
    /// `decimal`.
    Decimal,
    /// `option<T>`.
    Option(Box<DynType>),
    /// `enum(a|b|c)`: the variants' names.
    Enum(Vec<String>),
    /// `key(...)`: a nested key.
    Key(DynKey),
    /// `custom`: a segment type of the user's own.
    Custom,
}

macro_rules! dyn_type_names {
    ($($variant:ident = $name:literal $(needs $feature:literal)?,)*) => {
        impl DynType {
            /// The type's name in the layout text, for a type without a parameter.
            pub(crate) fn name(&self) -> Option<&'static str> {
                match self {
                    $(DynType::$variant => Some($name),)*
                    _ => None,
                }
            }

            /// The type without a parameter named `name` in the layout text.
            pub(crate) fn named(name: &str) -> Option<DynType> {
                match name {
                    $($name => Some(DynType::$variant),)*
                    _ => None,
                }
            }

            /// The feature of sortkey-core the type needs, when it is not enabled.
            pub(crate) fn missing_feature(&self) -> Option<&'static str> {
                match self {
                    $($(DynType::$variant if !cfg!(feature = $feature) => Some($feature),)?)*
                    _ => None,
                }
            }
        }
    };
}
crate::encoding::layout::named_segment_types!(dyn_type_names);

impl DynType {
    /// The type under any `option<...>`.
    pub fn innermost(&self) -> &DynType {
        match self {
            DynType::Option(inner) => inner.innermost(),
            other => other,
        }
    }
}

impl fmt::Display for DynLayout {
    /// The text the layout was read from, as `K::LAYOUT` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self.role, KeyRole::Partition) {
            f.write_str("partition ")?;
        }
        write!(f, "{}", self.key)?;
        if self.max_len != self.role.limit() {
            write!(f, " max_len={}", self.max_len)?;
        }
        Ok(())
    }
}

impl fmt::Display for DynKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = self.separator;
        match &self.body {
            DynBody::Family(variants) => {
                f.write_str("family(")?;
                for (i, v) in variants.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    match v {
                        DynVariant::Unit(lit) => f.write_str(lit)?,
                        DynVariant::Key(key) => write!(f, "{key}")?,
                    }
                }
                f.write_str(")")
            }
            DynBody::Fields(fields) => {
                if let Some(p) = &self.prefix {
                    f.write_str(p)?;
                }
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 || self.prefix.is_some() {
                        write!(f, "{sep}")?;
                    }
                    write!(f, "{field}")?;
                }
                Ok(())
            }
            DynBody::Custom => {
                if let Some(p) = &self.prefix {
                    write!(f, "{p}{sep}")?;
                }
                f.write_str("{custom}")
            }
        }
    }
}

impl fmt::Display for DynField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}:{}", self.name, self.ty)?;
        if self.width > 0 {
            write!(f, " width={}", self.width)?;
        }
        if self.desc {
            f.write_str(" desc")?;
        }
        // A shard field's largest value is its count's.
        if let Some(max) = self.max.filter(|_| self.shards.is_none()) {
            write!(f, " max={max}")?;
        }
        if let Some(unit) = self.unit {
            write!(f, " unit={}", unit.name())?;
        }
        if self.rfc3339 {
            f.write_str(" format=rfc3339")?;
        }
        if self.hex {
            f.write_str(" format=hex")?;
        }
        if let Some(scale) = self.scale {
            write!(f, " scale={scale}")?;
        }
        if let Some(shards) = self.shards {
            write!(f, " {shards}")?;
        }
        f.write_str("}")
    }
}

impl fmt::Display for DynType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynType::Unsigned(0) => f.write_str("usize"),
            DynType::Signed(0) => f.write_str("isize"),
            DynType::Unsigned(bits) => write!(f, "u{bits}"),
            DynType::Signed(bits) => write!(f, "i{bits}"),
            DynType::Float(bits) => write!(f, "f{bits}"),
            DynType::Option(inner) => write!(f, "option<{inner}>"),
            DynType::Enum(names) => write!(f, "enum({})", names.join("|")),
            DynType::Key(key) => write!(f, "key({key})"),
            named => f.write_str(named.name().unwrap_or_default()),
        }
    }
}
