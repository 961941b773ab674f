//! Layout descriptions: what a key's encoding is, as a constant a reviewer reads in a diff.
//!
//! `RankKey::LAYOUT.to_string()` is `RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}`.
//! The grammar (also in the README):
//!
//! ```text
//! layout   = [ "partition " ] key [ " max_len=" N ]
//! key      = [ prefix sep ] field *( sep field )  |  "family(" variant *( " | " variant ) ")"
//! variant  = literal | key
//! field    = "{" name ":" type *( " " option ) "}"
//! type     = "u8" ... "u128" | "i8" ... "i128" | "usize" | "isize" | "bool" | "char" | "text"
//!          | "f32" | "f64" | "timestamp" | "uuid" | "ulid" | "decimal" | "option<" type ">"
//!          | "enum(" name *( "|" name ) ")" | "key(" key ")" | "custom"
//! option   = "width=" N | "desc" | "max=" N | "unit=" ( "s" | "ms" | "us" | "ns" )
//!          | "format=rfc3339" | "format=hex" | "scale=" N
//!          | "shards=" N ( " by=" name | " random" )
//! ```
//!
//! Every fact that changes the bytes is in it: the prefix, the separator, each field's type and
//! effective width, `desc`, `max`, the time unit and format, the float format, the decimal scale,
//! the names of an enum's variants, and nested keys and families in full. Field names are in it
//! too, although they change no byte: a renamed field is a diff worth reading.

use std::fmt;

use crate::encoding::role::KeyRole;
use crate::encoding::spec::Field;

/// The layout of one key type or key family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub(crate) prefix: Option<&'static str>,
    pub(crate) separator: char,
    pub(crate) max_len: usize,
    pub(crate) role: KeyRole,
    pub(crate) body: Body,
    /// The older layouts the key also reads (`#[key(legacy = ...)]`), newest first: not part of
    /// the encoding (two layouts encode alike whatever their older versions), but of the lock.
    pub(crate) legacy: &'static [&'static Layout],
}

/// What follows the prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Body {
    /// The fields of a key type, in order.
    Fields(&'static [FieldLayout]),
    /// The variants of a family.
    Family(&'static [VariantLayout]),
    /// A hand-written `SortKey` impl that does not describe itself.
    Opaque,
}

/// One field of a key type: its spec (name, width and the other attributes) and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLayout {
    pub(crate) field: Field,
    pub(crate) segment: SegmentLayout,
}

impl FieldLayout {
    /// The field `field` of a segment type described by `segment`. Generated code calls it.
    ///
    /// `field` is the field's schema, as the derive writes it once per field: a layout is a
    /// description of the key type, not of one use of it, so a field set as the last segment
    /// of some context ([`Field::with_last`]) is refused (at compile time in a constant).
    pub const fn new(field: Field, segment: SegmentLayout) -> Self {
        assert!(!field.is_last(), "a layout holds a field's schema, not a context of its use: no `with_last(true)`");
        FieldLayout { field, segment }
    }
}

/// One variant of a key family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantLayout {
    /// A unit variant: exactly this literal key.
    Unit(&'static str),
    /// The keys of a key type.
    Key(&'static Layout),
}

/// The segment types that take no parameter, with their names in the layout text and the feature
/// of this crate each needs: the one list that the derived layout ([`SegmentLayout`]) and the
/// runtime layout (`DynType`) both read, for the layout's text (printed and parsed), for comparing
/// layouts, for converting one into the other and for naming a missing feature. Types with a
/// parameter (integers and floats by their bits, options, enums, nested keys) are written where
/// their parameter is read.
macro_rules! named_segment_types {
    ($then:ident) => {
        $then! {
            Bool = "bool",
            Char = "char",
            Text = "text",
            Timestamp = "timestamp",
            Uuid = "uuid" needs "uuid",
            Ulid = "ulid" needs "ulid",
            Decimal = "decimal" needs "rust_decimal",
            Custom = "custom",
        }
    };
}
pub(crate) use named_segment_types;

macro_rules! segment_layout_names {
    ($($variant:ident = $name:literal $(needs $feature:literal)?,)*) => {
        impl SegmentLayout {
            /// The type's name in the layout text, for a type without a parameter.
            pub(crate) const fn name(&self) -> Option<&'static str> {
                match self {
                    $(SegmentLayout::$variant => Some($name),)*
                    _ => None,
                }
            }
        }
    };
}
named_segment_types!(segment_layout_names);

/// What a segment type writes, as a layout shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentLayout {
    /// An unsigned integer of this many bits (`usize` as 0).
    Unsigned(u32),
    /// A signed integer of this many bits (`isize` as 0).
    Signed(u32),
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// Text: `String`, `&str`, `Cow<str>`.
    Text,
    /// A float of this many bits.
    Float(u32),
    /// A timestamp (`SystemTime`, chrono, time).
    Timestamp,
    /// `uuid::Uuid`.
    Uuid,
    /// `ulid::Ulid`.
    Ulid,
    /// `rust_decimal::Decimal`.
    Decimal,
    /// An `Option` of a segment.
    Option(&'static SegmentLayout),
    /// An enum deriving `KeySegment`: the names its variants are written as.
    Enum(&'static [&'static str]),
    /// A nested key type or family.
    Key(&'static Layout),
    /// A segment type of your own that does not describe itself.
    Custom,
}

