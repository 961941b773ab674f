//! Integer segments: fixed-width zero-padded digits, nines' complement for `desc` and negatives.
//!
//! Unsigned `v` in width `w` is `w` digits, zero-padded; it fits when `v < 10^w`.
//! Signed `v >= 0` is `0` followed by `w-1` digits; `v < 0` is `-` followed by the nines'
//! complement of `|v|` in `w-1` digits, so every negative sorts before every non-negative
//! (`-` is 0x2D, `0` is 0x30) and larger magnitudes sort first. A signed value fits when
//! `|v| < 10^(w-1)`. `desc` complements every digit of an unsigned value and encodes `-v`
//! for a signed one. No step uses `format!`.

use crate::error::{DecodeError, EncodeError, EncodeErrorKind};
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

/// Two-digit groups, so that a `u64` is written with one division per two digits.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// The widest digit run any integer type uses.
const BUF: usize = 40;

/// Whether `v` fits in `digits` decimal digits.
#[inline]
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

/// Writes the digits of `v` right-aligned so that they end at `end`; positions before stay as they are.
#[inline]
fn write_u64(buf: &mut [u8; BUF], end: usize, mut v: u64) {
    let mut i = end;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        buf[i - 2..i].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else if v > 0 {
        buf[i - 1] = b'0' + v as u8;
    }
}

/// Appends `v` as exactly `width` digits (the caller checked that it fits), each digit `d`
/// replaced by `9 - d` when `complement` is set.
#[inline]
pub(crate) fn push_digits(out: &mut String, v: u128, width: u32, complement: bool) {
    let mut buf = [b'0'; BUF];
    let mut end = BUF;
    let mut rest = v;
    // Peel 19-digit chunks until the rest fits a u64, which is all a u64 field ever needs.
    while rest > u64::MAX as u128 {
        let chunk = (rest % POW10[19]) as u64;
        rest /= POW10[19];
        write_u64(&mut buf, end, chunk);
        end -= 19;
    }
    write_u64(&mut buf, end, rest as u64);
    let digits = &mut buf[BUF - width as usize..];
    if complement {
        for d in digits.iter_mut() {
            *d = b'9' + b'0' - *d;
        }
    }
    for &d in digits.iter() {
        out.push(d as char);
    }
}

/// Reads a run of ASCII digits (each `d` read as `9 - d` when `complement`), `None` on overflow.
#[inline]
pub(crate) fn parse_digits(digits: &[u8], complement: bool) -> Option<u128> {
    let digit = |b: u8| if complement { b'9' - b } else { b - b'0' };
    if digits.len() <= 19 {
        // 19 digits never overflow a u64.
        let mut v = 0u64;
        for &b in digits {
            v = v * 10 + digit(b) as u64;
        }
        return Some(v as u128);
    }
    let mut v = 0u128;
    for &b in digits {
        v = v.checked_mul(10)?.checked_add(digit(b) as u128)?;
    }
    Some(v)
}

/// Encodes an unsigned value.
#[inline]
pub(crate) fn encode_unsigned(v: u128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if let Some(max) = field.get_max()
        && v > max
    {
        return Err(field.encode_error(EncodeErrorKind::AboveMax { value: v.to_string(), max }));
    }
    let width = field.get_width();
    if !fits_digits(v, width) {
        return Err(too_wide(field, v.to_string(), width, false));
    }
    push_digits(out, v, width, field.is_desc());
    Ok(())
}

#[cold]
fn too_wide(field: &Field, value: String, width: u32, signed: bool) -> EncodeError {
    let digits = if signed { width.saturating_sub(1) } else { width };
    field.encode_error(EncodeErrorKind::TooWide { value, width, largest: largest(digits, signed) })
}

