//! Errors of encoding, decoding and query building: each names the key type and the field, has a
//! kind a caller can match on, and says in its message what was expected and what was found.
//!
//! Each error is one pointer wide (its payload is boxed), so `Result<(), EncodeError>` costs no
//! more than a pointer on the paths that succeed.

use std::borrow::Cow;
use std::fmt;

/// Why a value could not be written as a key.
///
/// Nothing is written when encoding fails: [`SortKey::encode_into`](crate::SortKey::encode_into)
/// leaves its buffer exactly as it was.
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<EncodeInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct EncodeInner {
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
    /// A value outside the range its segment type can write, such as an instant before 1970
    /// or after year 9999 in a timestamp segment.
    OutOfRange {
        /// The value, as the error shows it.
        value: String,
        /// The range the segment type can write.
        range: &'static str,
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
    /// A value that has no encoding, reported by a segment type written outside this crate
    /// when none of the other kinds says why.
    Invalid {
        /// What was wrong.
        reason: Cow<'static, str>,
    },
    /// A decimal with more fractional digits than the field's `scale` keeps; it is never
    /// rounded.
    TooPrecise {
        /// The value, in decimal.
        value: String,
        /// The field's `scale`.
        scale: u32,
    },
    /// A float that is NaN, which has no place in the order of keys (a NaN in a key is almost
    /// always a bug upstream).
    NotANumber,
    /// The encoded key would be empty; DynamoDB rejects empty keys.
    Empty,
    /// The encoded key is longer than the key type allows.
    TooLong {
        /// The encoded length in bytes.
        len: usize,
        /// The limit (`max_len`, 1024 unless set).
        max_len: usize,
    },
    /// A value that its layout does not describe, given to a layout read at run time
    /// ([`DynLayout::encode`](crate::DynLayout::encode)): a field missing or unknown, a value of
    /// another type, or one its type cannot hold (300 in a `u8`), a family's variant it does
    /// not have. A derived type cannot make this error: its compiler does.
    Mismatch {
        /// What the layout expects there.
        expected: String,
        /// What the value has.
        found: String,
    },
}

impl EncodeError {
    /// An error in a field of a key type.
    #[cold]
    pub(crate) fn new(key: &'static str, field: &'static str, kind: EncodeErrorKind) -> Self {
        EncodeError(Box::new(EncodeInner { key, field: Some(field), kind }))
    }

    /// An error of the key as a whole (its length, its emptiness).
    #[cold]
    pub(crate) fn whole_key(key: &'static str, kind: EncodeErrorKind) -> Self {
        EncodeError(Box::new(EncodeInner { key, field: None, kind }))
    }

    /// The name of the key type.
    pub fn key(&self) -> &'static str {
        self.0.key
    }

    /// The field that could not be encoded; `None` when the key as a whole is wrong.
    pub fn field(&self) -> Option<&'static str> {
        self.0.field
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.0.kind
    }
}

impl fmt::Debug for EncodeError {
    /// The parts and the message: what `main` prints when it returns the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodeError")
            .field("key", &self.0.key)
            .field("field", &self.0.field)
            .field("kind", &self.0.kind)
            .field("message", &format_args!("{self}"))
            .finish()
    }
}

/// `cannot <verb> `Key`: field `f``, the start of every encode and query message.
fn write_subject(f: &mut fmt::Formatter<'_>, verb: &str, key: &str, field: Option<&str>) -> fmt::Result {
    write!(f, "cannot {verb} `{key}`")?;
    match field {
        Some(field) => write!(f, ": field `{field}`"),
        None => Ok(()),
    }
}

impl fmt::Display for EncodeErrorKind {
    /// What went wrong, as the tail of an error message (after the key and the field).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeErrorKind::TooWide { value, width, largest } => {
                write!(f, "value {value} does not fit width {width} (expected at most {largest})")
            }
            EncodeErrorKind::AboveMax { value, max } => write!(f, "value {value} is above max = {max}"),
            EncodeErrorKind::OutOfRange { value, range } => write!(f, "expected {range}, found {value}"),
            EncodeErrorKind::ForbiddenChar { ch, offset, separator } => write!(
                f,
                "found {ch:?} (U+{:04X}) at byte {offset}, expected only characters greater than the separator \
                 {separator:?} in a text segment that is not the last one",
                *ch as u32
            ),
            EncodeErrorKind::Invalid { reason } => f.write_str(reason),
            EncodeErrorKind::TooPrecise { value, scale } => write!(
                f,
                "value {value} has more fractional digits than scale = {scale} keeps; expected at most {scale}, \
                 found more (a key is never rounded)"
            ),
            EncodeErrorKind::NotANumber => f.write_str("expected a number, found NaN, which has no place in the order"),
            EncodeErrorKind::Empty => f.write_str("the key would be empty"),
            EncodeErrorKind::TooLong { len, max_len } => {
                write!(f, "the key would be {len} bytes long, expected at most {max_len}")
            }
            EncodeErrorKind::Mismatch { expected, found } => write!(f, "expected {expected}, found {found}"),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_subject(f, "encode", self.0.key, self.0.field)?;
        write!(f, ": {}", self.0.kind)
    }
}

