//! The decode cursor: a position in a key, the reads segment decoders make from it, and the
//! errors that carry the byte offset.

use crate::encoding::digits::all_digits;
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind};

/// A position in a key being decoded.
///
/// Segment decoders read from it; the errors it makes carry the byte offset.
#[derive(Debug, Clone)]
pub struct Cursor<'k> {
    key: &'k str,
    pos: usize,
    key_name: &'static str,
    /// Where the last fixed-width run of digits ended, and its field: a digit there at the end
    /// of the key is that field written wider, not input after the key.
    digits_end: Option<(usize, &'static str)>,
}

impl<'k> Cursor<'k> {
    /// A cursor at the start of `key`, decoding a key of type `key_name`.
    pub(crate) fn new(key: &'k str, key_name: &'static str) -> Self {
        Cursor { key, pos: 0, key_name, digits_end: None }
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
            Some(run) if all_digits(run) => {
                self.pos += n;
                self.digits_end = Some((self.pos, field.name()));
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
    fn take_rest(&mut self) -> &'k str {
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
    fn take_text_before(&mut self, field: &Field) -> Result<&'k str, DecodeError> {
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
        let rest = &self.key.as_bytes()[self.pos..];
        // A one-byte literal (a separator) compares one byte, even when its length is known
        // only at run time (a layout read from its text), instead of calling `memcmp`.
        let found = match literal.as_bytes() {
            [byte] => rest.first() == Some(byte),
            bytes => rest.starts_with(bytes),
        };
        if found {
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
        // A digit right after the last field's run of digits: that field is wider than its width.
        if let Some((end, field)) = self.digits_end.filter(|(end, _)| *end == self.pos)
            && self.rest().as_bytes().first().is_some_and(u8::is_ascii_digit)
        {
            let (kind, found) = (DecodeErrorKind::WrongWidth, describe(self.rest(), 16));
            return self.error(end, Some(field), kind, "the end of the key after the field's digits", found);
        }
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