impl Layout {
    /// The layout of a key type with these fields. Generated code calls it.
    pub const fn fields(
        prefix: Option<&'static str>,
        separator: char,
        max_len: usize,
        role: KeyRole,
        fields: &'static [FieldLayout],
    ) -> Self {
        Layout { prefix, separator, max_len, role, body: Body::Fields(fields), legacy: &[] }
    }

    /// The same layout, with the older layouts the key also reads (`#[key(legacy = ...)]`,
    /// newest first). Generated code calls it.
    pub const fn with_legacy(self, legacy: &'static [&'static Layout]) -> Self {
        Layout { legacy, ..self }
    }

    /// The older layouts the key also reads, newest first (`#[key(legacy = ...)]`): what the
    /// lock records as its versions.
    pub const fn legacy(&self) -> &'static [&'static Layout] {
        self.legacy
    }

    /// The layout of a key family with these variants. Generated code calls it.
    pub const fn family(separator: char, max_len: usize, variants: &'static [VariantLayout]) -> Self {
        Layout { prefix: None, separator, max_len, role: KeyRole::Sort, body: Body::Family(variants), legacy: &[] }
    }

    /// The layout of a hand-written `SortKey` impl, which says no more than its constants.
    pub const fn opaque(prefix: Option<&'static str>, separator: char, max_len: usize, role: KeyRole) -> Self {
        Layout { prefix, separator, max_len, role, body: Body::Opaque, legacy: &[] }
    }

    /// The shard field of a sharded partition key (`#[key(shards = N, ...)]`): its position
    /// among the fields, and its count and rule.
    pub fn shard_field(&self) -> Option<(usize, crate::encoding::shard::Shards)> {
        let Body::Fields(fields) = self.body else { return None };
        fields.iter().enumerate().find_map(|(i, f)| Some((i, f.field.shards()?)))
    }

    /// The key's prefix.
    pub const fn prefix(&self) -> Option<&'static str> {
        self.prefix
    }

    /// The separator between segments.
    pub const fn separator(&self) -> char {
        self.separator
    }

    /// The longest encoding allowed.
    pub const fn max_len(&self) -> usize {
        self.max_len
    }

    /// Partition or sort key.
    pub const fn role(&self) -> KeyRole {
        self.role
    }
}

impl Layout {
    /// Compares the layout with a locked description: `Ok` when they are the same text, else a
    /// [`LayoutMismatch`] that prints both and points at the first difference. Call it in a
    /// test, so that a layout change fails before the code ships:
    ///
    /// ```
    /// use sortkey_core::SortKey;
    ///
    /// #[derive(SortKey)]
    /// #[key(prefix = "RUN")]
    /// struct RankKey {
    ///     #[key(width = 12, desc)]
    ///     score: u64,
    /// }
    ///
    /// let e = RankKey::LAYOUT.check("RUN#{score:u64 width=10 desc}").unwrap_err();
    /// assert_eq!(e.at, 22);
    /// let text = e.to_string();
    /// let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    /// assert_eq!(lines[0], "the key layout differs from its lock at byte 22:");
    /// assert_eq!(lines[1], "  locked:  RUN#{score:u64 width=10 desc}");
    /// assert_eq!(lines[2], "  derived: RUN#{score:u64 width=12 desc}");
    /// assert_eq!(lines[3].find('^'), Some("  derived: RUN#{score:u64 width=1".len()));
    /// ```
    pub fn check(&self, locked: &str) -> Result<(), LayoutMismatch> {
        let derived = self.to_string();
        if derived == locked {
            return Ok(());
        }
        let at = derived.bytes().zip(locked.bytes()).take_while(|(a, b)| a == b).count();
        Err(LayoutMismatch { locked: locked.to_owned(), derived, at })
    }
}

/// A derived layout that is not the locked one: both texts and the first byte where they differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutMismatch {
    /// The locked description.
    pub locked: String,
    /// The description the code derives now.
    pub derived: String,
    /// The offset of the first difference.
    pub at: usize,
}

impl fmt::Display for LayoutMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The caret goes under the first differing character of both lines.
        let column = self.derived.get(..self.at).map_or(self.at, |p| p.chars().count());
        write!(
            f,
            "the key layout differs from its lock at byte {}:\n  locked:  {}\n  derived: {}\n  {}^",
            self.at,
            self.locked,
            self.derived,
            " ".repeat(column + 9)
        )
    }
}

impl std::error::Error for LayoutMismatch {}