impl std::error::Error for EncodeError {}

/// Why the query builder could not make a condition.
///
/// Either a value given to it does not fit its field ([`QueryErrorKind::Encode`]), or the query
/// has no sort key condition that DynamoDB accepts ([`QueryErrorKind::MatchesEverything`],
/// [`QueryErrorKind::EmptyRange`]).
#[derive(Clone, PartialEq, Eq)]
pub struct QueryError(Box<QueryInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct QueryInner {
    key: &'static str,
    field: Option<&'static str>,
    kind: QueryErrorKind,
}

/// What went wrong in a [`QueryError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryErrorKind {
    /// A value given to the builder cannot be encoded in its field (too wide, above `max`, a
    /// forbidden character, or an `eq()` key longer than a sort key may be).
    Encode(EncodeErrorKind),
    /// The condition would match every key of the type, which DynamoDB cannot express as a
    /// sort key condition (it has no empty bound): query by the partition key alone.
    MatchesEverything,
    /// The condition can match no key: its range is empty (`low > high`, a comparison past the
    /// least or the greatest value the field holds such as `< 0` on an unsigned field or `> max`,
    /// or bounds that no key of at most `max_len` bytes lies between).
    EmptyRange,
    /// A query on a layout read at run time ([`DynLayout::query`](crate::DynLayout::query))
    /// names a field that is not the next one (fields are fixed in their order), a field the
    /// layout does not have, or no variant of a family. A derived type's builder makes this a
    /// compile error.
    OutOfOrder {
        /// What the query can take there.
        expected: String,
        /// What it was given.
        found: String,
    },
    /// A range or prefix condition on a partition key, which DynamoDB compares by equality
    /// only. A derived partition key's builder has no such method.
    NotASortKey,
    /// A condition by field names
    /// ([`FieldCondition::on_versions`](crate::FieldCondition::on_versions)) that an older
    /// layout of the key cannot say (it orders the fields otherwise): a range on that layout's
    /// bytes would miss or wrongly include its keys. The lock's
    /// [`LiveLayouts`](crate::LiveLayouts) reads such a layout by the widest condition it can
    /// express and holds its keys to the condition.
    OlderLayout {
        /// Its version: 1 for the newest older layout, 2 for the one before, ...
        version: usize,
        /// Its layout text.
        layout: String,
        /// Why it cannot say the condition.
        reason: Box<QueryErrorKind>,
    },
}

impl fmt::Display for QueryErrorKind {
    /// What went wrong, after the subject (`cannot query `K`: field `f``) a [`QueryError`]
    /// names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryErrorKind::Encode(kind) => write!(f, "{kind}"),
            QueryErrorKind::MatchesEverything => f.write_str(
                "the condition matches every key, which has no sort key condition; expected a query on the \
                 partition key alone",
            ),
            QueryErrorKind::EmptyRange => f.write_str(
                "the range is empty, no key can be in it; expected a range with low <= high within the least \
                     and greatest values the field holds",
            ),
            QueryErrorKind::OutOfOrder { expected, found } => write!(f, "expected {expected}, found {found}"),
            QueryErrorKind::NotASortKey => f.write_str(
                "a partition key is compared by equality only; expected every field fixed and `eq`, found a range \
                 or a prefix",
            ),
            QueryErrorKind::OlderLayout { version, layout, reason } => write!(
                f,
                "its older layout {version} (`{layout}`) cannot say the condition ({reason}); expected older layouts \
                 that take the fields in the same order, or a read through the lock's `LiveLayouts`, which reads \
                 such a layout by the widest condition it can express"
            ),
        }
    }
}

impl QueryError {
    /// A query error on a field, or on the whole key when `field` is `None`.
    #[cold]
    pub(crate) fn new(key: &'static str, field: Option<&'static str>, kind: QueryErrorKind) -> Self {
        QueryError(Box::new(QueryInner { key, field, kind }))
    }

    /// The name of the key type.
    pub fn key(&self) -> &'static str {
        self.0.key
    }

    /// The field the error is about; `None` when it is about the query as a whole.
    pub fn field(&self) -> Option<&'static str> {
        self.0.field
    }

    /// What went wrong.
    pub fn kind(&self) -> &QueryErrorKind {
        &self.0.kind
    }
}

