//! The layout of one field as the segment encoders see it: its width, order, bound and, for
//! timestamps, unit and format. Built by the derive as constants; read by the segments.

use crate::encoding::shard::Shards;
use crate::error::{EncodeError, EncodeErrorKind};

/// How many characters a segment takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// A run of decimal digits whose count the field chooses with `#[key(width = N)]`.
    Digits {
        /// The width when the field sets none.
        default: u32,
        /// The narrowest width that holds more than one value.
        min: u32,
        /// The widest width the type can fill.
        max: u32,
        /// Whether the first position holds a sign (`0` or `-`), so that a width `w`
        /// holds magnitudes below `10^(w-1)`.
        signed: bool,
    },
    /// Always exactly this many bytes; `#[key(width)]` does not apply.
    Fixed(u32),
    /// Text of any length; `#[key(width)]` does not apply.
    Variable,
}

/// The field a segment is written in: its name, the key's separator, and the attributes the
/// derive read (`width`, `desc`, `max`, ...), as the segment encoders and decoders see them.
///
/// Two parts, kept apart where they are made: the schema (the key and field names that errors
/// carry, the separator and the attributes), which the derive writes once per field as a
/// constant and a key's [`Layout`](crate::Layout) holds, and the context of one use, whether
/// the field is the last segment of what is being written ([`is_last`](Self::is_last)), which
/// is set where the field is used: for a key's last field from the field the key is written in
/// (a nested key's last field is the outer key's last segment only when the nested key is),
/// and by the query builder's last stage. The schema constants never say `last`.
///
/// Code outside the crate reads it in a [`KeySegment`](crate::KeySegment) or
/// [`DecodeSegment`](crate::DecodeSegment) impl of its own (see the example there), and builds
/// one for a hand-written key's typed queries (see the `query` module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    key: &'static str,
    name: &'static str,
    separator: u8,
    width: u32,
    desc: bool,
    max: Option<u128>,
    last: bool,
    time: TimeFormat,
    hex: bool,
    scale: u32,
    shards: Option<Shards>,
}

/// The builders (`new`, `with_width` and the rest) are what generated code writes a field's
/// attributes with, one named call per attribute, and what a hand-written key passes to the
/// query algebra (the `query` module).
impl Field {
    /// A field named `name` of the key type `key`, whose segments are joined by `separator`
    /// (an ASCII character; anything else is replaced by `#`, the derive rejects it earlier).
    pub const fn new(key: &'static str, name: &'static str, separator: char) -> Self {
        let separator = separator_byte(separator);
        let time = TimeFormat::DEFAULT;
        Field {
            key,
            name,
            separator,
            width: 0,
            desc: false,
            max: None,
            last: false,
            time,
            hex: false,
            scale: 0,
            shards: None,
        }
    }

    /// Makes the field the shard of a sharded partition key (`#[key(shards = N, by = field)]`):
    /// a `u16` written in [`Shards::width`] digits, at most [`Shards::last`].
    pub const fn with_shards(mut self, shards: Shards) -> Self {
        self.width = shards.width();
        self.max = Some(shards.last() as u128);
        self.shards = Some(shards);
        self
    }

    /// The shards, when the field is the shard of a sharded partition key.
    pub const fn shards(&self) -> Option<Shards> {
        self.shards
    }

    /// Sets `format = "hex"` (a float as its order-preserving bits); other types ignore it.
    pub const fn with_hex(mut self, hex: bool) -> Self {
        self.hex = hex;
        self
    }

    /// Sets `scale = N`: a decimal is written as its value times `10^N`, an integer.
    pub const fn with_scale(mut self, scale: u32) -> Self {
        self.scale = scale;
        self
    }

    /// The fractional digits a fixed-point decimal keeps (`#[key(scale = N)]`), 0 unless set:
    /// what a segment type whose options are [`SegmentOptions::Decimal`](crate::SegmentOptions::Decimal) honours.
    pub const fn scale(&self) -> u32 {
        self.scale
    }

    /// Whether a float is written as hex bits (`format = "hex"`) instead of decimal digits:
    /// what a segment type whose options are [`SegmentOptions::Float`](crate::SegmentOptions::Float) honours.
    pub const fn is_hex(&self) -> bool {
        self.hex
    }

    /// Sets how a timestamp segment is written; other segment types ignore it.
    pub const fn with_time(mut self, time: TimeFormat) -> Self {
        self.time = time;
        self
    }

    /// The same field in a context where it is the last segment of what is written (`true`)
    /// or not: a nested key's last field is the last segment of the outer key only when the
    /// nested key is.
    pub const fn with_last(mut self, last: bool) -> Self {
        self.last = last;
        self
    }

