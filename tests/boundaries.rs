//! Exhaustive boundaries of the key format: every width of `u128` (1..=39) and `i128`
//! (2..=40) both ways, the default width of every integer type, `max`, the length limits and
//! the empty key. Expected keys come from a reference encoder written here with `format!`.

use std::fmt::Debug;

use sortkey_core::{DecodeKey, EncodeErrorKind, KeyCondition, KeyRole, QueryErrorKind, SortKey};

/// `x` with every digit `d` replaced by `9 - d`.
fn complement(digits: &str) -> String {
    digits.bytes().map(|b| char::from(b'9' - b + b'0')).collect()
}

/// The format table for unsigned: `width` digits, zero-padded; complemented for `desc`.
fn reference_unsigned(v: u128, width: u32, desc: bool) -> String {
    let digits = format!("{v:0w$}", w = width as usize);
    if desc { complement(&digits) } else { digits }
}

/// The format table for signed: `0` and `width - 1` digits, or `-` and the nines' complement
/// of the magnitude; `desc` encodes `-v`.
fn reference_signed(v: i128, width: u32, desc: bool) -> String {
    let neg = (v < 0) != (desc && v != 0);
    let digits = format!("{:0w$}", v.unsigned_abs(), w = width as usize - 1);
    if neg { format!("-{}", complement(&digits)) } else { format!("0{digits}") }
}

/// `10^exp`, `None` past `u128`.
fn pow10(exp: u32) -> Option<u128> {
    10u128.checked_pow(exp)
}

trait Key: SortKey + for<'k> DecodeKey<'k> + Debug + PartialEq {}
impl<T: SortKey + for<'k> DecodeKey<'k> + Debug + PartialEq> Key for T {}

/// `value` encodes to `expected`, which is `width` long, and decodes back.
fn fits<T: Key>(value: T, expected: &str, width: u32) {
    let key = value.encode().unwrap_or_else(|e| panic!("{value:?}: {e}"));
    assert_eq!(key, expected, "{value:?}");
    assert_eq!(key.len(), width as usize, "{key:?}");
    assert_eq!(T::ENCODED_LEN, Some(width as usize));
    assert_eq!(T::decode(&key).as_ref(), Ok(&value), "{key:?}");
}

/// `value` is a `TooWide` error naming field `v`, with the value and the width.
fn too_wide<T: Key>(value: T, shown: String, width: u32) {
    let mut buf = String::from("before");
    let err = value.encode_into(&mut buf).expect_err(&shown);
    assert_eq!(buf, "before", "nothing is written");
    assert_eq!(err.field(), Some("v"));
    match err.kind() {
        EncodeErrorKind::TooWide { value, width: w, .. } => assert_eq!((value, *w), (&shown, width)),
        other => panic!("{shown} at width {width}: expected TooWide, got {other:?}"),
    }
}

/// The largest `u128` of `width` digits fits, the next is too wide (width 39 has no next).
fn check_unsigned<T: Key>(width: u32, desc: bool, make: fn(u128) -> T) {
    let largest = pow10(width).map_or(u128::MAX, |p| p - 1);
    fits(make(largest), &reference_unsigned(largest, width, desc), width);
    fits(make(0), &reference_unsigned(0, width, desc), width);
    match pow10(width) {
        Some(next) => too_wide(make(next), next.to_string(), width),
        // 10^39 - 1 > u128::MAX: every u128 fits width 39 and there is no next value.
        None => assert_eq!((width, largest), (39, u128::MAX)),
    }
}

/// The largest and smallest `i128` of `width` characters fit, the next ones on both sides are
/// too wide (width 40 holds every `i128`: there is no next value).
fn check_signed<T: Key>(width: u32, desc: bool, make: fn(i128) -> T) {
    let (largest, smallest) = match pow10(width - 1).and_then(|p| i128::try_from(p - 1).ok()) {
        Some(m) => (m, -m),
        None => (i128::MAX, i128::MIN),
    };
    for v in [largest, smallest, 0, 1, -1] {
        fits(make(v), &reference_signed(v, width, desc), width);
    }
    match pow10(width - 1).and_then(|p| i128::try_from(p).ok()) {
        Some(next) => {
            too_wide(make(next), next.to_string(), width);
            too_wide(make(-next), format!("-{next}"), width);
        }
        None => assert_eq!((width, largest, smallest), (40, i128::MAX, i128::MIN)),
    }
}

