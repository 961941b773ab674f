//! Float segments (`f32`, `f64`): byte order of the encodings is the order of `total_cmp`, and
//! decoding gives back the exact bits. NaN is an encode error; `-0.0` keeps its own place,
//! just below `0.0`, as in `total_cmp`.
//!
//! The readable form (the default) is a class letter, then for a finite non-zero value a
//! fixed-width biased decimal exponent and the shortest digits that round-trip:
//!
//! | value | encoding | example |
//! |---|---|---|
//! | `-inf` | `A` | `A` |
//! | negative | `M`, `999 - (e + 500)`, each digit `d` as `9 - d`, then `~` | `-1.5` is `M49984~` |
//! | `-0.0` | `N` | `N` |
//! | `0.0` | `O` | `O` |
//! | positive | `P`, `e + 500`, the digits | `1.5` is `P50015`, `1e300` is `P8001` |
//! | `inf` | `Z` | `Z` |
//!
//! (`f32`: a 2-digit exponent biased by 50.) `A < M < N < O < P < Z`; within `P` a larger
//! exponent is a larger number, and at equal exponents the digits compare as the decimal
//! fraction `0.d1d2...`, a shorter prefix first; within `M` both are complemented, and the `~`
//! (above every digit) puts `-1.55` (`M499844~`) before `-1.5` (`M49984~`). No encoding is a
//! prefix of another but by more digits, so a float may stand before a separator below `0`.
//!
//! `format = "hex"` writes the bits, with the sign bit flipped for a positive value and every
//! bit flipped for a negative one, as 16 (`f64`) or 8 (`f32`) lowercase hex digits: fixed
//! width, any position. `desc` encodes the negation, in both forms.

use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, DecodeSegment, KeySegment, SegmentOptions};
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// What the encodings need of `f32` and `f64`.
trait Float: Copy + PartialEq + ryu::Float + core::str::FromStr + core::ops::Neg<Output = Self> {
    /// Digits of the biased exponent.
    const EXP_DIGITS: usize;
    /// Added to the decimal exponent, so that every exponent is `1..10^EXP_DIGITS`.
    const BIAS: i32;
    /// The most digits a shortest round-trip representation has.
    const MAX_DIGITS: usize;
    /// Hex digits of the bits.
    const HEX_DIGITS: usize;
    const ZERO: Self;
    const NEG_INFINITY: Self;
    fn to_bits64(self) -> u64;
    fn from_bits64(bits: u64) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn abs(self) -> Self;
}

macro_rules! float {
    ($t:ty, $bits:ty, $exp:expr, $bias:expr, $max:expr) => {
        impl Float for $t {
            const EXP_DIGITS: usize = $exp;
            const BIAS: i32 = $bias;
            const MAX_DIGITS: usize = $max;
            const HEX_DIGITS: usize = 2 * core::mem::size_of::<$t>();
            const ZERO: Self = 0.0;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            fn to_bits64(self) -> u64 {
                u64::from(self.to_bits())
            }
            fn from_bits64(bits: u64) -> Self {
                <$t>::from_bits(bits as $bits)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
        }

        impl KeySegment for $t {
            const REVERSIBLE: bool = true;
            // Encodings that are prefixes of others continue with a digit.
            const CAPABILITIES: Capabilities =
                Capabilities::PLAIN.with_options(SegmentOptions::Float).with_least_byte(b'0');
            const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Float(std::mem::size_of::<$t>() as u32 * 8);

            #[inline]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                encode(*self, field, out)
            }
        }

        impl<'k> DecodeSegment<'k> for $t {
            #[inline]
            fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
                decode(cursor, field)
            }
        }
    };
}

float!(f64, u64, 3, 500, 17);
float!(f32, u32, 2, 50, 9);

/// The sign bit of a float of `hex_digits / 2` bytes, in the low bits of a `u64`.
fn sign_bit(hex_digits: usize) -> u64 {
    1 << (hex_digits * 4 - 1)
}

/// All bits of a float of `hex_digits / 2` bytes.
fn all_bits(hex_digits: usize) -> u64 {
    u64::MAX >> (64 - hex_digits * 4)
}

fn encode<F: Float>(v: F, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    if v.is_nan() {
        return Err(field.encode_error(EncodeErrorKind::NotANumber));
    }
    let v = if field.is_desc() { -v } else { v };
    if field.is_hex() {
        encode_hex(v, out);
    } else {
        encode_decimal(v, out);
    }
    Ok(())
}

