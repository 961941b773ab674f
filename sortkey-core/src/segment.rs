//! The per-field contract: how one value becomes one segment of a key and back.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::timestamp::{TimeFormat, TimeUnit};

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

/// Everything a segment needs to know about the field it encodes, built by the derive as a constant.
///
/// ```
/// use sortkey_core::Field;
/// const SCORE: Field = Field::new("RankKey", "score", '#').width(10).desc();
/// assert_eq!(SCORE.name(), "score");
/// ```
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
}

impl Field {
    /// A field named `name` of the key type `key`, whose segments are joined by `separator`
    /// (an ASCII character; anything else is replaced by `#`, the derive rejects it earlier).
    pub const fn new(key: &'static str, name: &'static str, separator: char) -> Self {
        let separator = separator_byte(separator);
        Field { key, name, separator, width: 0, desc: false, max: None, last: false, time: TimeFormat::DEFAULT }
    }

    /// Sets how a timestamp segment is written (`#[key(unit = "ms")]`, `#[key(format = "rfc3339")]`);
    /// other segment types ignore it. Unix seconds unless set.
    pub const fn time(mut self, time: TimeFormat) -> Self {
        self.time = time;
        self
    }

    /// The same field, last segment of the key or not: a nested key's last field is the last
    /// segment of the outer key only when the nested key is.
    pub const fn with_last(mut self, last: bool) -> Self {
        self.last = last;
        self
    }

    /// How a timestamp segment is written.
    pub const fn get_time(&self) -> TimeFormat {
        self.time
    }

    /// The precision of a timestamp segment.
    pub const fn time_unit(&self) -> TimeUnit {
        self.time.unit()
    }

    /// Sets the width in characters of a digit segment.
    pub const fn width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }

    /// Reverses the order of the field (nines' complement).
    pub const fn desc(mut self) -> Self {
        self.desc = true;
        self
    }

    /// Narrows the field's domain: values above `max` are an error.
    pub const fn max(mut self, max: u128) -> Self {
        self.max = Some(max);
        self
    }

    /// Marks the field as the key's last segment, where text may contain any character.
    pub const fn last(mut self) -> Self {
        self.last = true;
        self
    }

    /// The key type's name.
    pub const fn key_name(&self) -> &'static str {
        self.key
    }

    /// The field's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The separator byte.
    pub const fn separator(&self) -> u8 {
        self.separator
    }

    /// The width of a digit segment (0 where it does not apply).
    pub const fn get_width(&self) -> u32 {
        self.width
    }

    /// Whether the field is descending.
    pub const fn is_desc(&self) -> bool {
        self.desc
    }

    /// The field's `max`, if any.
    pub const fn get_max(&self) -> Option<u128> {
        self.max
    }

    /// Whether the field is the last segment of the key.
    pub const fn is_last(&self) -> bool {
        self.last
    }

    /// An [`EncodeError`] in this field.
    #[cold]
    pub fn encode_error(&self, kind: EncodeErrorKind) -> EncodeError {
        EncodeError::new(self.key, self.name, kind)
    }
}

/// The byte of an ASCII separator; anything else becomes `#` (the derive rejects it earlier).
pub(crate) const fn separator_byte(separator: char) -> u8 {
    if separator.is_ascii() { separator as u8 } else { b'#' }
}

/// A type that can be one segment of a sort key.
///
/// Implemented for the integers, `bool`, `char`, `String`, `&str` and `Cow<str>`. The
/// associated constants tell the derive what the type allows, so that a bad schema
/// (`desc` on text, a width the type cannot fill) is rejected at compile time, for type
/// aliases and user types as well.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a segment of a sort key",
    label = "this field's type does not implement `KeySegment`",
    note = "segments can be integers (u8..u128, i8..i128, usize, isize), bool, char, String, &str, Cow<str>, \
            SystemTime, Option<T> of a segment, a unit enum with `#[derive(KeySegment)]`, a key with \
            `#[derive(SortKey)]`, and with features chrono/time/uuid/ulid their types; for your own type \
            implement `sortkey_core::KeySegment` and `DecodeSegment`"
)]
pub trait KeySegment {
    /// How many characters the segment takes.
    const WIDTH: Width;
    /// Whether `#[key(desc)]` can reverse the type's order.
    const REVERSIBLE: bool;
    /// The largest value, for types that accept `#[key(max = N)]`.
    const MAX_VALUE: Option<u128>;
    /// For a type whose encodings have different lengths and are checked at compile time
    /// (unit enums: the names), the least byte any encoding contains. A field of such a type
    /// that is not the key's last must have it greater than the separator, or the derive
    /// rejects the key. `None` (the default) for fixed widths and for text, which is checked
    /// when it is encoded.
    const LEAST_BYTE: Option<u8> = None;
    /// `Some(separator)` for a key type (`#[derive(SortKey)]`) used as a segment of another
    /// key, which must use the same separator; `None` (the default) for every other type.
    const NESTED_SEPARATOR: Option<char> = None;
    /// Whether the type is a timestamp, which takes `#[key(unit = "...")]` and
    /// `#[key(format = "rfc3339")]`. `false` by default.
    const TIMESTAMP: bool = false;
    /// Whether encodings of the type differ in length even when [`WIDTH`](Self::WIDTH) is not
    /// [`Width::Variable`] (`Option<u32>`: `0` or `1` and 10 digits). By default exactly when
    /// `WIDTH` is variable.
    const VARIABLE_LEN: bool = matches!(Self::WIDTH, Width::Variable);

