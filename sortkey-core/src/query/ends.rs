//! The two ends of a field's range, encoded: the least and the greatest value its type, width
//! and `max` admit, written as the field writes them. A comparison past an end (`< least`,
//! `> greatest`) can match no key, which the query builder reports as
//! [`EmptyRange`](crate::QueryErrorKind::EmptyRange) rather than a condition that selects
//! nothing; the derived builder and the runtime layouts ask the same question here.

use std::time::SystemTime;

use crate::encoding::impls::time::{MAX_NANOS, instant};
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::{Field, TimeFormat};

/// A segment type with a least and a greatest value: what the ends are computed of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bounded {
    /// An unsigned integer of this many bits (`usize` as 0).
    Unsigned(u32),
    /// A signed integer of this many bits (`isize` as 0).
    Signed(u32),
    /// `bool`.
    Bool,
    /// A timestamp.
    Timestamp,
    /// A decimal: its value times `10^scale`, written as a signed integer whose magnitude is at
    /// most a `Decimal`'s mantissa, `2^96 - 1`.
    Decimal,
}

/// The largest mantissa of a `Decimal`, `2^96 - 1`: the largest magnitude a decimal field holds.
const DECIMAL_MAGNITUDE: u128 = (1 << 96) - 1;

/// The bounded type a segment layout describes, under `options` levels of `Option` (whose
/// least value is `None`), or `None` for a type without two ends the builder knows (text, floats,
/// identifiers, enums, nested keys, custom types).
pub(crate) fn bounded(segment: &SegmentLayout) -> Option<(Bounded, u32)> {
    match segment {
        SegmentLayout::Unsigned(bits) => Some((Bounded::Unsigned(*bits), 0)),
        SegmentLayout::Signed(bits) => Some((Bounded::Signed(*bits), 0)),
        SegmentLayout::Bool => Some((Bounded::Bool, 0)),
        SegmentLayout::Timestamp => Some((Bounded::Timestamp, 0)),
        SegmentLayout::Decimal => Some((Bounded::Decimal, 0)),
        SegmentLayout::Option(inner) => bounded(inner).map(|(b, options)| (b, options + 1)),
        _ => None,
    }
}

/// Which end of a field's encodings, in byte order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// The least encoding (of the least value, or of the greatest for a `desc` field).
    Least,
    /// The greatest encoding.
    Greatest,
}

/// Appends the `end` encoding of a field of type `ty` under `options` levels of `Option`, in
/// byte order, to `out`; `None` when that end does not encode (a width or `max` no value fits),
/// `out` then holding part of it. Only the one end asked for is written: a query asks for one,
/// for `<` or `>` alone, and writes it beside the value's encoding, without an allocation.
pub(crate) fn push_end(ty: Bounded, options: u32, field: &Field, end: End, out: &mut String) -> Option<()> {
    if options > 0 {
        // `None` (`0`) is the least value of an option (which is never `desc`); the greatest is
        // `Some` of the greatest (`1` and its encoding), an option of an option as many times over.
        if end == End::Least {
            out.push('0');
            return Some(());
        }
        out.extend(std::iter::repeat_n('1', options as usize));
    }
    // The least encoding is the least value's, unless the field reverses its order.
    let greatest_value = (end == End::Greatest) != field.is_desc();
    match ty {
        Bounded::Unsigned(bits) => {
            let greatest = below_max(field, unsigned_max(bits).min(digits_max(field.width())));
            (if greatest_value { greatest } else { 0 }).encode_segment(field, out).ok()?;
        }
        Bounded::Signed(bits) => {
            let type_max = unsigned_max(bits) >> 1;
            signed_end(field, greatest_value, (type_max, type_max + 1), out)?;
        }
        // A decimal is written as its scaled integer is: the ends are that integer's.
        Bounded::Decimal => signed_end(field, greatest_value, (DECIMAL_MAGNITUDE, DECIMAL_MAGNITUDE), out)?,
        Bounded::Bool => greatest_value.encode_segment(field, out).ok()?,
        Bounded::Timestamp => {
            let at = if greatest_value {
                let unit = field.time_unit();
                let in_range = MAX_NANOS / unit.nanos();
                let by_width = match field.time_format() {
                    TimeFormat::Unix(_) => in_range.min(digits_max(field.width())),
                    TimeFormat::Rfc3339(_) => in_range,
                };
                instant(below_max(field, by_width) * unit.nanos())?
            } else {
                SystemTime::UNIX_EPOCH
            };
            at.encode_segment(field, out).ok()?;
        }
    }
    Some(())
}

