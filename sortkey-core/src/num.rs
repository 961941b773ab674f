//! Integer segments: fixed-width zero-padded digits, nines' complement for `desc` and negatives.
//!
//! Unsigned `v` in width `w` is `w` digits, zero-padded; it fits when `v < 10^w`.
//! Signed `v >= 0` is `0` followed by `w-1` digits; `v < 0` is `-` followed by the nines'
//! complement of `|v|` in `w-1` digits, so every negative sorts before every non-negative
//! (`-` is 0x2D, `0` is 0x30) and larger magnitudes sort first. A signed value fits when
//! `|v| < 10^(w-1)`. `desc` complements every digit of an unsigned value and encodes `-v`
//! for a signed one. No step uses `format!`.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::segment::{Cursor, DecodeSegment, Field, KeySegment, Width};

/// `10^i` for `i` in `0..=38`; `10^39` exceeds `u128::MAX`.
const POW10: [u128; 39] = {
    let mut table = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// The widest digit run any integer type uses.
const BUF: usize = 40;

/// Whether `v` fits in `digits` decimal digits.
#[inline(always)]
pub(crate) fn fits_digits(v: u128, digits: u32) -> bool {
    digits as usize >= POW10.len() || v < POW10[digits as usize]
}

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

/// Eight `0x01` bytes: a SWAR multiple of it puts one value in every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// `x < 10^8` as its eight decimal digits in ASCII, most significant first (each `d` as `9 - d`
/// when `complement`), without a division per digit: the word is split into two 4-digit lanes,
/// then four 2-digit lanes, then eight 1-digit lanes, each step one multiply and shift for all
/// lanes at once. No lane overflows into its neighbour (the bounds are in the comments).
#[inline(always)]
fn ascii8(x: u32, complement: bool) -> [u8; 8] {
    debug_assert!(x < 100_000_000);
    let x = u64::from(x);
    // Lanes of 32 bits: the high four digits in the low lane, so that they come first in memory.
    let v = (x / 10_000) | ((x % 10_000) << 32);
    // Each lane < 10^4: lane * 10_486 < 2^27, and (lane * 10_486) >> 20 == lane / 100 for lane < 10^4.
    let hi = ((v * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let v = hi | ((v - hi * 100) << 16);
    // Lanes of 16 bits, each < 100: lane * 103 < 2^14, and (lane * 103) >> 10 == lane / 10 for lane < 100.
    let hi = ((v * 103) >> 10) & 0x000F_000F_000F_000F;
    let v = hi | ((v - hi * 10) << 8);
    // Every byte is now a digit 0..=9, so neither the subtraction nor the addition carries.
    let v = if complement { 9 * ONES - v } else { v };
    (v + b'0' as u64 * ONES).to_le_bytes()
}

/// Appends `v` as exactly `width` digits (the caller checked that it fits), each digit `d`
/// replaced by `9 - d` when `complement` is set.
#[inline(always)]
pub(crate) fn push_digits(out: &mut String, v: u128, width: u32, complement: bool) {
    let width = width as usize;
    if width <= 24 && v <= u128::from(u64::MAX) {
        push_digits_u64(out, v as u64, width, complement);
    } else {
        push_digits_wide(out, v, width, complement);
    }
}

/// [`push_digits`] for a value that fits a `u64` in at most 24 digits: three 8-digit chunks at most.
#[inline(always)]
fn push_digits_u64(out: &mut String, v: u64, width: usize, complement: bool) {
    let mut buf = [b'0'; 24];
    let hi = v / 100_000_000;
    buf[16..].copy_from_slice(&ascii8((v % 100_000_000) as u32, complement));
    if width > 8 {
        buf[8..16].copy_from_slice(&ascii8((hi % 100_000_000) as u32, complement));
        if width > 16 {
            // u64::MAX / 10^16 < 1845.
            buf[..8].copy_from_slice(&ascii8((hi / 100_000_000) as u32, complement));
        }
    }
    push_ascii(out, &buf, 24 - width);
}

/// Appends `buf[from..]`, which is ASCII (digits written by [`ascii8`] and `b'0'` fill).
///
/// `str::from_utf8` would be a third of the instructions of a whole key here (about 80 per
/// segment for its general loop), so the buffer is checked as ASCII (a few word compares on a
/// constant-size array) and converted without a second validation.
#[inline(always)]
fn push_ascii<const N: usize>(out: &mut String, buf: &[u8; N], from: usize) {
    if buf.is_ascii() {
        #[allow(unsafe_code)]
        // SAFETY: every byte of `buf` was just checked to be ASCII, and ASCII is valid UTF-8.
        let text = unsafe { core::str::from_utf8_unchecked(buf) };
        out.push_str(&text[from..]);
    } else {
        // Unreachable (see above); kept safe rather than assumed.
        out.extend(buf[from..].iter().map(|&b| char::from(b)));
    }
}

/// [`push_digits`] for everything else (u128 values, widths over 24), in 8-digit chunks.
#[inline(never)]
fn push_digits_wide(out: &mut String, v: u128, width: usize, complement: bool) {
    let fill = if complement { b'9' } else { b'0' };
    let mut buf = [fill; BUF];
    let mut rest = v;
    let mut end = BUF;
    while rest > 0 {
        let chunk = (rest % 100_000_000) as u32;
        rest /= 100_000_000;
        buf[end - 8..end].copy_from_slice(&ascii8(chunk, complement));
        end -= 8;
    }
    push_ascii(out, &buf, BUF - width);
}

/// Whether the eight bytes of `w` are all ASCII digits: each byte's high nibble is 3, and stays 3
/// when 6 is added (`0x3A..=0x3F` become `0x40..`). A byte that carries into its neighbour is at
/// least `0xFA`, whose own high nibble already fails the test.
#[inline(always)]
pub(crate) fn eight_digits(w: u64) -> bool {
    const HIGH: u64 = 0xF0 * ONES;
    ((w & HIGH) | ((w.wrapping_add(6 * ONES) & HIGH) >> 4)) == 0x33 * ONES
}

/// Whether every byte is an ASCII digit, eight at a time.
#[inline(always)]
pub(crate) fn all_digits(run: &[u8]) -> bool {
    let mut chunks = run.chunks_exact(8);
    let body = chunks.by_ref().all(|c| eight_digits(u64::from_le_bytes(c.try_into().unwrap_or_default())));
    body && chunks.remainder().iter().all(u8::is_ascii_digit)
}

/// The value of eight ASCII digits (each `d` read as `9 - d` when `complement`), which the caller
/// checked: pairs of digits, then pairs of pairs, then the two halves, each a multiply for all lanes.
#[inline(always)]
fn parse8(chunk: &[u8], complement: bool) -> u64 {
    let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
    let v = if complement { b'9' as u64 * ONES - w } else { w - b'0' as u64 * ONES };
    // Byte i + 1 holds 10 * d[i] + d[i+1] for even i.
    let v = v * 10 + (v >> 8);
    const LANES: u64 = 0x0000_00FF_0000_00FF;
    let a = (v & LANES).wrapping_mul(100 + (1_000_000 << 32));
    let b = ((v >> 16) & LANES).wrapping_mul(1 + (10_000 << 32));
    a.wrapping_add(b) >> 32
}

/// Reads a run of ASCII digits (each `d` read as `9 - d` when `complement`), `None` on overflow.
#[inline(always)]
pub(crate) fn parse_digits(digits: &[u8], complement: bool) -> Option<u128> {
    if digits.len() <= 19 {
        // 19 digits never overflow a u64.
        let (head, body) = digits.split_at(digits.len() % 8);
        let mut v = 0u64;
        for &b in head {
            v = v * 10 + u64::from(if complement { b'9' - b } else { b - b'0' });
        }
        for chunk in body.chunks_exact(8) {
            v = v * 100_000_000 + parse8(chunk, complement);
        }
        return Some(v as u128);
    }
    let digit = |b: u8| if complement { b'9' - b } else { b - b'0' };
    let mut v = 0u128;
    for &b in digits {
        v = v.checked_mul(10)?.checked_add(digit(b) as u128)?;
    }
    Some(v)
}

/// Encodes an unsigned value.
#[inline(always)]
pub(crate) fn encode_unsigned(v: u128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
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
pub(crate) fn decode_unsigned(
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

    use crate::segment::testing::{dec, enc};

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
    fn swar_digits_match_the_plain_conversion() {
        // Every 4-digit half and a stride over all 8-digit values, both directions.
        let values = (0..10_000).chain((0..100_000_000).step_by(9_973)).chain([99_999_999, 10_000_000, 99_990_000]);
        for x in values {
            for complement in [false, true] {
                let digits = ascii8(x, complement);
                let plain = format!("{x:08}");
                let expected: Vec<u8> = plain.bytes().map(|b| if complement { b'9' + b'0' - b } else { b }).collect();
                assert_eq!(digits.as_slice(), expected.as_slice(), "{x} {complement}");
                assert!(eight_digits(u64::from_le_bytes(digits)));
                assert_eq!(parse8(&digits, complement), u64::from(x), "{x} {complement}");
            }
        }
    }

    #[test]
    fn eight_digits_rejects_every_other_byte_in_every_position() {
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut w = *b"12345678";
                w[pos] = b;
                assert_eq!(eight_digits(u64::from_le_bytes(w)), b.is_ascii_digit(), "{b:#x} at {pos}");
            }
        }
        assert!(!all_digits(b"0123456789x"));
        assert!(!all_digits(b"01234x6789"));
        assert!(all_digits(b"0123456789012345678"));
    }

    #[test]
    fn push_and_parse_every_width() {
        for width in 1..=39u32 {
            for v in [0u128, 1, 7, 99_999_999, 100_000_000, u64::MAX as u128, u128::MAX] {
                if !fits_digits(v, width) {
                    continue;
                }
                for complement in [false, true] {
                    let mut s = String::from("x");
                    push_digits(&mut s, v, width, complement);
                    let plain = format!("{v:0w$}", w = width as usize);
                    let expected: String =
                        plain.chars().map(|c| if complement { (b'9' + b'0' - c as u8) as char } else { c }).collect();
                    assert_eq!(&s[1..], expected, "{v} width {width} {complement}");
                    assert_eq!(parse_digits(&s.as_bytes()[1..], complement), Some(v));
                }
            }
        }
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
