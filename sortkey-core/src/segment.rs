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

/// The field a segment is written in: its name, the key's separator, and the attributes the
/// derive read (`width`, `desc`, `max`), as the segment encoders and decoders see them.
///
/// The derive builds one per field as a constant; code outside the crate only reads it, in a
/// [`KeySegment`] or [`DecodeSegment`] impl of its own (see the example there).
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
    pub(crate) const fn new(key: &'static str, name: &'static str, separator: char) -> Self {
        let separator = separator_byte(separator);
        Field { key, name, separator, width: 0, desc: false, max: None, last: false, time: TimeFormat::DEFAULT }
    }

    /// Sets how a timestamp segment is written; other segment types ignore it.
    pub(crate) const fn with_time(mut self, time: TimeFormat) -> Self {
        self.time = time;
        self
    }

    /// The same field, last segment of the key or not: a nested key's last field is the last
    /// segment of the outer key only when the nested key is.
    pub(crate) const fn with_last(mut self, last: bool) -> Self {
        self.last = last;
        self
    }

    /// Sets the width in characters of a digit segment.
    pub(crate) const fn with_width(mut self, width: u32) -> Self {
        self.width = width;
        self
    }

    /// Reverses the order of the field (nines' complement).
    pub(crate) const fn with_desc(mut self, desc: bool) -> Self {
        self.desc = desc;
        self
    }

    /// Narrows the field's domain: values above `max` are an error.
    pub(crate) const fn with_max(mut self, max: Option<u128>) -> Self {
        self.max = max;
        self
    }

    /// How a timestamp segment is written.
    pub(crate) const fn time_format(&self) -> TimeFormat {
        self.time
    }

    /// The precision of a timestamp segment.
    pub(crate) const fn time_unit(&self) -> TimeUnit {
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
    /// [`KeySegment::WIDTH`] is [`Width::Digits`]; the fixed width for [`Width::Fixed`]; 0 for
    /// text.
    pub const fn width(&self) -> u32 {
        self.width
    }

    /// Whether the field is `#[key(desc)]`: its encodings must sort in reverse order. Only types
    /// whose [`KeySegment::REVERSIBLE`] is `true` are given such a field.
    pub const fn is_desc(&self) -> bool {
        self.desc
    }

    /// The field's `#[key(max = N)]`, if any; only given to types with a
    /// [`KeySegment::MAX_VALUE`].
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

/// A type that can be one segment of a sort key.
///
/// Implemented for the integers, `bool`, `char`, `String`, `&str`, `Cow<str>`, `SystemTime`,
/// `Option<T>` of a segment, every `#[derive(SortKey)]` key and `#[derive(KeySegment)]` enum,
/// and with the crate's features the `chrono`, `time`, `uuid` and `ulid` types. The associated
/// constants tell the derive what the type allows, so that a bad schema (`desc` on text, a
/// width the type cannot fill) is rejected at compile time, for type aliases and user types as
/// well.
///
/// # Your own segment type
///
/// Implement `encode_segment` here and `decode_segment` in [`DecodeSegment`]; the constants
/// have defaults (text of any length, no `desc`, no `max`). What an implementation must hold,
/// for the key to sort by its fields and decode back:
///
/// - byte order of the encodings is the order of the values;
/// - every string `encode_segment` writes is read back by `decode_segment` as the same value,
///   and `decode_segment` accepts nothing else (no second spelling of a value);
/// - an encoding whose length varies, in a field that is not the key's last
///   ([`Field::is_last`]), contains only characters greater than [`Field::separator`];
/// - with `WIDTH = Width::Fixed(n)`, every encoding is exactly `n` ASCII bytes.
///
/// Errors are made from the [`Field`] and the [`Cursor`] they are about, so they name the key
/// and the field; bad input is an error, never a panic.
///
/// ```
/// use sortkey_core::{
///     Cursor, DecodeError, DecodeErrorKind, DecodeSegment, EncodeError, EncodeErrorKind, Field,
///     KeySegment, SortKey, Width,
/// };
///
/// /// An ISO 3166 country code: two upper-case ASCII letters.
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// struct Country([u8; 2]);
///
/// impl KeySegment for Country {
///     const WIDTH: Width = Width::Fixed(2);
///
///     fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
///         if !self.0.iter().all(u8::is_ascii_uppercase) {
///             let reason = format!("expected two upper-case letters, found {:?}", self.0);
///             return Err(field.encode_error(EncodeErrorKind::Invalid { reason: reason.into() }));
///         }
///         out.extend(self.0.iter().map(|&b| char::from(b)));
///         Ok(())
///     }
/// }
///
/// impl<'k> DecodeSegment<'k> for Country {
///     fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
///         let start = cursor.position();
///         let text = cursor.take_ascii(2, field, "two upper-case letters")?;
///         match *text.as_bytes() {
///             [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => Ok(Country([a, b])),
///             _ => Err(cursor.error_at(start, field, DecodeErrorKind::InvalidText, "two upper-case letters", format!("{text:?}"))),
///         }
///     }
/// }
///
/// #[derive(SortKey, Debug, PartialEq)]
/// struct Store {
///     country: Country,
///     #[key(width = 4)]
///     number: u16,
/// }
///
/// let k = Store { country: Country(*b"DE"), number: 42 };
/// assert_eq!(k.encode().unwrap(), "DE#0042");
/// assert_eq!(Store::decode("DE#0042").unwrap(), k);
/// assert_eq!(Store::decode("de#0042").unwrap_err().kind(), DecodeErrorKind::InvalidText);
/// assert!(Store { country: Country(*b"d1"), number: 1 }.encode().is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a segment of a sort key",
    label = "this field's type does not implement `KeySegment`",
    note = "segments can be integers (u8..u128, i8..i128, usize, isize), bool, char, String, &str, Cow<str>, \
            SystemTime, Option<T> of a segment, a unit enum with `#[derive(KeySegment)]`, a key with \
            `#[derive(SortKey)]`, and with features chrono/time/uuid/ulid their types; for your own type \
            implement `sortkey_core::KeySegment` and `DecodeSegment`"
)]
pub trait KeySegment {
    /// How many characters the segment takes: [`Width::Variable`] by default.
    const WIDTH: Width = Width::Variable;
    /// Whether `#[key(desc)]` can reverse the type's order; `false` by default. A type that
    /// says `true` must write encodings in reverse order when [`Field::is_desc`] is set.
    const REVERSIBLE: bool = false;
    /// The largest value, for types that accept `#[key(max = N)]` (and then must refuse values
    /// above [`Field::max`]); `None` by default.
    const MAX_VALUE: Option<u128> = None;
    /// For a type whose encodings have different lengths and are checked at compile time
    /// (unit enums: the names), the least byte any encoding contains. A field of such a type
    /// that is not the key's last must have it greater than the separator, or the derive
    /// rejects the key. `None` (the default) for fixed widths and for text, which is checked
    /// when it is encoded.
    #[doc(hidden)]
    const LEAST_BYTE: Option<u8> = None;
    /// `Some(separator)` for a key type (`#[derive(SortKey)]`) used as a segment of another
    /// key, which must use the same separator; `None` (the default) for every other type.
    #[doc(hidden)]
    const NESTED_SEPARATOR: Option<char> = None;
    /// Whether the type is a timestamp, which takes `#[key(unit = "...")]` and
    /// `#[key(format = "rfc3339")]`. `false` by default.
    #[doc(hidden)]
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
    pub(crate) fn new(key: &'k str, key_name: &'static str) -> Self {
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
    pub(crate) fn key(&self) -> &'k str {
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
            Some(&b) if b == field.sep_byte() => DecodeErrorKind::WrongWidth,
            Some(_) => DecodeErrorKind::NotADigit,
        };
        self.error_here(field, kind, format!("{n} ASCII digits"), n)
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
            _ => Err(self.error_here(field, DecodeErrorKind::InvalidText, expected, n)),
        }
    }

    /// Takes the rest of the key.
    pub(crate) fn take_rest(&mut self) -> &'k str {
        let rest = self.rest();
        self.pos = self.key.len();
        rest
    }

    /// Takes the text of the field's segment: the rest of the key for the last field; otherwise
    /// the run of characters greater than the separator (the alphabet of a non-final text
    /// segment), which must end at the separator or the end of the key.
    #[inline]
    pub fn take_text(&mut self, field: &Field) -> Result<&'k str, DecodeError> {
        if field.is_last() { Ok(self.take_rest()) } else { self.take_text_before(field) }
    }

    /// Takes the run of bytes greater than the field's separator (the alphabet of a non-final text segment).
    ///
    /// Fails if the run ends at a byte that is neither the separator nor the end of the key.
    pub(crate) fn take_text_before(&mut self, field: &Field) -> Result<&'k str, DecodeError> {
        let separator = field.sep_byte();
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
        // Every byte before `end` is > an ASCII separator (a `Field` holds no other), so `end` is
        // a char boundary.
        self.pos += end;
        Ok(&rest[..end])
    }

    /// Expects `literal` at the cursor and moves past it; the error is of `kind` and says
    /// `what` the literal is.
    #[inline]
    pub(crate) fn expect(
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
        self.error(self.pos, field, kind, format!("{what} {literal:?}"), describe(self.rest(), literal.chars().count()))
    }

    /// Expects the end of the key.
    pub(crate) fn expect_end(&self) -> Result<(), DecodeError> {
        if self.is_at_end() { Ok(()) } else { Err(self.trailing_input()) }
    }

    #[cold]
    #[inline(never)]
    fn trailing_input(&self) -> DecodeError {
        self.error(self.pos, None, DecodeErrorKind::TrailingInput, "end of key", describe(self.rest(), 16))
    }

    /// An error in `field` at the cursor, saying what was `expected` and showing up to `show`
    /// characters of what is there.
    #[cold]
    pub fn error_here(
        &self,
        field: &Field,
        kind: DecodeErrorKind,
        expected: impl Into<std::borrow::Cow<'static, str>>,
        show: usize,
    ) -> DecodeError {
        self.error(self.pos, Some(field.name()), kind, expected, describe(self.rest(), show))
    }

    /// An error in `field` at byte `offset` of the key (a [`position`](Self::position) taken
    /// before reading), saying what was `expected` and what was `found`.
    #[cold]
    pub fn error_at(
        &self,
        offset: usize,
        field: &Field,
        kind: DecodeErrorKind,
        expected: impl Into<std::borrow::Cow<'static, str>>,
        found: impl Into<String>,
    ) -> DecodeError {
        self.error(offset, Some(field.name()), kind, expected, found)
    }

    /// An error at `offset`, in a field or (`None`) in the key's own parts.
    #[cold]
    pub(crate) fn error(
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
        assert_eq!(c.take_text_before(&F).unwrap(), "ab");
        assert_eq!(c.position(), 2);
        let mut c = Cursor::new("a b#c", "K");
        let e = c.take_text_before(&F).unwrap_err();
        assert_eq!((e.offset(), e.found()), (1, "' ' (U+0020)"));
        let mut c = Cursor::new("é", "K");
        assert_eq!(c.take_text_before(&F).unwrap(), "é");
    }
}