/// Encodes a signed value given as its sign and magnitude.
#[inline]
pub(crate) fn encode_signed(neg: bool, mag: u128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if let Some(max) = field.get_max()
        && !neg
        && mag > max
    {
        return Err(field.encode_error(EncodeErrorKind::AboveMax { value: mag.to_string(), max }));
    }
    let width = field.get_width();
    let digits = width.saturating_sub(1);
    if width == 0 || !fits_digits(mag, digits) {
        let value = if neg { format!("-{mag}") } else { mag.to_string() };
        return Err(too_wide(field, value, width, true));
    }
    // `desc` encodes -v; zero has no sign to flip.
    let neg = if field.is_desc() && mag != 0 { !neg } else { neg };
    out.push(if neg { '-' } else { '0' });
    push_digits(out, mag, digits, neg);
    Ok(())
}

/// Reads an unsigned segment and checks it against the type's largest value and the field's `max`.
#[inline]
pub(crate) fn decode_unsigned(
    cursor: &mut Cursor<'_>,
    field: &Field,
    type_name: &'static str,
    type_max: u128,
) -> Result<u128, DecodeError> {
    let start = cursor.position();
    let digits = cursor.take_digits(field.get_width() as usize, field)?;
    match parse_digits(digits, field.is_desc()) {
        Some(v) if v <= type_max => check_max(cursor, start, field, false, v).map(|()| v),
        _ => Err(does_not_fit(cursor, start, field, type_name)),
    }
}

/// Reads a signed segment as its sign and magnitude, with the type's bounds `(|MIN|, MAX)`.
#[inline]
pub(crate) fn decode_signed(
    cursor: &mut Cursor<'_>,
    field: &Field,
    type_name: &'static str,
    (type_min_mag, type_max): (u128, u128),
) -> Result<(bool, u128), DecodeError> {
    let start = cursor.position();
    let name = Some(field.name());
    let width = field.get_width() as usize;
    if width == 0 {
        return Err(cursor.error_here(name, "a signed segment of width at least 1", 1));
    }
    let neg = match cursor.rest().as_bytes().first() {
        Some(b'0') => false,
        Some(b'-') => true,
        _ => return Err(cursor.error_here(name, "`0` or `-` (the sign position)", width)),
    };
    cursor.skip_ascii_byte();
    let digits = cursor.take_digits(width - 1, field).map_err(|e| {
        cursor.error_at(e.offset(), name, format!("{} ASCII digits after the sign", width - 1), e.found().to_owned())
    })?;
    let Some(mag) = parse_digits(digits, neg) else {
        return Err(does_not_fit(cursor, start, field, type_name));
    };
    if neg && mag == 0 {
        let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
        return Err(cursor.error_at(
            start,
            name,
            "a negative number (`-` and all nines would be negative zero)",
            found,
        ));
    }
    let neg = if field.is_desc() && mag != 0 { !neg } else { neg };
    let bound = if neg { type_min_mag } else { type_max };
    if mag > bound {
        return Err(does_not_fit(cursor, start, field, type_name));
    }
    check_max(cursor, start, field, neg, mag)?;
    Ok((neg, mag))
}

fn check_max(cursor: &Cursor<'_>, start: usize, field: &Field, neg: bool, mag: u128) -> Result<(), DecodeError> {
    match field.get_max() {
        Some(max) if !neg && mag > max => {
            let found = format!("{:?} ({mag})", &cursor.key()[start..cursor.position()]);
            Err(cursor.error_at(start, Some(field.name()), format!("a value at most {max} (the field's max)"), found))
        }
        _ => Ok(()),
    }
}

#[cold]
fn does_not_fit(cursor: &Cursor<'_>, start: usize, field: &Field, type_name: &'static str) -> DecodeError {
    let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
    cursor.error_at(start, Some(field.name()), format!("a value that fits `{type_name}`"), found)
}

