//! Integer segments: fixed-width zero-padded digits, nines' complement for `desc` and negatives.
//!
//! Unsigned `v` in width `w` is `w` digits, zero-padded; it fits when `v < 10^w`.
//! Signed `v >= 0` is `0` followed by `w-1` digits; `v < 0` is `-` followed by the nines'
//! complement of `|v|` in `w-1` digits, so every negative sorts before every non-negative
//! (`-` is 0x2D, `0` is 0x30) and larger magnitudes sort first. A signed value fits when
//! `|v| < 10^(w-1)`. `desc` complements every digit of an unsigned value and encodes `-v`
//! for a signed one. No step uses `format!`.

use crate::encoding::cursor::Cursor;
use crate::encoding::digits::{BUF, fits_digits, parse_digits, push_digits};
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{DecodeSegment, KeySegment};
use crate::encoding::spec::{Field, Width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// The largest value of `digits` digits, in decimal, for error messages.
#[cold]
fn largest(digits: u32, signed: bool) -> String {
    let nines = "9".repeat(digits as usize);
    match (signed, digits) {
        (_, 0) => "0".to_owned(),
        (true, _) => format!("{nines} (and at least -{nines})"),
        (false, _) => nines,
    }
}

/// Encodes an unsigned value.
#[inline(always)]
fn encode_unsigned(v: u128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if let Some(max) = field.max()
        && v > max
    {
        return Err(above_max(field, v));
    }
    let width = field.width();
    if width as usize > BUF {
        return Err(width_over_max(field));
    }
    if !fits_digits(v, width) {
        return Err(too_wide(field, false, false, v, width));
    }
    push_digits(out, v, width, field.is_desc());
    Ok(())
}

// The error paths are out of line and cold, so that the encoders and decoders inline into the
// generated code as a handful of compares and the digit conversion.

#[cold]
#[inline(never)]
fn above_max(field: &Field, value: u128) -> EncodeError {
    field.encode_error(EncodeErrorKind::AboveMax { value: value.to_string(), max: field.max().unwrap_or(0) })
}

/// A width no integer type has; the derive never makes one, so only a hand-made `Field` can.
#[cold]
#[inline(never)]
fn width_over_max(field: &Field) -> EncodeError {
    let reason = format!("expected an integer segment of at most {BUF} digits, found width {}", field.width());
    field.encode_error(EncodeErrorKind::Invalid { reason: reason.into() })
}

#[cold]
#[inline(never)]
fn too_wide(field: &Field, signed: bool, neg: bool, mag: u128, width: u32) -> EncodeError {
    let (value, digits) = match (signed, neg) {
        (true, true) => (format!("-{mag}"), width.saturating_sub(1)),
        (true, false) => (mag.to_string(), width.saturating_sub(1)),
        (false, _) => (mag.to_string(), width),
    };
    field.encode_error(EncodeErrorKind::TooWide { value, width, largest: largest(digits, signed) })
}

/// Encodes a signed value given as its sign and magnitude.
#[inline(always)]
pub(crate) fn encode_signed(neg: bool, mag: u128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if let Some(max) = field.max()
        && !neg
        && mag > max
    {
        return Err(above_max(field, mag));
    }
    let width = field.width();
    if width as usize > BUF {
        return Err(width_over_max(field));
    }
    let digits = width.saturating_sub(1);
    if width == 0 || !fits_digits(mag, digits) {
        return Err(too_wide(field, true, neg, mag, width));
    }
    // `desc` encodes -v; zero has no sign to flip.
    let neg = if field.is_desc() && mag != 0 { !neg } else { neg };
    out.push(if neg { '-' } else { '0' });
    push_digits(out, mag, digits, neg);
    Ok(())
}

/// Reads an unsigned segment and checks it against the type's largest value and the field's `max`.
#[inline(always)]
fn decode_unsigned(
    cursor: &mut Cursor<'_>,
    field: &Field,
    type_name: &'static str,
    type_max: u128,
) -> Result<u128, DecodeError> {
    let start = cursor.position();
    let digits = cursor.take_digits(field.width() as usize, field)?;
    match parse_digits(digits, field.is_desc()) {
        Some(v) if v <= type_max => check_max(cursor, start, field, false, v).map(|()| v),
        _ => Err(does_not_fit(cursor, start, field, type_name)),
    }
}

/// Reads a signed segment as its sign and magnitude, with the type's bounds `(|MIN|, MAX)`.
#[inline(always)]
pub(crate) fn decode_signed(
    cursor: &mut Cursor<'_>,
    field: &Field,
    type_name: &'static str,
    (type_min_mag, type_max): (u128, u128),
) -> Result<(bool, u128), DecodeError> {
    let start = cursor.position();
    let width = field.width() as usize;
    if width == 0 {
        return Err(bad_sign(cursor, field, width));
    }
    let neg = match cursor.key().as_bytes().get(start) {
        Some(b'0') => false,
        Some(b'-') => true,
        _ => return Err(bad_sign(cursor, field, width)),
    };
    cursor.skip_ascii_byte();
    let digits = match cursor.take_digits(width - 1, field) {
        Ok(digits) => digits,
        Err(e) => return Err(bad_signed_digits(cursor, field, width, &e)),
    };
    let Some(mag) = parse_digits(digits, neg) else {
        return Err(does_not_fit(cursor, start, field, type_name));
    };
    if neg && mag == 0 {
        return Err(negative_zero(cursor, start, field));
    }
    let neg = if field.is_desc() && mag != 0 { !neg } else { neg };
    let bound = if neg { type_min_mag } else { type_max };
    if mag > bound {
        return Err(does_not_fit(cursor, start, field, type_name));
    }
    check_max(cursor, start, field, neg, mag)?;
    Ok((neg, mag))
}

#[inline(always)]
fn check_max(cursor: &Cursor<'_>, start: usize, field: &Field, neg: bool, mag: u128) -> Result<(), DecodeError> {
    match field.max() {
        Some(max) if !neg && mag > max => Err(decoded_above_max(cursor, start, field, mag, max)),
        _ => Ok(()),
    }
}

#[cold]
#[inline(never)]
fn decoded_above_max(cursor: &Cursor<'_>, start: usize, field: &Field, mag: u128, max: u128) -> DecodeError {
    let found = format!("{:?} ({mag})", &cursor.key()[start..cursor.position()]);
    let expected = format!("a value at most {max} (the field's max)");
    cursor.error_at(start, field, DecodeErrorKind::AboveMax, expected, found)
}

#[cold]
#[inline(never)]
fn bad_sign(cursor: &Cursor<'_>, field: &Field, width: usize) -> DecodeError {
    if width == 0 {
        cursor.error_here(field, DecodeErrorKind::WrongWidth, "a signed segment of width at least 1", 1)
    } else {
        cursor.error_here(field, DecodeErrorKind::BadSign, "`0` or `-` (the sign position)", width)
    }
}

#[cold]
#[inline(never)]
fn bad_signed_digits(cursor: &Cursor<'_>, field: &Field, width: usize, e: &DecodeError) -> DecodeError {
    let expected = format!("{} ASCII digits after the sign", width - 1);
    cursor.error_at(e.offset(), field, e.kind(), expected, e.found().to_owned())
}

#[cold]
#[inline(never)]
fn negative_zero(cursor: &Cursor<'_>, start: usize, field: &Field) -> DecodeError {
    let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
    let expected = "a negative number (`-` and all nines would be negative zero)";
    cursor.error_at(start, field, DecodeErrorKind::NegativeZero, expected, found)
}

#[cold]
#[inline(never)]
fn does_not_fit(cursor: &Cursor<'_>, start: usize, field: &Field, type_name: &'static str) -> DecodeError {
    let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
    let expected = format!("a value that fits `{type_name}`");
    cursor.error_at(start, field, DecodeErrorKind::OutOfRange, expected, found)
}

macro_rules! unsigned {
    ($($t:ty => $digits:expr),* $(,)?) => {$(
        impl KeySegment for $t {
            const WIDTH: Width = Width::Digits { default: $digits, min: 1, max: $digits, signed: false };
            const REVERSIBLE: bool = true;
            const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Unsigned(<$t>::BITS);
            const MAX_VALUE: Option<u128> = Some(<$t>::MAX as u128);

            // `always`: inlined into the generated `encode_into`, the field is a constant and the
            // width checks and chunk selection fold away.
            #[inline(always)]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                encode_unsigned(*self as u128, field, out)
            }
        }

        impl<'k> DecodeSegment<'k> for $t {
            #[inline(always)]
            fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
                // decode_unsigned checked the value against MAX, so the cast is exact.
                decode_unsigned(cursor, field, stringify!($t), <$t>::MAX as u128).map(|v| v as $t)
            }
        }
    )*};
}