fn encode_hex<F: Float>(v: F, out: &mut String) {
    let (n, bits) = (F::HEX_DIGITS, v.to_bits64());
    let ordered = if bits & sign_bit(n) == 0 { bits | sign_bit(n) } else { !bits & all_bits(n) };
    for i in (0..n).rev() {
        let d = ((ordered >> (4 * i)) & 0xF) as u32;
        out.push(char::from_digit(d, 16).unwrap_or('0'));
    }
}

/// The shortest round-trip digits of a finite, non-zero magnitude (no leading or trailing
/// zeros) and its decimal exponent: `v = 0.d1d2... * 10^(e + 1)`, `d1` not zero.
struct Digits {
    buf: [u8; 17],
    len: usize,
    exp: i32,
}

impl Digits {
    fn of<F: Float>(magnitude: F) -> Digits {
        let mut ryu = ryu::Buffer::new();
        let text = ryu.format_finite(magnitude).as_bytes();
        // ryu writes `1.5`, `0.001`, `123456.0`, `1e300` or `1.5e-7`: one pass collects the
        // significant digits, where the point was, and the exponent after `e`.
        let mut d = Digits { buf: [0; 17], len: 0, exp: 0 };
        let (mut leading, mut point, mut e) = (0i32, None, 0i32);
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'.' => point = Some(d.len as i32 + leading),
                b'e' => {
                    e = parse_exp(&text[i + 1..]);
                    break;
                }
                b'0' if d.len == 0 => leading += 1,
                b => {
                    if d.len < d.buf.len() {
                        d.buf[d.len] = b;
                        d.len += 1;
                    }
                }
            }
            i += 1;
        }
        while d.len > 1 && d.buf[d.len - 1] == b'0' {
            d.len -= 1;
        }
        let point = point.unwrap_or(d.len as i32 + leading);
        d.exp = point - leading - 1 + e;
        d
    }

    fn digits(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

fn parse_exp(text: &[u8]) -> i32 {
    let (neg, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let v = digits.iter().fold(0i32, |acc, &b| acc * 10 + i32::from(b - b'0'));
    if neg { -v } else { v }
}

fn encode_decimal<F: Float>(v: F, out: &mut String) {
    if v.is_infinite() {
        out.push(if v.is_sign_negative() { 'A' } else { 'Z' });
        return;
    }
    if v == F::ZERO {
        out.push(if v.is_sign_negative() { 'N' } else { 'O' });
        return;
    }
    let d = Digits::of(v.abs());
    let negative = v.is_sign_negative();
    // Class, exponent, at most 17 digits and `~`, written into one buffer and pushed at once.
    let mut buf = [b'0'; 24];
    buf[0] = if negative { b'M' } else { b'P' };
    let biased = d.exp + F::BIAS;
    let biased = if negative { 10i32.pow(F::EXP_DIGITS as u32) - 1 - biased } else { biased };
    let mut e = biased;
    for i in (1..=F::EXP_DIGITS).rev() {
        buf[i] = b'0' + (e % 10) as u8;
        e /= 10;
    }
    let mut len = 1 + F::EXP_DIGITS;
    for &b in d.digits() {
        buf[len] = if negative { b'9' - b + b'0' } else { b };
        len += 1;
    }
    if negative {
        buf[len] = b'~';
        len += 1;
    }
    crate::encoding::digits::push_ascii_prefix(out, &buf, len);
}

fn decode<F: Float>(cursor: &mut Cursor<'_>, field: &Field) -> Result<F, DecodeError> {
    let v: F = if field.is_hex() { decode_hex(cursor, field)? } else { decode_decimal(cursor, field)? };
    Ok(if field.is_desc() { -v } else { v })
}

fn decode_hex<F: Float>(cursor: &mut Cursor<'_>, field: &Field) -> Result<F, DecodeError> {
    let n = F::HEX_DIGITS;
    let start = cursor.position();
    let expected = if n == 16 { "16 lowercase hex digits" } else { "8 lowercase hex digits" };
    // A run of hex digits shorter or longer than the width, ending where the segment may end, is
    // a float of another width (`WrongWidth`); any other character in it is no hex digit.
    let rest = cursor.rest().as_bytes();
    let run = rest.iter().take(n + 1).take_while(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')).count();
    let ends = |b: Option<&u8>| b.is_none_or(|&b| b == field.sep_byte());
    if run > n {
        let found = format!("{:?}", &cursor.rest()[..n + 1]);
        let kind = DecodeErrorKind::WrongWidth;
        return Err(cursor.error_at(start + n, field, kind, "the end of the float after its hex digits", found));
    }
    if run < n && ends(rest.get(run)) {
        let found = format!("{:?}", &cursor.rest()[..run]);
        return Err(cursor.error_at(start, field, DecodeErrorKind::WrongWidth, expected, found));
    }
    let text = cursor.take_ascii(n, field, expected)?;
    let mut ordered = 0u64;
    for b in text.bytes() {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => {
                return Err(cursor.error_at(start, field, DecodeErrorKind::InvalidText, expected, format!("{text:?}")));
            }
        };
        ordered = ordered << 4 | u64::from(d);
    }
    let bits = if ordered & sign_bit(n) != 0 { ordered & !sign_bit(n) } else { !ordered & all_bits(n) };
    let v = F::from_bits64(bits);
    if v.is_nan() {
        // No float encodes to NaN bits (NaN is refused): not the one spelling of any value.
        return Err(cursor.error_at(
            start,
            field,
            DecodeErrorKind::NotCanonical,
            "the bits of a number, not of NaN",
            format!("{text:?}"),
        ));
    }
    Ok(v)
}

const CLASSES: &str = "a class letter: A (-inf), M (negative), N (-0.0), O (0.0), P (positive) or Z (inf)";

fn decode_decimal<F: Float>(cursor: &mut Cursor<'_>, field: &Field) -> Result<F, DecodeError> {
    let start = cursor.position();
    let class = cursor.rest().as_bytes().first().copied();
    let special = match class {
        Some(b'A') => Some(F::NEG_INFINITY),
        Some(b'N') => Some(-F::ZERO),
        Some(b'O') => Some(F::ZERO),
        Some(b'Z') => Some(-F::NEG_INFINITY),
        _ => None,
    };
    if let Some(v) = special {
        cursor.skip_ascii_byte();
        return Ok(v);
    }
    let negative = match class {
        Some(b'M') => true,
        Some(b'P') => false,
        _ => return Err(cursor.error_here(field, DecodeErrorKind::InvalidText, CLASSES, 1)),
    };
    cursor.skip_ascii_byte();
    let exp = cursor.take_digits(F::EXP_DIGITS, field)?;
    let run = cursor.rest().bytes().take_while(u8::is_ascii_digit).count();
    let digits = cursor.take_digits(run, field)?;
    // The digits end at the float's end: `~` for a negative one, the separator or the key's end
    // for a positive one. Any other character is no digit; a negative float's `~` left out is
    // malformed text.
    let next = cursor.rest().as_bytes().first().copied();
    let ends_here = next.is_none_or(|b| b == field.sep_byte());
    let ends_negative = negative && next == Some(b'~');
    if !(ends_here || ends_negative) {
        return Err(cursor.error_here(field, DecodeErrorKind::NotADigit, "a digit or the float's end", 1));
    }
    if negative {
        cursor.expect("~", DecodeErrorKind::InvalidText, Some(field.name()), "the end of a negative float,")?;
    }
    let found = || format!("{:?}", &cursor.key()[start..cursor.position()]);
    let plain = |b: u8| if negative { b'9' - b + b'0' } else { b };
    let (first, last) = (digits.first().map(|&b| plain(b)), digits.last().map(|&b| plain(b)));
    if digits.is_empty() || digits.len() > F::MAX_DIGITS || first == Some(b'0') || last == Some(b'0') {
        let expected = format!("the shortest digits of a float (1 to {}, no leading or trailing zero)", F::MAX_DIGITS);
        return Err(cursor.error_at(start, field, DecodeErrorKind::NotCanonical, expected, found()));
    }
    let biased = exp.iter().fold(0i32, |acc, &b| acc * 10 + i32::from(plain(b) - b'0'));
    let e = biased - F::BIAS;
    // `d1.d2d3...e<e>`, at most 17 digits, a point, `e`, a sign and 4 exponent digits.
    let mut text = [0u8; 32];
    let mut len = 0;
    for (i, &b) in digits.iter().enumerate() {
        if i == 1 {
            text[len] = b'.';
            len += 1;
        }
        text[len] = plain(b);
        len += 1;
    }
    text[len] = b'e';
    len += 1;
    if e < 0 {
        text[len] = b'-';
        len += 1;
    }
    let magnitude = e.unsigned_abs();
    for div in [100, 10, 1] {
        if magnitude >= div || div == 1 {
            text[len] = b'0' + (magnitude / div % 10) as u8;
            len += 1;
        }
    }
    let parsed = core::str::from_utf8(&text[..len]).ok().and_then(|t| t.parse::<F>().ok());
    // The value must be finite and non-zero, and its own shortest digits must be these.
    let canonical = parsed.filter(|&m| {
        if m.is_infinite() || m == F::ZERO {
            return false;
        }
        let again = Digits::of(m);
        again.exp == e && again.digits().iter().copied().eq(digits.iter().map(|&b| plain(b)))
    });
    match canonical {
        Some(m) => Ok(if negative { -m } else { m }),
        None => Err(cursor.error_at(
            start,
            field,
            DecodeErrorKind::NotCanonical,
            "the shortest digits of a finite, non-zero float",
            found(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::segment::testing::{dec, enc};

    const F: Field = Field::new("K", "x", '#').with_last(true);

    #[test]
    fn readable_form_examples() {
        let cases: [(f64, &str); 12] = [
            (1.5, "P50015"),
            (-1.5, "M49984~"),
            (-1.55, "M499844~"),
            (1e300, "P8001"),
            (0.001, "P4971"),
            (123456.0, "P505123456"),
            (0.0, "O"),
            (-0.0, "N"),
            (f64::INFINITY, "Z"),
            (f64::NEG_INFINITY, "A"),
            (f64::MIN_POSITIVE, "P19222250738585072014"),
            (5e-324, "P1765"),
        ];
        for (v, s) in cases {
            assert_eq!(enc(&v, F).unwrap(), s, "{v}");
            assert_eq!(dec::<f64>(s, F).unwrap().to_bits(), v.to_bits(), "{s}");
        }
        assert_eq!(enc(&1.5f32, F).unwrap(), "P5015");
    }

    #[test]
    fn nan_is_an_error_and_order_is_total_cmp() {
        assert_eq!(enc(&f64::NAN, F).unwrap_err().kind(), &EncodeErrorKind::NotANumber);
        let vs = [f64::NEG_INFINITY, -1e300, -1.5, -1.45, -1e-300, -0.0, 0.0, 1e-300, 1.45, 1.5, 1e300, f64::INFINITY];
        let encoded: Vec<String> = vs.iter().map(|v| enc(v, F).unwrap()).collect();
        assert!(encoded.windows(2).all(|w| w[0] < w[1]), "{encoded:?}");
        let desc: Vec<String> = vs.iter().map(|v| enc(v, F.with_desc(true)).unwrap()).collect();
        assert!(desc.windows(2).all(|w| w[0] > w[1]), "{desc:?}");
    }

    #[test]
    fn hex_form_is_ordered_bits() {
        let hex = F.with_hex(true);
        assert_eq!(enc(&1.5f64, hex).unwrap(), "bff8000000000000");
        assert_eq!(enc(&-1.5f64, hex).unwrap(), "4007ffffffffffff");
        assert_eq!(enc(&0.0f64, hex).unwrap(), "8000000000000000");
        assert_eq!(enc(&-0.0f64, hex).unwrap(), "7fffffffffffffff");
        assert_eq!(enc(&1.5f32, hex).unwrap(), "bfc00000");
        assert_eq!(dec::<f64>("bff8000000000000", hex).unwrap(), 1.5);
        assert!(dec::<f64>("BFF8000000000000", hex).is_err(), "upper case");
        assert!(dec::<f64>("fff8000000000000", hex).is_err(), "NaN bits");
    }

    #[test]
    fn decode_is_strict() {
        assert_eq!(dec::<f64>("P5001", F).unwrap(), 1.0);
        for bad in [
            "P500150",
            "P50001",
            "P5000",
            "P50015a",
            "M49984",
            "Q50015",
            "P5",
            "M49984~~",
            "P500",
            "P500123456789012345678",
        ] {
            assert!(dec::<f64>(bad, F).is_err(), "{bad}");
        }
        // Digits that are not the shortest ones of their value.
        assert_eq!(dec::<f64>("P50014999999999999999", F).unwrap_err().kind(), DecodeErrorKind::NotCanonical);
        // Out of range: the value would be infinite or zero.
        assert!(dec::<f64>("P9991", F).is_err());
        assert!(dec::<f64>("P0011", F).is_err());
    }
}
