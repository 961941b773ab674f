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
//! ```
//!
//! Every fact that changes the bytes is in it: the prefix, the separator, each field's type and
//! effective width, `desc`, `max`, the time unit and format, the float format, the decimal scale,
//! the names of an enum's variants, and nested keys and families in full. Field names are in it
//! too, although they change no byte: a renamed field is a diff worth reading.

use std::fmt;

use crate::encoding::role::KeyRole;
use crate::encoding::spec::{Field, TimeFormat};

/// The layout of one key type or key family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub(crate) prefix: Option<&'static str>,
    pub(crate) separator: char,
    pub(crate) max_len: usize,
    pub(crate) role: KeyRole,
    pub(crate) body: Body,
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
        Layout { prefix, separator, max_len, role, body: Body::Fields(fields) }
    }

    /// The layout of a key family with these variants. Generated code calls it.
    pub const fn family(separator: char, max_len: usize, variants: &'static [VariantLayout]) -> Self {
        Layout { prefix: None, separator, max_len, role: KeyRole::Sort, body: Body::Family(variants) }
    }

    /// The layout of a hand-written `SortKey` impl, which says no more than its constants.
    pub const fn opaque(prefix: Option<&'static str>, separator: char, max_len: usize, role: KeyRole) -> Self {
        Layout { prefix, separator, max_len, role, body: Body::Opaque }
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

    /// The key part alone: prefix and fields, or the family, without role and `max_len`.
    fn write_key(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = self.separator;
        match self.body {
            Body::Family(variants) => {
                f.write_str("family(")?;
                for (i, v) in variants.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    match v {
                        VariantLayout::Unit(lit) => f.write_str(lit)?,
                        VariantLayout::Key(layout) => layout.write_key(f)?,
                    }
                }
                f.write_str(")")
            }
            Body::Fields(fields) => {
                let mut first = true;
                if let Some(p) = self.prefix {
                    f.write_str(p)?;
                    first = false;
                }
                for field in fields {
                    if !first {
                        write!(f, "{sep}")?;
                    }
                    first = false;
                    write_field(f, field)?;
                }
                Ok(())
            }
            Body::Opaque => {
                if let Some(p) = self.prefix {
                    write!(f, "{p}{sep}")?;
                }
                f.write_str("{custom}")
            }
        }
    }
}

fn write_field(f: &mut fmt::Formatter<'_>, layout: &FieldLayout) -> fmt::Result {
    let field = &layout.field;
    write!(f, "{{{}:", field.name())?;
    write_type(f, &layout.segment)?;
    let inner = innermost(&layout.segment);
    if field.width() > 0 && !matches!(inner, SegmentLayout::Key(_)) {
        write!(f, " width={}", field.width())?;
    }
    if field.is_desc() {
        f.write_str(" desc")?;
    }
    // A `max` the width already implies changes no byte, so it is no part of the layout.
    let capacity = 10u128.checked_pow(field.width()).map(|p| p - 1);
    if let Some(max) = field.max().filter(|&m| field.width() == 0 || capacity.is_none_or(|c| m < c)) {
        write!(f, " max={max}")?;
    }
    match inner {
        SegmentLayout::Timestamp => {
            let format = field.time_format();
            write!(f, " unit={}", format.unit().name())?;
            if matches!(format, TimeFormat::Rfc3339(_)) {
                f.write_str(" format=rfc3339")?;
            }
        }
        SegmentLayout::Float(_) if field.is_hex() => f.write_str(" format=hex")?,
        SegmentLayout::Decimal => write!(f, " scale={}", field.scale())?,
        _ => {}
    }
    f.write_str("}")
}

/// The segment type under any `Option`s.
fn innermost(segment: &SegmentLayout) -> &SegmentLayout {
    match segment {
        SegmentLayout::Option(inner) => innermost(inner),
        other => other,
    }
}

fn write_type(f: &mut fmt::Formatter<'_>, segment: &SegmentLayout) -> fmt::Result {
    match segment {
        SegmentLayout::Unsigned(0) => f.write_str("usize"),
        SegmentLayout::Signed(0) => f.write_str("isize"),
        SegmentLayout::Unsigned(bits) => write!(f, "u{bits}"),
        SegmentLayout::Signed(bits) => write!(f, "i{bits}"),
        SegmentLayout::Bool => f.write_str("bool"),
        SegmentLayout::Char => f.write_str("char"),
        SegmentLayout::Text => f.write_str("text"),
        SegmentLayout::Float(bits) => write!(f, "f{bits}"),
        SegmentLayout::Timestamp => f.write_str("timestamp"),
        SegmentLayout::Uuid => f.write_str("uuid"),
        SegmentLayout::Ulid => f.write_str("ulid"),
        SegmentLayout::Decimal => f.write_str("decimal"),
        SegmentLayout::Option(inner) => {
            f.write_str("option<")?;
            write_type(f, inner)?;
            f.write_str(">")
        }
        SegmentLayout::Enum(names) => write!(f, "enum({})", names.join("|")),
        SegmentLayout::Key(layout) => {
            f.write_str("key(")?;
            layout.write_key(f)?;
            f.write_str(")")
        }
        SegmentLayout::Custom => f.write_str("custom"),
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

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self.role, KeyRole::Partition) {
            f.write_str("partition ")?;
        }
        self.write_key(f)?;
        if self.max_len != self.role.limit() {
            write!(f, " max_len={}", self.max_len)?;
        }
        Ok(())
    }
}
