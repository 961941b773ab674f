//! Decimal digit runs: zero padding, nines' complement, and the SWAR conversions that write
//! and read eight digits at a time. Knows nothing of fields or keys.

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
pub(crate) const BUF: usize = 40;

/// Whether `v` fits in `digits` decimal digits.
#[inline(always)]
pub(crate) fn fits_digits(v: u128, digits: u32) -> bool {
    digits as usize >= POW10.len() || v < POW10[digits as usize]
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

/// Appends `buf[..len]`, which is ASCII, as [`push_ascii`] does (the bytes after `len` must be
/// ASCII too: the whole constant-size array is checked, which is a few word compares).
#[inline(always)]
pub(crate) fn push_ascii_prefix<const N: usize>(out: &mut String, buf: &[u8; N], len: usize) {
    let before = out.len();
    push_ascii(out, buf, 0);
    out.truncate(before + len.min(N));
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
fn eight_digits(w: u64) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