impl From<EncodeError> for QueryError {
    #[cold]
    fn from(e: EncodeError) -> Self {
        let EncodeInner { key, field, kind } = *e.0;
        QueryError::new(key, field, QueryErrorKind::Encode(kind))
    }
}

impl fmt::Debug for QueryError {
    /// The parts and the message: what `main` prints when it returns the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryError")
            .field("key", &self.0.key)
            .field("field", &self.0.field)
            .field("kind", &self.0.kind)
            .field("message", &format_args!("{self}"))
            .finish()
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if matches!(self.0.kind, QueryErrorKind::Encode(_)) { "encode" } else { "query" };
        write_subject(f, verb, self.0.key, self.0.field)?;
        write!(f, ": {}", self.0.kind)
    }
}

impl std::error::Error for QueryError {}

/// Why a string is not a key of the type it was decoded as.
///
/// Says which field, at which byte offset of the key, what was expected and what was found;
/// [`kind`](DecodeError::kind) tells a key of another layout (a wrong prefix, a wrong width)
/// from garbage without reading the message.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeInner>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct DecodeInner {
    key: &'static str,
    field: Option<&'static str>,
    offset: usize,
    kind: DecodeErrorKind,
    expected: Cow<'static, str>,
    found: String,
}

/// What went wrong in a [`DecodeError`].
///
/// With the `serde` feature it is its name, `"WrongWidth"`; [`name`](Self::name) gives the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The key is empty.
    Empty,
    /// The key is longer than the type's `max_len`.
    TooLong,
    /// The key does not start with the type's prefix.
    WrongPrefix,
    /// A separator is missing where one field ends and the next begins.
    MissingSeparator,
    /// A run of digits of another length than the field's width: most likely a key written
    /// with another width.
    WrongWidth,
    /// A character other than an ASCII digit where digits belong.
    NotADigit,
    /// The sign position of a signed number holds neither `0` nor `-`.
    BadSign,
    /// `-` followed by all nines: negative zero, which no number encodes to.
    NegativeZero,
    /// A well-formed value that the field's type cannot hold (`"999"` for a `u8`, an instant
    /// after year 9999, a `bool` digit other than `0` and `1`).
    OutOfRange,
    /// A number above the field's `max`.
    AboveMax,
    /// The tag of an `Option` is neither `0` nor `1`.
    BadTag,
    /// Text that is not what the segment type writes: a character at or below the separator
    /// in a text that is not the last, malformed RFC 3339, UUID or ULID text, or a `char`
    /// segment that is not one character.
    InvalidText,
    /// Text that is none of the names of a unit enum.
    UnknownName,
    /// A key whose first segment is none of the prefixes of a key family's variants.
    UnknownVariant,
    /// Input after the last segment.
    TrailingInput,
    /// A DynamoDB attribute value of another type than `S`.
    NotAString,
    /// A DynamoDB attribute value of another type than `N`, where a multi-attribute index has a
    /// number attribute.
    NotANumber,
    /// A key attribute that an item, a `Key` or a page cursor does not have.
    MissingAttribute,
    /// A well-formed spelling of a value that is not the one its encoder writes (a float's
    /// digits that are not the shortest that round-trip), which would make two keys of one value.
    NotCanonical,
    /// A value a segment type written outside this crate rejects, when none of the other kinds
    /// says why.
    Invalid,
}

impl DecodeErrorKind {
    /// The kind's name, as reports print it: `"WrongWidth"`.
    pub const fn name(self) -> &'static str {
        match self {
            DecodeErrorKind::Empty => "Empty",
            DecodeErrorKind::TooLong => "TooLong",
            DecodeErrorKind::WrongPrefix => "WrongPrefix",
            DecodeErrorKind::MissingSeparator => "MissingSeparator",
            DecodeErrorKind::WrongWidth => "WrongWidth",
            DecodeErrorKind::NotADigit => "NotADigit",
            DecodeErrorKind::BadSign => "BadSign",
            DecodeErrorKind::NegativeZero => "NegativeZero",
            DecodeErrorKind::OutOfRange => "OutOfRange",
            DecodeErrorKind::AboveMax => "AboveMax",
            DecodeErrorKind::BadTag => "BadTag",
            DecodeErrorKind::InvalidText => "InvalidText",
            DecodeErrorKind::UnknownName => "UnknownName",
            DecodeErrorKind::UnknownVariant => "UnknownVariant",
            DecodeErrorKind::TrailingInput => "TrailingInput",
            DecodeErrorKind::NotAString => "NotAString",
            DecodeErrorKind::NotANumber => "NotANumber",
            DecodeErrorKind::MissingAttribute => "MissingAttribute",
            DecodeErrorKind::NotCanonical => "NotCanonical",
            DecodeErrorKind::Invalid => "Invalid",
        }
    }
}