macro_rules! signed {
    ($($t:ty => $digits:expr),* $(,)?) => {$(
        impl KeySegment for $t {
            const WIDTH: Width = Width::Digits { default: $digits + 1, min: 2, max: $digits + 1, signed: true };
            const REVERSIBLE: bool = true;
            const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Signed(<$t>::BITS);
            const MAX_VALUE: Option<u128> = Some(<$t>::MAX as u128);

            // `always`: inlined into the generated `encode_into`, the field is a constant and the
            // width checks and chunk selection fold away.
            #[inline(always)]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                encode_signed(*self < 0, self.unsigned_abs() as u128, field, out)
            }
        }

        impl<'k> DecodeSegment<'k> for $t {
            #[inline(always)]
            fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
                let bounds = (<$t>::MIN.unsigned_abs() as u128, <$t>::MAX as u128);
                let (neg, mag) = decode_signed(cursor, field, stringify!($t), bounds)?;
                // The magnitude is within the type's bounds; -|MIN| wraps to MIN exactly.
                let v = mag as $t;
                Ok(if neg { v.wrapping_neg() } else { v })
            }
        }
    )*};
}

unsigned!(u8 => 3, u16 => 5, u32 => 10, u64 => 20, u128 => 39);
signed!(i8 => 3, i16 => 5, i32 => 10, i64 => 19, i128 => 39);