macro_rules! unsigned_widths {
    ($($module:ident = $width:literal),* $(,)?) => {$(
        mod $module {
            use super::*;

            #[derive(SortKey, Debug, PartialEq)]
            struct Asc {
                #[key(width = $width)]
                v: u128,
            }

            #[derive(SortKey, Debug, PartialEq)]
            struct Desc {
                #[key(width = $width, desc)]
                v: u128,
            }

            #[test]
            fn asc() {
                check_unsigned($width, false, |v| Asc { v });
            }

            #[test]
            fn desc() {
                check_unsigned($width, true, |v| Desc { v });
            }
        }
    )*};
}

macro_rules! signed_widths {
    ($($module:ident = $width:literal),* $(,)?) => {$(
        mod $module {
            use super::*;

            #[derive(SortKey, Debug, PartialEq)]
            struct Asc {
                #[key(width = $width)]
                v: i128,
            }

            #[derive(SortKey, Debug, PartialEq)]
            struct Desc {
                #[key(width = $width, desc)]
                v: i128,
            }

            #[test]
            fn asc() {
                check_signed($width, false, |v| Asc { v });
            }

            #[test]
            fn desc() {
                check_signed($width, true, |v| Desc { v });
            }
        }
    )*};
}

mod unsigned {
    use super::*;

    unsigned_widths! {
        w01 = 1, w02 = 2, w03 = 3, w04 = 4, w05 = 5, w06 = 6, w07 = 7, w08 = 8, w09 = 9, w10 = 10,
        w11 = 11, w12 = 12, w13 = 13, w14 = 14, w15 = 15, w16 = 16, w17 = 17, w18 = 18, w19 = 19, w20 = 20,
        w21 = 21, w22 = 22, w23 = 23, w24 = 24, w25 = 25, w26 = 26, w27 = 27, w28 = 28, w29 = 29, w30 = 30,
        w31 = 31, w32 = 32, w33 = 33, w34 = 34, w35 = 35, w36 = 36, w37 = 37, w38 = 38, w39 = 39,
    }
}

mod signed {
    use super::*;

    signed_widths! {
        w02 = 2, w03 = 3, w04 = 4, w05 = 5, w06 = 6, w07 = 7, w08 = 8, w09 = 9, w10 = 10,
        w11 = 11, w12 = 12, w13 = 13, w14 = 14, w15 = 15, w16 = 16, w17 = 17, w18 = 18, w19 = 19, w20 = 20,
        w21 = 21, w22 = 22, w23 = 23, w24 = 24, w25 = 25, w26 = 26, w27 = 27, w28 = 28, w29 = 29, w30 = 30,
        w31 = 31, w32 = 32, w33 = 33, w34 = 34, w35 = 35, w36 = 36, w37 = 37, w38 = 38, w39 = 39, w40 = 40,
    }
}

/// Every integer type at its default width.
#[derive(SortKey, Debug, PartialEq)]
struct Defaults {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: usize,
    g: i8,
    h: i16,
    i: i32,
    j: i64,
    k: i128,
    l: isize,
}

/// The same, descending.
#[derive(SortKey, Debug, PartialEq)]
struct DefaultsDesc {
    #[key(desc)]
    a: u8,
    #[key(desc)]
    b: u16,
    #[key(desc)]
    c: u32,
    #[key(desc)]
    d: u64,
    #[key(desc)]
    e: u128,
    #[key(desc)]
    f: usize,
    #[key(desc)]
    g: i8,
    #[key(desc)]
    h: i16,
    #[key(desc)]
    i: i32,
    #[key(desc)]
    j: i64,
    #[key(desc)]
    k: i128,
    #[key(desc)]
    l: isize,
}

const DEFAULT_WIDTHS: [u32; 12] = [3, 5, 10, 20, 39, 20, 4, 6, 11, 20, 40, 20];

/// The reference key of a `Defaults` value given as (unsigned, signed) halves.
fn reference_defaults(unsigned: [u128; 6], signed: [i128; 6], desc: bool) -> String {
    let (uw, iw) = DEFAULT_WIDTHS.split_at(6);
    let u = unsigned.iter().zip(uw).map(|(&v, &w)| reference_unsigned(v, w, desc));
    let i = signed.iter().zip(iw).map(|(&v, &w)| reference_signed(v, w, desc));
    u.chain(i).collect::<Vec<_>>().join("#")
}