    /// Appends the segment for `self` to `out`.
    ///
    /// On error the caller restores `out`; an implementation need not.
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError>;
}

/// A segment type that can be read back from a key borrowed for `'k`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded as a segment of a sort key",
    label = "this field's type does not implement `DecodeSegment`",
    note = "every `KeySegment` type of sortkey-core also implements `DecodeSegment`; for your own type implement both"
)]
///
/// Owned types implement it for every `'k`; `&'k str` and `Cow<'k, str>` borrow from the key.
pub trait DecodeSegment<'k>: KeySegment + Sized {
    /// Reads the segment at the cursor and moves the cursor past it.
    ///
    /// A non-final segment stops before the separator that follows it; the caller checks the separator.
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError>;
}

/// A position in a key being decoded.
///
/// Segment decoders read from it; the errors it makes carry the byte offset.
#[derive(Debug, Clone)]
pub struct Cursor<'k> {
    key: &'k str,
    pos: usize,
    key_name: &'static str,
}

impl<'k> Cursor<'k> {
    /// A cursor at the start of `key`, decoding a key of type `key_name`.
    pub fn new(key: &'k str, key_name: &'static str) -> Self {
        Cursor { key, pos: 0, key_name }
    }

    /// The byte offset of the cursor.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// What is left of the key.
    pub fn rest(&self) -> &'k str {
        &self.key[self.pos..]
    }

    /// The whole key.
    pub fn key(&self) -> &'k str {
        self.key
    }

    /// Whether the cursor is at the end of the key.
    pub fn is_at_end(&self) -> bool {
        self.pos == self.key.len()
    }

    /// Takes the next `n` bytes if they are ASCII digits, without moving on error.
    #[inline(always)]
    pub fn take_digits(&mut self, n: usize, field: &Field) -> Result<&'k [u8], DecodeError> {
        let bytes = self.key.as_bytes();
        match bytes.get(self.pos..self.pos + n) {
            Some(run) if crate::num::all_digits(run) => {
                self.pos += n;
                Ok(run)
            }
            _ => Err(self.digits_error(n, field)),
        }
    }

    #[cold]
    #[inline(never)]
    fn digits_error(&self, n: usize, field: &Field) -> DecodeError {
        // A shorter run of digits that ends where the segment may end is a key of a narrower width.
        let rest = self.rest().as_bytes();
        let run = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let kind = match rest.get(run) {
            _ if run >= n => DecodeErrorKind::NotADigit,
            None => DecodeErrorKind::WrongWidth,
            Some(&b) if b == field.separator() => DecodeErrorKind::WrongWidth,
            Some(_) => DecodeErrorKind::NotADigit,
        };
        self.error_here(kind, Some(field.name()), format!("{n} ASCII digits"), n)
    }

    /// Moves past one byte the caller saw is ASCII.
    pub(crate) fn skip_ascii_byte(&mut self) {
        debug_assert!(self.rest().as_bytes().first().is_some_and(u8::is_ascii));
        self.pos += 1;
    }

    /// Takes the next `n` bytes, which must be ASCII (the alphabet of every fixed-width
    /// segment), without moving on error; the error says `expected`.
    pub fn take_ascii(&mut self, n: usize, field: &Field, expected: &'static str) -> Result<&'k str, DecodeError> {
        match self.rest().get(..n) {
            Some(run) if run.is_ascii() => {
                self.pos += n;
                Ok(run)
            }
            _ => Err(self.error_here(DecodeErrorKind::InvalidText, Some(field.name()), expected, n)),
        }
    }

    /// Takes the rest of the key.
    pub fn take_rest(&mut self) -> &'k str {
        let rest = self.rest();
        self.pos = self.key.len();
        rest
    }

    /// Takes the run of bytes greater than `separator` (the alphabet of a non-final text segment).
    ///
    /// Fails if the run ends at a byte that is neither the separator nor the end of the key.
    pub fn take_text_before(&mut self, separator: u8, field: &Field) -> Result<&'k str, DecodeError> {
        let rest = self.rest();
        let end = rest.bytes().position(|b| b <= separator).unwrap_or(rest.len());
        if end < rest.len() && rest.as_bytes()[end] != separator {
            let ch = rest[end..].chars().next().unwrap_or('\0');
            return Err(DecodeError::new(
                self.key_name,
                Some(field.name()),
                self.pos + end,
                DecodeErrorKind::InvalidText,
                format!("text characters greater than {:?} or the separator", separator as char),
                format!("{ch:?} (U+{:04X})", ch as u32),
            ));
        }
        // Every byte before `end` is > an ASCII separator, so `end` is a char boundary.
        self.pos += end;
        Ok(&rest[..end])
    }

    /// Expects `literal` at the cursor and moves past it; the error is of `kind` and says
    /// `what` the literal is.
    #[inline]
    pub fn expect(
        &mut self,
        literal: &str,
        kind: DecodeErrorKind,
        field: Option<&'static str>,
        what: &str,
    ) -> Result<(), DecodeError> {
        // Bytes, not `rest()`: the position is always a char boundary, and this way a one-byte
        // separator is one compare once inlined.
        if self.key.as_bytes()[self.pos..].starts_with(literal.as_bytes()) {
            self.pos += literal.len();
            Ok(())
        } else {
            Err(self.expect_error(literal, kind, field, what))
        }
    }

    #[cold]
    #[inline(never)]
    fn expect_error(
        &self,
        literal: &str,
        kind: DecodeErrorKind,
        field: Option<&'static str>,
        what: &str,
    ) -> DecodeError {
        self.error_here(kind, field, format!("{what} {literal:?}"), literal.chars().count())
    }

    /// Expects the end of the key.
    pub fn expect_end(&self) -> Result<(), DecodeError> {
        if self.is_at_end() {
            Ok(())
        } else {
            Err(self.error_here(DecodeErrorKind::TrailingInput, None, "end of key", 16))
        }
    }

    /// An error at the cursor, showing up to `show` characters of what is there.
    #[cold]
    pub fn error_here(
        &self,
        kind: DecodeErrorKind,
        field: Option<&'static str>,
        expected: impl Into<std::borrow::Cow<'static, str>>,
        show: usize,
    ) -> DecodeError {
        DecodeError::new(self.key_name, field, self.pos, kind, expected, describe(self.rest(), show))
    }

    /// An error at byte `offset` of the key.
    #[cold]
    pub fn error_at(
        &self,
        offset: usize,
        field: Option<&'static str>,
        kind: DecodeErrorKind,
        expected: impl Into<std::borrow::Cow<'static, str>>,
        found: impl Into<String>,
    ) -> DecodeError {
        DecodeError::new(self.key_name, field, offset, kind, expected, found)
    }
}