#[cfg(target_pointer_width = "64")]
unsigned!(usize => 20);
#[cfg(target_pointer_width = "64")]
signed!(isize => 19);
#[cfg(target_pointer_width = "32")]
unsigned!(usize => 10);
#[cfg(target_pointer_width = "32")]
signed!(isize => 10);
#[cfg(target_pointer_width = "16")]
unsigned!(usize => 5);
#[cfg(target_pointer_width = "16")]
signed!(isize => 5);

#[cfg(test)]
mod tests {
    use super::*;

    use crate::encoding::segment::testing::{dec, enc};
    use crate::encoding::spec::Field;

    const F: Field = Field::new("K", "f", '#');

    #[test]
    fn unsigned_pads_and_complements() {
        assert_eq!(enc(&1500u64, F.with_width(10)).unwrap(), "0000001500");
        assert_eq!(enc(&1500u64, F.with_width(10).with_desc(true)).unwrap(), "9999998499");
        assert_eq!(enc(&u64::MAX, F.with_width(20)).unwrap(), "18446744073709551615");
        assert_eq!(enc(&u128::MAX, F.with_width(39)).unwrap(), "340282366920938463463374607431768211455");
        assert_eq!(enc(&0u8, F.with_width(3).with_desc(true)).unwrap(), "999");
    }

    #[test]
    fn signed_uses_sign_position() {
        assert_eq!(enc(&5i32, F.with_width(4)).unwrap(), "0005");
        assert_eq!(enc(&-5i32, F.with_width(4)).unwrap(), "-994");
        assert_eq!(enc(&-999i32, F.with_width(4)).unwrap(), "-000");
        assert_eq!(enc(&5i32, F.with_width(4).with_desc(true)).unwrap(), "-994");
        assert_eq!(enc(&i8::MIN, F.with_width(4)).unwrap(), "-871");
        assert_eq!(
            enc(&i128::MIN, F.with_width(40).with_desc(true)).unwrap(),
            "0170141183460469231731687303715884105728"
        );
        assert!(enc(&1000i32, F.with_width(4)).is_err());
        assert!(enc(&-1000i32, F.with_width(4)).is_err());
    }

    #[test]
    fn decode_round_trips_edges() {
        assert_eq!(
            dec::<i128>("0170141183460469231731687303715884105728", F.with_width(40).with_desc(true)).unwrap(),
            i128::MIN
        );
        assert_eq!(dec::<i8>("-871", F.with_width(4)).unwrap(), i8::MIN);
        assert_eq!(dec::<u8>("999", F.with_width(3).with_desc(true)).unwrap(), 0);
        assert_eq!(dec::<u64>("18446744073709551615", F.with_width(20)).unwrap(), u64::MAX);
    }

    #[test]
    fn decode_rejects_non_canonical() {
        assert!(dec::<i32>("-999", F.with_width(4)).is_err(), "negative zero");
        assert!(dec::<i32>("+005", F.with_width(4)).is_err());
        assert!(dec::<i32>("1005", F.with_width(4)).is_err(), "first digit of a signed value is its sign");
        assert!(dec::<u8>("256", F.with_width(3)).is_err());
        assert!(dec::<u64>("18446744073709551616", F.with_width(20)).is_err());
        assert!(dec::<u8>(" 12", F.with_width(3)).is_err());
        assert!(dec::<u8>("١٢٣", F.with_width(3)).is_err());
        assert!(dec::<i8>("-870", F.with_width(4)).is_err(), "below i8::MIN");
        let e = dec::<u16>("5001", F.with_width(4).with_max(Some(5000))).unwrap_err();
        assert_eq!(e.expected(), "a value at most 5000 (the field's max)");
    }

    #[test]
    fn max_is_checked_on_encode() {
        // A width no type can fill is an error, not a panic or a key of another width.
        assert!(enc(&5u64, F.with_width(50)).is_err());
        assert!(enc(&-5i128, F.with_width(41)).is_err());
        let e = enc(&5001u16, F.with_width(4).with_max(Some(5000))).unwrap_err();
        assert_eq!(e.kind(), &EncodeErrorKind::AboveMax { value: "5001".into(), max: 5000 });
        assert!(enc(&-5001i16, F.with_width(5).with_max(Some(5000))).is_ok(), "max bounds from above only");
    }
}