macro_rules! defaults_of {
    ($ty:ident, $bound:ident) => {
        $ty {
            a: u8::$bound,
            b: u16::$bound,
            c: u32::$bound,
            d: u64::$bound,
            e: u128::$bound,
            f: usize::$bound,
            g: i8::$bound,
            h: i16::$bound,
            i: i32::$bound,
            j: i64::$bound,
            k: i128::$bound,
            l: isize::$bound,
        }
    };
}

fn check_defaults<T: Key>(value: T, unsigned: [u128; 6], signed: [i128; 6], desc: bool) {
    let key = value.encode().unwrap_or_else(|e| panic!("{value:?}: {e}"));
    assert_eq!(key, reference_defaults(unsigned, signed, desc));
    let widths: Vec<u32> = key.split('#').map(|s| s.len() as u32).collect();
    assert_eq!(widths, DEFAULT_WIDTHS);
    let total = DEFAULT_WIDTHS.iter().sum::<u32>() as usize + 11;
    assert_eq!(T::ENCODED_LEN, Some(total));
    assert_eq!(T::decode(&key).as_ref(), Ok(&value), "{key:?}");
}

#[test]
fn default_widths_hold_max_of_every_type() {
    let unsigned = [u8::MAX.into(), u16::MAX.into(), u32::MAX.into(), u64::MAX.into(), u128::MAX, usize::MAX as u128];
    let signed = [i8::MAX.into(), i16::MAX.into(), i32::MAX.into(), i64::MAX.into(), i128::MAX, isize::MAX as i128];
    check_defaults(defaults_of!(Defaults, MAX), unsigned, signed, false);
    check_defaults(defaults_of!(DefaultsDesc, MAX), unsigned, signed, true);
}

#[test]
fn default_widths_hold_min_of_every_type() {
    let signed = [i8::MIN.into(), i16::MIN.into(), i32::MIN.into(), i64::MIN.into(), i128::MIN, isize::MIN as i128];
    check_defaults(defaults_of!(Defaults, MIN), [0; 6], signed, false);
    check_defaults(defaults_of!(DefaultsDesc, MIN), [0; 6], signed, true);
}

#[test]
fn default_widths_spell_min_and_max() {
    let max = defaults_of!(Defaults, MAX).encode().unwrap();
    assert!(max.starts_with("255#65535#4294967295#18446744073709551615#"), "{max}");
    assert!(max.ends_with("#0127#032767#02147483647#09223372036854775807#0170141183460469231731687303715884105727#09223372036854775807"), "{max}");
    let min = defaults_of!(Defaults, MIN).encode().unwrap();
    assert!(min.ends_with("#-871#-67231#-7852516351#-0776627963145224191#-829858816539530768268312696284115894271#-0776627963145224191"), "{min}");
}

/// `max` on unsigned, signed and desc fields.
#[derive(SortKey, Debug, PartialEq)]
struct CappedU {
    #[key(width = 4, max = 5000)]
    v: u16,
}

#[derive(SortKey, Debug, PartialEq)]
struct CappedI {
    #[key(max = 100)]
    v: i16,
}

#[derive(SortKey, Debug, PartialEq)]
struct CappedDesc {
    #[key(width = 3, desc, max = 500)]
    v: u16,
}

fn above_max<T: Key>(value: T, shown: &str, max: u128) {
    let err = value.encode().expect_err(shown);
    assert_eq!(err.field(), Some("v"));
    assert_eq!(err.kind(), &EncodeErrorKind::AboveMax { value: shown.into(), max });
}

/// Decoding `key` fails in field `v` at byte 0.
fn rejects<T: Key>(key: &str) {
    let err = T::decode(key).expect_err(key);
    assert_eq!((err.field(), err.offset()), (Some("v"), 0), "{key:?}: {err}");
}