macro_rules! unsigned {
    ($($t:ty => $digits:expr),* $(,)?) => {$(
        impl KeySegment for $t {
            const WIDTH: Width = Width::Digits { default: $digits, min: 1, max: $digits, signed: false };
            const REVERSIBLE: bool = true;
            const MAX_VALUE: Option<u128> = Some(<$t>::MAX as u128);

            #[inline]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                encode_unsigned(*self as u128, field, out)
            }
        }

        impl<'k> DecodeSegment<'k> for $t {
            #[inline]
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

            #[inline]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                encode_signed(*self < 0, self.unsigned_abs() as u128, field, out)
            }
        }

        impl<'k> DecodeSegment<'k> for $t {
            #[inline]
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

    fn enc<T: KeySegment>(v: T, f: Field) -> Result<String, EncodeError> {
        let mut s = String::new();
        v.encode_segment(&f, &mut s).map(|()| s)
    }

    fn dec<T: for<'k> DecodeSegment<'k>>(s: &str, f: Field) -> Result<T, DecodeError> {
        let mut c = Cursor::new(s, "K");
        let v = T::decode_segment(&mut c, &f)?;
        c.expect_end()?;
        Ok(v)
    }

    const F: Field = Field::new("K", "f", '#');

    #[test]
    fn unsigned_pads_and_complements() {
        assert_eq!(enc(1500u64, F.width(10)).unwrap(), "0000001500");
        assert_eq!(enc(1500u64, F.width(10).desc()).unwrap(), "9999998499");
        assert_eq!(enc(u64::MAX, F.width(20)).unwrap(), "18446744073709551615");
        assert_eq!(enc(u128::MAX, F.width(39)).unwrap(), "340282366920938463463374607431768211455");
        assert_eq!(enc(0u8, F.width(3).desc()).unwrap(), "999");
    }

    #[test]
    fn signed_uses_sign_position() {
        assert_eq!(enc(5i32, F.width(4)).unwrap(), "0005");
        assert_eq!(enc(-5i32, F.width(4)).unwrap(), "-994");
        assert_eq!(enc(-999i32, F.width(4)).unwrap(), "-000");
        assert_eq!(enc(5i32, F.width(4).desc()).unwrap(), "-994");
        assert_eq!(enc(i8::MIN, F.width(4)).unwrap(), "-871");
        assert_eq!(enc(i128::MIN, F.width(40).desc()).unwrap(), "0170141183460469231731687303715884105728");
        assert!(enc(1000i32, F.width(4)).is_err());
        assert!(enc(-1000i32, F.width(4)).is_err());
    }

    #[test]
    fn decode_round_trips_edges() {
        assert_eq!(dec::<i128>("0170141183460469231731687303715884105728", F.width(40).desc()).unwrap(), i128::MIN);
        assert_eq!(dec::<i8>("-871", F.width(4)).unwrap(), i8::MIN);
        assert_eq!(dec::<u8>("999", F.width(3).desc()).unwrap(), 0);
        assert_eq!(dec::<u64>("18446744073709551615", F.width(20)).unwrap(), u64::MAX);
    }

    #[test]
    fn decode_rejects_non_canonical() {
        assert!(dec::<i32>("-999", F.width(4)).is_err(), "negative zero");
        assert!(dec::<i32>("+005", F.width(4)).is_err());
        assert!(dec::<i32>("1005", F.width(4)).is_err(), "first digit of a signed value is its sign");
        assert!(dec::<u8>("256", F.width(3)).is_err());
        assert!(dec::<u64>("18446744073709551616", F.width(20)).is_err());
        assert!(dec::<u8>(" 12", F.width(3)).is_err());
        assert!(dec::<u8>("١٢٣", F.width(3)).is_err());
        assert!(dec::<i8>("-870", F.width(4)).is_err(), "below i8::MIN");
        let e = dec::<u16>("5001", F.width(4).max(5000)).unwrap_err();
        assert_eq!(e.expected(), "a value at most 5000 (the field's max)");
    }

    #[test]
    fn max_is_checked_on_encode() {
        let e = enc(5001u16, F.width(4).max(5000)).unwrap_err();
        assert_eq!(e.kind(), &EncodeErrorKind::AboveMax { value: "5001".into(), max: 5000 });
        assert!(enc(-5001i16, F.width(5).max(5000)).is_ok(), "max bounds from above only");
    }
}
