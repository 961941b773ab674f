//! Identifier segments: `Uuid` (feature `uuid`) as 36 characters of lowercase hyphenated hex,
//! `Ulid` (feature `ulid`) as its 26 characters of Crockford base32.
//!
//! Both alphabets are in ASCII order, so byte order of the text is the numeric order of the
//! 128-bit value, which is also the types' own `Ord`. Both have a fixed width and may stand in
//! any position; neither can be reversed with `desc`. Decoding accepts only the text that
//! encoding writes: no uppercase UUID, no braces or URN, no lowercase or `I L O U` in a ULID.
//!
//! The impls of optional features are `#[diagnostic::do_not_recommend]`: the compiler's list of
//! "other types that implement `KeySegment`" stays the same whatever features are on, which
//! keeps the pinned trybuild output of `tests/trybuild/ui` valid under `--all-features`.

#[cfg(any(feature = "uuid", feature = "ulid"))]
use crate::encoding::cursor::Cursor;
#[cfg(any(feature = "uuid", feature = "ulid"))]
use crate::encoding::layout::SegmentLayout;
#[cfg(any(feature = "uuid", feature = "ulid"))]
use crate::encoding::segment::{DecodeSegment, KeySegment};
#[cfg(any(feature = "uuid", feature = "ulid"))]
use crate::encoding::spec::{Field, Width};
#[cfg(any(feature = "uuid", feature = "ulid"))]
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// Takes `N` bytes and checks that `render(parse(text))` gives them back.
#[cfg(any(feature = "uuid", feature = "ulid"))]
fn decode_canonical<'k, T, const N: usize>(
    cursor: &mut Cursor<'k>,
    field: &Field,
    expected: &'static str,
    parse: impl FnOnce(&str) -> Option<T>,
    render: impl FnOnce(&T, &mut [u8; N]) -> bool,
) -> Result<T, DecodeError> {
    let start = cursor.position();
    let text = cursor.take_ascii(N, field, expected)?;
    let mut buf = [0u8; N];
    match parse(text) {
        Some(v) if render(&v, &mut buf) && buf == text.as_bytes() => Ok(v),
        _ => Err(cursor.error_at(start, field, DecodeErrorKind::InvalidText, expected, format!("{text:?}"))),
    }
}

/// Feature `uuid`: `67e55044-10b1-426f-9247-bb680e5fe0c8`, 36 characters.
///
/// ```
/// use sortkey_core::{SortKey, uuid::Uuid};
///
/// #[derive(SortKey)]
/// struct K {
///     id: Uuid,
///     name: String,
/// }
/// let k = K { id: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8), name: "a".into() };
/// assert_eq!(k.encode().unwrap(), "67e55044-10b1-426f-9247-bb680e5fe0c8#a");
/// ```
///
/// `desc` is a compile-time error:
///
/// ```compile_fail
/// use sortkey_core::{SortKey, uuid::Uuid};
///
/// #[derive(SortKey)]
/// struct K {
///     #[key(desc)]
///     id: Uuid,
/// }
/// ```
#[cfg(feature = "uuid")]
#[diagnostic::do_not_recommend]
impl KeySegment for uuid::Uuid {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Uuid;
    const WIDTH: Width = Width::Fixed(36);
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, _field: &Field, out: &mut String) -> Result<(), EncodeError> {
        let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
        out.push_str(self.hyphenated().encode_lower(&mut buf));
        Ok(())
    }
}

#[cfg(feature = "uuid")]
#[diagnostic::do_not_recommend]
impl<'k> DecodeSegment<'k> for uuid::Uuid {
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        decode_canonical::<_, 36>(
            cursor,
            field,
            "a lowercase hyphenated UUID of 36 characters, such as 67e55044-10b1-426f-9247-bb680e5fe0c8",
            |text| uuid::Uuid::try_parse(text).ok(),
            |v, buf| {
                v.hyphenated().encode_lower(buf);
                true
            },
        )
    }
}

/// Feature `ulid`: `01ARZ3NDEKTSV4RRFFQ69G5FAV`, 26 characters.
///
/// `desc` is a compile-time error:
///
/// ```compile_fail
/// use sortkey_core::{SortKey, ulid::Ulid};
///
/// #[derive(SortKey)]
/// struct K {
///     #[key(desc)]
///     id: Ulid,
/// }
/// ```
#[cfg(feature = "ulid")]
#[diagnostic::do_not_recommend]
impl KeySegment for ulid::Ulid {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Ulid;
    const WIDTH: Width = Width::Fixed(26);
    const REVERSIBLE: bool = false;
    const MAX_VALUE: Option<u128> = None;

    #[inline]
    fn encode_segment(&self, _field: &Field, out: &mut String) -> Result<(), EncodeError> {
        let mut buf = [0u8; ulid::ULID_LEN];
        out.push_str(self.array_to_str(&mut buf));
        Ok(())
    }
}

#[cfg(feature = "ulid")]
#[diagnostic::do_not_recommend]
impl<'k> DecodeSegment<'k> for ulid::Ulid {
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        decode_canonical::<_, 26>(
            cursor,
            field,
            "a ULID of 26 uppercase Crockford base32 characters at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ, \
             such as 01ARZ3NDEKTSV4RRFFQ69G5FAV",
            // The first character holds 3 bits: above `7` the text does not fit 128 bits.
            |text| (text.as_bytes()[0] <= b'7').then(|| ulid::Ulid::from_string(text).ok()).flatten(),
            |v, buf| {
                v.array_to_str(buf);
                true
            },
        )
    }
}

#[cfg(all(test, feature = "uuid", feature = "ulid"))]
mod tests {
    use super::*;

    const F: Field = Field::new("K", "id", '#').with_last(true);

    fn dec<T: for<'k> DecodeSegment<'k>>(s: &str) -> Result<T, DecodeError> {
        let mut c = Cursor::new(s, "K");
        let v = T::decode_segment(&mut c, &F)?;
        c.expect_end()?;
        Ok(v)
    }

    #[test]
    fn uuid_is_lowercase_hyphenated_only() {
        let text = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        let u = dec::<uuid::Uuid>(text).unwrap();
        let mut s = String::new();
        u.encode_segment(&F, &mut s).unwrap();
        assert_eq!(s, text);
        for bad in [
            "67E55044-10b1-426f-9247-bb680e5fe0c8",
            "67e5504410b1426f9247bb680e5fe0c8",
            "{67e55044-10b1-426f-9247-bb680e5fe0c}",
        ] {
            let e = dec::<uuid::Uuid>(bad).unwrap_err();
            assert_eq!(e.field(), Some("id"), "{bad}");
        }
    }

    #[test]
    fn ulid_is_uppercase_crockford_within_128_bits() {
        let text = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
        let u = dec::<ulid::Ulid>(text).unwrap();
        let mut s = String::new();
        u.encode_segment(&F, &mut s).unwrap();
        assert_eq!(s, text);
        assert_eq!(dec::<ulid::Ulid>("7ZZZZZZZZZZZZZZZZZZZZZZZZZ").unwrap(), ulid::Ulid(u128::MAX));
        for bad in [
            "01arz3ndektsv4rrffq69g5fav",
            "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
            "01ARZ3NDEKTSV4RRFFQ69G5FAI",
            "01ARZ3NDEKTSV4RRFFQ69G5FA",
        ] {
            assert!(dec::<ulid::Ulid>(bad).is_err(), "{bad}");
        }
    }
}