impl DecodeError {
    /// A decode error at byte `offset` of the key.
    #[cold]
    pub(crate) fn new(
        key: &'static str,
        field: Option<&'static str>,
        offset: usize,
        kind: DecodeErrorKind,
        expected: impl Into<Cow<'static, str>>,
        found: impl Into<String>,
    ) -> Self {
        let (expected, found) = (expected.into(), found.into());
        DecodeError(Box::new(DecodeInner { key, field, offset, kind, expected, found }))
    }

    /// The same error, of another kind.
    pub(crate) fn with_kind(mut self, kind: DecodeErrorKind) -> Self {
        self.0.kind = kind;
        self
    }

    /// The name of the key type.
    pub fn key(&self) -> &'static str {
        self.0.key
    }

    /// The field being decoded; `None` for the prefix, separators of the prefix,
    /// the end of the key and the key's length.
    pub fn field(&self) -> Option<&'static str> {
        self.0.field
    }

    /// What went wrong.
    pub fn kind(&self) -> DecodeErrorKind {
        self.0.kind
    }

    /// Byte offset in the decoded string where the problem starts.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// What the decoder expected there.
    pub fn expected(&self) -> &str {
        &self.0.expected
    }

    /// What it found there.
    pub fn found(&self) -> &str {
        &self.0.found
    }
}

impl fmt::Debug for DecodeError {
    /// The parts and the message: what `main` prints when it returns the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let DecodeInner { key, field, offset, kind, expected, found } = &*self.0;
        f.debug_struct("DecodeError")
            .field("key", key)
            .field("field", field)
            .field("offset", offset)
            .field("kind", kind)
            .field("expected", expected)
            .field("found", found)
            .field("message", &format_args!("{self}"))
            .finish()
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        write_subject(f, "decode", d.key, d.field)?;
        write!(f, " at byte {}: expected {}, found {}", d.offset, d.expected, d.found)
    }
}

impl std::error::Error for DecodeError {}

/// An SDK error in one line (feature `dynamodb`): `Code: message` (or `Code`) when the server
/// answered, else the SDK's error and its causes (a timeout, a connection refused) joined on one
/// line; never the raw response. What every error of this crate that wraps a request's failure
/// says, and the `sortkey` command too.
#[cfg(feature = "dynamodb")]
pub fn sdk_error_line<E, R>(e: &aws_sdk_dynamodb::error::SdkError<E, R>) -> String
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    use aws_sdk_dynamodb::error::ProvideErrorMetadata as _;
    match (e.code(), e.message()) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        (Some(code), None) => code.to_owned(),
        (None, _) => causes_line(e.to_string(), std::error::Error::source(e)),
    }
}

/// An error's message and its sources' joined by `: ` on one line, each once (a source whose
/// message its error already repeats adds nothing), never a `Debug` dump.
#[cfg(feature = "dynamodb")]
fn causes_line(message: String, mut source: Option<&(dyn std::error::Error + 'static)>) -> String {
    let mut line = message.replace('\n', " ");
    while let Some(error) = source {
        let message = error.to_string().replace('\n', " ");
        if !message.is_empty() && !line.contains(&message) {
            line.push_str(": ");
            line.push_str(&message);
        }
        source = error.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_one_pointer_wide() {
        assert_eq!(size_of::<EncodeError>(), size_of::<usize>());
        assert_eq!(size_of::<DecodeError>(), size_of::<usize>());
        assert_eq!(size_of::<QueryError>(), size_of::<usize>());
        assert!(size_of::<Result<(), EncodeError>>() <= 16);
    }

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
    fn a_value_error_in_a_query_keeps_its_kind_and_message() {
        let kind = EncodeErrorKind::AboveMax { value: "12".into(), max: 9 };
        let e = QueryError::from(EncodeError::new("K", "n", kind.clone()));
        assert_eq!(e.kind(), &QueryErrorKind::Encode(kind));
        assert_eq!(e.to_string(), "cannot encode `K`: field `n`: value 12 is above max = 9");
        let e = QueryError::new("K", None, QueryErrorKind::MatchesEverything);
        assert!(e.to_string().starts_with("cannot query `K`: the condition matches every key"));
    }

    #[test]
    fn decode_error_names_field_offset_expected_found() {
        let e = DecodeError::new("RankKey", Some("score"), 4, DecodeErrorKind::NotADigit, "10 ASCII digits", "\"99x\"");
        assert_eq!(
            e.to_string(),
            "cannot decode `RankKey`: field `score` at byte 4: expected 10 ASCII digits, found \"99x\""
        );
        assert_eq!((e.offset(), e.expected(), e.found()), (4, "10 ASCII digits", "\"99x\""));
        assert_eq!(e.kind(), DecodeErrorKind::NotADigit);
    }
}