    /// Sets the width in characters of a digit segment.
    pub const fn with_width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }

    /// Reverses the order of the field (nines' complement).
    pub const fn with_desc(mut self, desc: bool) -> Self {
        self.desc = desc;
        self
    }

    /// Narrows the field's domain: values above `max` are an error.
    pub const fn with_max(mut self, max: Option<u128>) -> Self {
        self.max = max;
        self
    }

    /// How a timestamp segment is written (`unit` and `format`): what a segment type whose
    /// options are [`SegmentOptions::Time`](crate::SegmentOptions::Time) honours.
    pub const fn time_format(&self) -> TimeFormat {
        self.time
    }

    /// The precision of a timestamp segment.
    pub const fn time_unit(&self) -> TimeUnit {
        self.time.unit()
    }

    /// The separator as a byte (always ASCII).
    pub(crate) const fn sep_byte(&self) -> u8 {
        self.separator
    }

    /// The key type's name.
    pub const fn key_name(&self) -> &'static str {
        self.key
    }

    /// The field's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The character between the key's segments, always ASCII punctuation.
    ///
    /// A segment whose encodings differ in length and that is not the key's last must contain
    /// only characters greater than it, or the key would not sort in field order.
    pub const fn separator(&self) -> char {
        self.separator as char
    }

    /// The field's `#[key(width = N)]`, or its type's default width, for types whose
    /// [`KeySegment::WIDTH`](crate::KeySegment::WIDTH) is [`Width::Digits`]; the fixed width for [`Width::Fixed`]; 0 for
    /// text.
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Whether the field is `#[key(desc)]`: its encodings must sort in reverse order. Only types
    /// whose [`KeySegment::REVERSIBLE`](crate::KeySegment::REVERSIBLE) is `true` are given such a field.
    pub const fn is_desc(&self) -> bool {
        self.desc
    }

    /// The field's `#[key(max = N)]`, if any; only given to types with a
    /// [`KeySegment::MAX_VALUE`](crate::KeySegment::MAX_VALUE).
    pub const fn max(&self) -> Option<u128> {
        self.max
    }

    /// Whether the field is the key's last segment, where text may contain any character.
    pub const fn is_last(&self) -> bool {
        self.last
    }

    /// An [`EncodeError`] in this field, of the given kind.
    #[cold]
    pub fn encode_error(&self, kind: EncodeErrorKind) -> EncodeError {
        EncodeError::new(self.key, self.name, kind)
    }
}

/// The byte of an ASCII separator; anything else becomes `#` (the derive rejects it earlier).
pub(crate) const fn separator_byte(separator: char) -> u8 {
    if separator.is_ascii() { separator as u8 } else { b'#' }
}

/// The precision a timestamp segment keeps: `#[key(unit = "s" | "ms" | "us" | "ns")]`.
///
/// With the `serde` feature it is its attribute value, `"s"`, `"ms"`, `"us"` or `"ns"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TimeUnit {
    /// Seconds (`"s"`), the default.
    #[cfg_attr(feature = "serde", serde(rename = "s"))]
    Seconds,
    /// Milliseconds (`"ms"`).
    #[cfg_attr(feature = "serde", serde(rename = "ms"))]
    Millis,
    /// Microseconds (`"us"`).
    #[cfg_attr(feature = "serde", serde(rename = "us"))]
    Micros,
    /// Nanoseconds (`"ns"`).
    #[cfg_attr(feature = "serde", serde(rename = "ns"))]
    Nanos,
}

impl TimeUnit {
    /// Nanoseconds in one unit.
    pub const fn nanos(self) -> u128 {
        match self {
            TimeUnit::Seconds => 1_000_000_000,
            TimeUnit::Millis => 1_000_000,
            TimeUnit::Micros => 1_000,
            TimeUnit::Nanos => 1,
        }
    }

    /// Digits after the decimal point of RFC 3339 text in this unit: 0, 3, 6 or 9.
    pub const fn fraction_digits(self) -> u32 {
        match self {
            TimeUnit::Seconds => 0,
            TimeUnit::Millis => 3,
            TimeUnit::Micros => 6,
            TimeUnit::Nanos => 9,
        }
    }

    /// Digits of the last instant of year 9999 in this unit, the default width of Unix time:
    /// 12, 15, 18 or 21.
    pub const fn unix_width(self) -> u32 {
        12 + self.fraction_digits()
    }

    /// The attribute value: `"s"`, `"ms"`, `"us"` or `"ns"`.
    pub const fn name(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Millis => "ms",
            TimeUnit::Micros => "us",
            TimeUnit::Nanos => "ns",
        }
    }
}

/// How a timestamp segment is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeFormat {
    /// Units since 1970-01-01T00:00:00Z, zero-padded to the field's width
    /// (`#[key(unit = "ms")]`; by default as wide as the last instant of year 9999).
    Unix(TimeUnit),
    /// `YYYY-MM-DDTHH:MM:SS[.f]Z` in UTC, with as many fraction digits as the unit has
    /// (`#[key(format = "rfc3339")]`): 20, 24, 27 or 30 characters.
    Rfc3339(TimeUnit),
}

impl TimeFormat {
    /// Unix seconds, what a timestamp field without attributes uses.
    pub const DEFAULT: TimeFormat = TimeFormat::Unix(TimeUnit::Seconds);

    /// The unit.
    pub const fn unit(self) -> TimeUnit {
        match self {
            TimeFormat::Unix(u) | TimeFormat::Rfc3339(u) => u,
        }
    }

    /// The width of the segment when the field sets none: the digits of the last instant of
    /// year 9999 for Unix time, the length of the text for RFC 3339.
    pub const fn default_width(self) -> u32 {
        match self {
            TimeFormat::Unix(u) => u.unix_width(),
            TimeFormat::Rfc3339(TimeUnit::Seconds) => 20,
            TimeFormat::Rfc3339(u) => 21 + u.fraction_digits(),
        }
    }
}
