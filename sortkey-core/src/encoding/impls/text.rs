//! Text and `bool` segments.
//!
//! Text is written as itself. A text segment that is not the last one may contain only
//! characters greater than the separator: then the separator that ends it sorts below
//! every character that could continue it, so a shorter text sorts first and byte order of
//! the key equals the order of the fields. The last segment may contain anything.

use std::borrow::Cow;

use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, DecodeSegment, KeySegment};
use crate::encoding::spec::{Field, Width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// Checks the non-final text rule and appends `text`.
#[inline]
fn encode_text(text: &str, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if !field.is_last() {
        let sep = field.sep_byte();
        if let Some(offset) = text.bytes().position(|b| b <= sep) {
            let ch = text[offset..].chars().next().unwrap_or('\0');
            return Err(field.encode_error(EncodeErrorKind::ForbiddenChar { ch, offset, separator: sep as char }));
        }
    }
    out.push_str(text);
    Ok(())
}

/// Reads a text segment: up to the separator when it is not the last, the rest otherwise.
#[inline]
fn decode_text<'k>(cursor: &mut Cursor<'k>, field: &Field) -> Result<&'k str, DecodeError> {
    cursor.take_text(field)
}

impl KeySegment for str {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Text;
    const WIDTH: Width = Width::Variable;
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        encode_text(self, field, out)
    }
}

impl KeySegment for String {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Text;
    const WIDTH: Width = Width::Variable;
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        encode_text(self, field, out)
    }
}

impl<'k> DecodeSegment<'k> for String {
    #[inline]
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        decode_text(cursor, field).map(str::to_owned)
    }
}

impl<T: KeySegment + ?Sized> KeySegment for &T {
    const WIDTH: Width = T::WIDTH;
    const REVERSIBLE: bool = T::REVERSIBLE;
    const MAX_VALUE: Option<u128> = T::MAX_VALUE;
    // A reference checks as its referent: enum names before another field, a nested key's
    // separator, timestamp attributes.
    const CAPABILITIES: Capabilities = T::CAPABILITIES;
    const VARIABLE_LEN: bool = T::VARIABLE_LEN;
    const SEGMENT_LAYOUT: SegmentLayout = T::SEGMENT_LAYOUT;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        (**self).encode_segment(field, out)
    }
}

/// Borrows from the key: decoding a `&str` segment allocates nothing.
impl<'k> DecodeSegment<'k> for &'k str {
    #[inline]
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        decode_text(cursor, field)
    }
}

impl KeySegment for Cow<'_, str> {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Text;
    const WIDTH: Width = Width::Variable;
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        encode_text(self, field, out)
    }
}

/// Borrows from the key (`Cow::Borrowed`).
impl<'k> DecodeSegment<'k> for Cow<'k, str> {
    #[inline]
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        decode_text(cursor, field).map(Cow::Borrowed)
    }
}

impl KeySegment for char {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Char;
    const WIDTH: Width = Width::Variable;
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        encode_text(self.encode_utf8(&mut [0; 4]), field, out)
    }
}

impl<'k> DecodeSegment<'k> for char {
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        let start = cursor.position();
        let text = decode_text(cursor, field)?;
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => {
                let found = if text.is_empty() { "nothing".to_owned() } else { format!("{text:?}") };
                Err(cursor.error_at(start, field, DecodeErrorKind::InvalidText, "exactly one character", found))
            }
        }
    }
}

impl KeySegment for bool {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Bool;
    const WIDTH: Width = Width::Fixed(1);
    const REVERSIBLE: bool = true;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        out.push(if *self != field.is_desc() { '1' } else { '0' });
        Ok(())
    }
}

impl<'k> DecodeSegment<'k> for bool {
    #[inline]
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        let bit = match cursor.take_digits(1, field) {
            Ok(b"0") => false,
            Ok(b"1") => true,
            _ => return Err(bad_bool(cursor, field)),
        };
        Ok(bit != field.is_desc())
    }
}

#[cold]
fn bad_bool(cursor: &Cursor<'_>, field: &Field) -> DecodeError {
    // take_digits may have moved past a digit other than 0 or 1: report where the segment began.
    let found = cursor.key()[..cursor.position()].chars().last();
    let (offset, kind, found) = match (found, cursor.rest().chars().next()) {
        (Some(c @ '2'..='9'), _) => (cursor.position() - 1, DecodeErrorKind::OutOfRange, format!("{c:?}")),
        (_, Some(c)) => (cursor.position(), DecodeErrorKind::NotADigit, format!("{c:?}")),
        (_, None) => (cursor.position(), DecodeErrorKind::WrongWidth, "end of key".to_owned()),
    };
    cursor.error_at(offset, field, kind, "`0` or `1`", found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MID: Field = Field::new("K", "name", '#');
    const LAST: Field = MID.with_last(true);

    use crate::encoding::segment::testing::enc;

    #[test]
    fn non_final_text_rejects_separator_and_below() {
        for bad in ["a#b", "a b", "a!", "\"", "tab\t", "nul\0"] {
            let e = enc(bad, MID).unwrap_err();
            assert!(matches!(e.kind(), EncodeErrorKind::ForbiddenChar { .. }), "{bad:?}");
            assert_eq!(e.field(), Some("name"));
        }
        assert_eq!(enc("p_8842$é\u{10FFFF}", MID).unwrap(), "p_8842$é\u{10FFFF}");
        assert_eq!(enc("any # thing!", LAST).unwrap(), "any # thing!");
    }

    #[test]
    fn forbidden_char_names_the_character() {
        let e = enc("ab cd", MID).unwrap_err();
        assert_eq!(e.kind(), &EncodeErrorKind::ForbiddenChar { ch: ' ', offset: 2, separator: '#' });
    }

    #[test]
    fn bool_and_char() {
        assert_eq!(enc(&true, MID).unwrap(), "1");
        assert_eq!(enc(&true, MID.with_desc(true)).unwrap(), "0");
        assert_eq!(enc(&'é', MID).unwrap(), "é");
        assert!(enc(&'#', MID).is_err());
        let mut c = Cursor::new("2", "K");
        let e = bool::decode_segment(&mut c, &MID).unwrap_err();
        assert_eq!((e.offset(), e.found()), (0, "'2'"));
        let mut c = Cursor::new("ab", "K");
        assert_eq!(char::decode_segment(&mut c, &LAST).unwrap_err().expected(), "exactly one character");
    }
}
