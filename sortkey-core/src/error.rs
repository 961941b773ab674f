//! Errors of encoding and decoding: each names the key type and the field, and says what was expected and what was found.

use std::borrow::Cow;
use std::fmt;

/// Why a value could not be written as a key.
///
/// Nothing is written when encoding fails: [`SortKey::encode_into`](crate::SortKey::encode_into)
/// leaves its buffer exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    key: &'static str,
    field: Option<&'static str>,
    kind: EncodeErrorKind,
}

/// What went wrong in an [`EncodeError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// A number needs more digits than its segment's width.
    TooWide {
        /// The value, in decimal.
        value: String,
        /// The segment's width in characters (including the sign position of signed integers).
        width: u32,
        /// The largest value the width holds, in decimal.
        largest: String,
    },
    /// A number is above the field's `#[key(max = N)]`.
    AboveMax {
        /// The value, in decimal.
        value: String,
        /// The field's `max`.
        max: u128,
    },
    /// A text segment that is not the last one contains a character that is not
    /// greater than the separator, so the key would not sort in field order.
    ForbiddenChar {
        /// The offending character.
        ch: char,
        /// Its byte offset in the field's text.
        offset: usize,
        /// The key's separator.
        separator: char,
    },
    /// A value that has no encoding in this position (for example an empty text in a
    /// position where the key would become empty).
    Invalid {
        /// What was wrong.
        reason: Cow<'static, str>,
    },
    /// The encoded key would be empty; DynamoDB rejects empty keys.
    Empty,
    /// A query condition would match every key of the type, which DynamoDB cannot express
    /// as a sort key condition (it has no empty bound): query by the partition key alone.
    MatchesEverything,
    /// A query condition can match no key: its range is empty (`low > high`, or nothing
    /// below the smallest value).
    EmptyRange,
    /// The encoded key is longer than the key type allows.
    TooLong {
        /// The encoded length in bytes.
        len: usize,
        /// The limit (`max_len`, 1024 unless set).
        max_len: usize,
    },
}

impl EncodeError {
    /// An error in a field of a key type.
    pub fn new(key: &'static str, field: &'static str, kind: EncodeErrorKind) -> Self {
        EncodeError { key, field: Some(field), kind }
    }

    /// An error of the key as a whole (its length, its emptiness).
    pub fn whole_key(key: &'static str, kind: EncodeErrorKind) -> Self {
        EncodeError { key, field: None, kind }
    }

    /// The name of the key type.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The field that could not be encoded; `None` when the key as a whole is wrong.
    pub fn field(&self) -> Option<&'static str> {
        self.field
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.kind
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode `{}`", self.key)?;
        if let Some(field) = self.field {
            write!(f, ": field `{field}`")?;
        }
        match &self.kind {
            EncodeErrorKind::TooWide { value, width, largest } => {
                write!(f, ": value {value} does not fit width {width} (expected at most {largest})")
            }
            EncodeErrorKind::AboveMax { value, max } => {
                write!(f, ": value {value} is above max = {max}")
            }
            EncodeErrorKind::ForbiddenChar { ch, offset, separator } => write!(
                f,
                ": found {ch:?} (U+{:04X}) at byte {offset}, expected only characters greater \
                 than the separator {separator:?} in a text segment that is not the last one",
                *ch as u32
            ),
            EncodeErrorKind::Invalid { reason } => write!(f, ": {reason}"),
            EncodeErrorKind::Empty => write!(f, ": the key would be empty"),
            EncodeErrorKind::MatchesEverything => write!(
                f,
                ": the condition matches every key, which has no sort key condition; expected a \
                 query on the partition key alone"
            ),
            EncodeErrorKind::EmptyRange => {
                write!(f, ": the range is empty, expected a range with low <= high that some key can be in")
            }
            EncodeErrorKind::TooLong { len, max_len } => {
                write!(f, ": the key would be {len} bytes long, expected at most {max_len}")
            }
        }
    }
}

impl std::error::Error for EncodeError {}

/// Why a string is not a key of the type it was decoded as.
///
/// Says which field, at which byte offset of the key, what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    key: &'static str,
    field: Option<&'static str>,
    offset: usize,
    expected: Cow<'static, str>,
    found: String,
}

impl DecodeError {
    /// A decode error at byte `offset` of the key.
    pub fn new(
        key: &'static str,
        field: Option<&'static str>,
        offset: usize,
        expected: impl Into<Cow<'static, str>>,
        found: impl Into<String>,
    ) -> Self {
        DecodeError { key, field, offset, expected: expected.into(), found: found.into() }
    }

    /// The name of the key type.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// The field being decoded; `None` for the prefix, separators of the prefix,
    /// the end of the key and the key's length.
    pub fn field(&self) -> Option<&'static str> {
        self.field
    }

    /// Byte offset in the decoded string where the problem starts.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the decoder expected there.
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What it found there.
    pub fn found(&self) -> &str {
        &self.found
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot decode `{}`", self.key)?;
        if let Some(field) = self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, " at byte {}: expected {}, found {}", self.offset, self.expected, self.found)
    }
}

impl std::error::Error for DecodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_error_names_field_value_and_width() {
        let e = EncodeError::new(
            "RankKey",
            "score",
            EncodeErrorKind::TooWide { value: "12345678901".into(), width: 10, largest: "9999999999".into() },
        );
        assert_eq!(
            e.to_string(),
            "cannot encode `RankKey`: field `score`: value 12345678901 does not fit width 10 \
             (expected at most 9999999999)"
        );
        assert_eq!(e.field(), Some("score"));
    }

    #[test]
    fn decode_error_names_field_offset_expected_found() {
        let e = DecodeError::new("RankKey", Some("score"), 4, "10 ASCII digits", "\"99x\"");
        assert_eq!(
            e.to_string(),
            "cannot decode `RankKey`: field `score` at byte 4: expected 10 ASCII digits, found \"99x\""
        );
        assert_eq!((e.offset(), e.expected(), e.found()), (4, "10 ASCII digits", "\"99x\""));
    }
}