/// Appends the greatest (or least) signed integer the field holds, its type's magnitudes
/// `(greatest, least)` allowing: the width's digits but one (which holds the sign), and `max`.
fn signed_end(field: &Field, greatest_value: bool, (greatest, least): (u128, u128), out: &mut String) -> Option<()> {
    let magnitude = digits_max(field.width().saturating_sub(1));
    let v = if greatest_value {
        i128::try_from(below_max(field, magnitude.min(greatest))).ok()?
    } else {
        -(i128::try_from(magnitude.min(least)).ok()?)
    };
    v.encode_segment(field, out).ok()
}

/// `v`, or the field's `max` when that is lower.
fn below_max(field: &Field, v: u128) -> u128 {
    field.max().map_or(v, |m| v.min(m))
}

/// The largest value of an unsigned integer of `bits` bits (`usize`'s for 0).
pub(crate) fn unsigned_max(bits: u32) -> u128 {
    match bits {
        0 => usize::MAX as u128,
        128 => u128::MAX,
        b => (1u128 << b) - 1,
    }
}

/// `10^width - 1`, the largest number of `width` digits (`u128::MAX` when that is beyond it).
pub(crate) fn digits_max(width: u32) -> u128 {
    10u128.checked_pow(width).map_or(u128::MAX, |p| p - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::spec::TimeUnit;

    fn ends(ty: Bounded, field: Field) -> (String, String) {
        let end = |e| {
            let mut out = String::new();
            push_end(ty, 0, &field, e, &mut out).unwrap();
            out
        };
        (end(End::Least), end(End::Greatest))
    }

    #[test]
    fn the_ends_are_the_least_and_greatest_values_written() {
        let f = Field::new("K", "a", '#');
        assert_eq!(ends(Bounded::Unsigned(8), f.with_width(3)), ("000".into(), "255".into()));
        assert_eq!(
            ends(Bounded::Unsigned(32), f.with_width(10).with_max(Some(500_000))),
            ("0000000000".into(), "0000500000".into())
        );
        assert_eq!(
            ends(Bounded::Unsigned(64), f.with_width(10).with_desc(true)),
            ("0000000000".into(), "9999999999".into())
        );
        assert_eq!(ends(Bounded::Unsigned(8), f.with_width(2).with_desc(true)), ("00".into(), "99".into()));
        assert_eq!(ends(Bounded::Signed(8), f.with_width(4)), ("-871".into(), "0127".into()));
        assert_eq!(ends(Bounded::Bool, f.with_width(1)), ("0".into(), "1".into()));
        // A decimal's are its scaled integer's: -999999999.99 and 999999999.99 at scale 2.
        assert_eq!(
            ends(Bounded::Decimal, f.with_width(12).with_scale(2)),
            ("-00000000000".into(), "099999999999".into())
        );
        // Past the mantissa's 29 digits, the mantissa's magnitude.
        let (least, greatest) = ends(Bounded::Decimal, f.with_width(40));
        assert_eq!(greatest, format!("{:040}", (1u128 << 96) - 1));
        assert!(least.starts_with('-') && least.len() == 40, "{least}");
        let ms = f.with_width(15).with_time(TimeFormat::Unix(TimeUnit::Millis));
        assert_eq!(ends(Bounded::Timestamp, ms), ("000000000000000".into(), "253402300799999".into()));
        let text = f.with_width(20).with_time(TimeFormat::Rfc3339(TimeUnit::Seconds));
        assert_eq!(ends(Bounded::Timestamp, text), ("1970-01-01T00:00:00Z".into(), "9999-12-31T23:59:59Z".into()));
        let opt = |e| {
            let mut out = String::new();
            push_end(Bounded::Unsigned(8), 2, &f.with_width(3), e, &mut out).unwrap();
            out
        };
        assert_eq!((opt(End::Least), opt(End::Greatest)), ("0".into(), "11255".into()));
    }
}