#[test]
fn max_is_the_largest_value_on_both_sides() {
    fits(CappedU { v: 5000 }, "5000", 4);
    above_max(CappedU { v: 5001 }, "5001", 5000);
    rejects::<CappedU>("5001");
    rejects::<CappedU>("9999");

    fits(CappedI { v: 100 }, "000100", 6);
    fits(CappedI { v: i16::MIN }, "-67231", 6);
    above_max(CappedI { v: 101 }, "101", 100);
    rejects::<CappedI>("000101");

    fits(CappedDesc { v: 500 }, "499", 3);
    fits(CappedDesc { v: 0 }, "999", 3);
    above_max(CappedDesc { v: 501 }, "501", 500);
    rejects::<CappedDesc>("498");
    rejects::<CappedDesc>("000");
}

/// A prefix and one text: the text may have `1024 - "P#".len()` bytes.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "P")]
struct Long {
    text: String,
}

/// A partition key: 2048 bytes.
#[derive(SortKey, Debug, PartialEq)]
#[key(partition)]
struct Partition {
    text: String,
}

/// One text and nothing else: the only way to an empty key.
#[derive(SortKey, Debug, PartialEq)]
struct Bare {
    text: String,
}

fn too_long<T: Key>(value: T, len: usize, max_len: usize) {
    let mut buf = String::from("kept");
    let err = value.encode_into(&mut buf).expect_err("too long");
    assert_eq!(buf, "kept");
    assert_eq!(err.field(), None, "the key as a whole is too long");
    assert_eq!(err.kind(), &EncodeErrorKind::TooLong { len, max_len });
}

#[test]
fn sort_keys_hold_1024_bytes() {
    assert_eq!(Long::MAX_LEN, 1024);
    let ok = Long { text: "x".repeat(1022) };
    let key = ok.encode().unwrap();
    assert_eq!(key.len(), 1024);
    assert_eq!(Long::decode(&key).unwrap(), ok);
    too_long(Long { text: "x".repeat(1023) }, 1025, 1024);
    // Bytes, not characters: 511 two-byte characters fill it.
    assert_eq!(Long { text: "é".repeat(511) }.encode().unwrap().len(), 1024);
    too_long(Long { text: "é".repeat(511) + "x" }, 1025, 1024);
    let err = Long::decode(&format!("P#{}", "x".repeat(1023))).unwrap_err();
    assert_eq!((err.field(), err.offset()), (None, 1024), "{err}");
}

#[test]
fn partition_keys_hold_2048_bytes() {
    assert_eq!(Partition::MAX_LEN, 2048);
    let ok = Partition { text: "x".repeat(2048) };
    assert_eq!(Partition::decode(&ok.encode().unwrap()).unwrap(), ok);
    too_long(Partition { text: "x".repeat(2049) }, 2049, 2048);
    assert!(Partition::decode(&"x".repeat(2049)).is_err());
    too_long(Bare { text: "x".repeat(1025) }, 1025, 1024);
    assert!(Bare::decode(&"x".repeat(1025)).is_err(), "a sort key type rejects what only a partition key holds");
    assert_eq!((Partition::ROLE, Long::ROLE), (KeyRole::Partition, KeyRole::Sort));
}

/// The `=` value of a partition key may have 2048 bytes, DynamoDB's limit, not a sort key's 1024.
#[test]
fn partition_key_equality_holds_2048_bytes() {
    let text = "x".repeat(1500);
    let cond = Partition::query().text(&text).eq().unwrap();
    assert_eq!(cond, KeyCondition::Eq(text));
    let full = "y".repeat(2048);
    assert_eq!(Partition::query().text(&full).eq().unwrap(), KeyCondition::Eq(full));
    let err = Partition::query().text(&"z".repeat(2049)).eq().unwrap_err();
    assert_eq!(err.kind(), &QueryErrorKind::Encode(EncodeErrorKind::TooLong { len: 2049, max_len: 2048 }));
}

#[test]
fn an_empty_key_is_an_error() {
    let mut buf = String::from("kept");
    let err = Bare { text: String::new() }.encode_into(&mut buf).unwrap_err();
    assert_eq!(buf, "kept");
    assert_eq!((err.field(), err.kind()), (None, &EncodeErrorKind::Empty));
    let err = Bare::decode("").unwrap_err();
    assert_eq!((err.field(), err.offset()), (None, 0), "{err}");
    // With a prefix an empty text still leaves a key.
    assert_eq!(Long { text: String::new() }.encode().unwrap(), "P#");
    assert_eq!(Long::decode("P#").unwrap(), Long { text: String::new() });
}
