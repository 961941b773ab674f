//! `Option<T>` segments: a tag character, then the value.
//!
//! `None` is the single character `0`; `Some(v)` is `1` followed by the encoding of `v` in
//! the same field (same width, same position rules). Because the tag comes first and `0 < 1`,
//! `None` sorts before every `Some`, and `Some` values keep `T`'s order: the key compares the
//! tags first and the values only when both are `Some`. The decoder reads the tag and knows
//! at once whether a value follows, so no encoding of `None` is a prefix of one of `Some`,
//! whatever `T` is (text, numbers, nested keys, other options).
//!
//! `Option<T>` takes the attributes of `T` (`width`, `max`, `unit`, `format`) but not `desc`:
//! `None` would stay first, which is not the reversed order.

use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, DecodeSegment, KeySegment};
use crate::encoding::spec::{Field, Width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

impl<T: KeySegment> KeySegment for Option<T> {
    const WIDTH: Width = T::WIDTH;
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = T::MAX_VALUE;
    const CAPABILITIES: Capabilities = T::CAPABILITIES;
    const VARIABLE_LEN: bool = true;
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Option(&T::SEGMENT_LAYOUT);

    #[inline]
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        match self {
            None => {
                out.push('0');
                Ok(())
            }
            Some(v) => {
                out.push('1');
                v.encode_segment(field, out)
            }
        }
    }
}

impl<'k, T: DecodeSegment<'k>> DecodeSegment<'k> for Option<T> {
    #[inline]
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        match cursor.rest().as_bytes().first() {
            Some(b'0') => {
                cursor.skip_ascii_byte();
                Ok(None)
            }
            Some(b'1') => {
                cursor.skip_ascii_byte();
                T::decode_segment(cursor, field).map(Some)
            }
            _ => Err(cursor.error_here(field, DecodeErrorKind::BadTag, "`0` (None) or `1` (Some, then the value)", 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MID: Field = Field::new("K", "o", '#').with_width(3);

    fn enc<T: KeySegment>(v: &T, f: Field) -> String {
        let mut s = String::new();
        v.encode_segment(&f, &mut s).unwrap();
        s
    }

    #[test]
    fn none_is_0_and_some_is_1_then_the_value() {
        assert_eq!(enc(&None::<u16>, MID), "0");
        assert_eq!(enc(&Some(7u16), MID), "1007");
        assert_eq!(enc(&Some(None::<u8>), MID), "10");
        assert_eq!(enc(&Some("ab".to_owned()), MID.with_last(true)), "1ab");
        let mut c = Cursor::new("1007#", "K");
        assert_eq!(Option::<u16>::decode_segment(&mut c, &MID).unwrap(), Some(7));
        assert_eq!(c.rest(), "#");
        let e = Option::<u16>::decode_segment(&mut Cursor::new("2007", "K"), &MID).unwrap_err();
        assert_eq!((e.field(), e.found()), (Some("o"), "\"2\""));
    }
}