/// Shows at most `n` characters of `s` for an error message.
fn describe(s: &str, n: usize) -> String {
    if s.is_empty() {
        return "end of key".to_owned();
    }
    let shown: String = s.chars().take(n.max(1)).collect();
    format!("{shown:?}")
}

/// Test helpers of the segment modules: one segment on its own, encoded and decoded.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Cursor, DecodeSegment, Field, KeySegment};
    use crate::error::{DecodeError, EncodeError};

    /// `v` encoded as field `f`, alone.
    pub(crate) fn enc<T: KeySegment + ?Sized>(v: &T, f: Field) -> Result<String, EncodeError> {
        let mut s = String::new();
        v.encode_segment(&f, &mut s).map(|()| s)
    }

    /// `s` decoded as field `f`, which must take all of it.
    pub(crate) fn dec<T: for<'k> DecodeSegment<'k>>(s: &str, f: Field) -> Result<T, DecodeError> {
        let mut c = Cursor::new(s, "K");
        let v = T::decode_segment(&mut c, &f)?;
        c.expect_end()?;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: Field = Field::new("K", "f", '#');

    #[test]
    fn take_digits_rejects_short_and_non_digits() {
        let mut c = Cursor::new("12a4", "K");
        let e = c.take_digits(4, &F).unwrap_err();
        assert_eq!((e.offset(), e.expected(), e.found()), (0, "4 ASCII digits", "\"12a4\""));
        let mut c = Cursor::new("12", "K");
        assert_eq!(c.take_digits(3, &F).unwrap_err().found(), "\"12\"");
        assert_eq!(c.take_digits(2, &F).unwrap(), b"12");
        assert!(c.is_at_end());
    }

    #[test]
    fn take_text_before_stops_at_separator_and_rejects_low_chars() {
        let mut c = Cursor::new("ab#c", "K");
        assert_eq!(c.take_text_before(b'#', &F).unwrap(), "ab");
        assert_eq!(c.position(), 2);
        let mut c = Cursor::new("a b#c", "K");
        let e = c.take_text_before(b'#', &F).unwrap_err();
        assert_eq!((e.offset(), e.found()), (1, "' ' (U+0020)"));
        let mut c = Cursor::new("é", "K");
        assert_eq!(c.take_text_before(b'#', &F).unwrap(), "é");
    }
}
