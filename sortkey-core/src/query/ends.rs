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
}

/// The bounded type a segment layout describes, under `options` levels of `Option` (whose
/// least value is `None`), or `None` for a type without two ends the builder knows (text, floats,
/// identifiers, decimals, enums, nested keys, custom types).
pub(crate) fn bounded(segment: &SegmentLayout) -> Option<(Bounded, u32)> {
    match segment {
        SegmentLayout::Unsigned(bits) => Some((Bounded::Unsigned(*bits), 0)),
        SegmentLayout::Signed(bits) => Some((Bounded::Signed(*bits), 0)),
        SegmentLayout::Bool => Some((Bounded::Bool, 0)),
        SegmentLayout::Timestamp => Some((Bounded::Timestamp, 0)),
        SegmentLayout::Option(inner) => bounded(inner).map(|(b, options)| (b, options + 1)),
        _ => None,
    }
}

/// The least and the greatest encoding of a field of type `ty` under `options` levels of
/// `Option`, in byte order (a `desc` field's greatest value is its least encoding); `None` when
/// an end does not encode (a width or `max` no value fits).
pub(crate) fn encoded_ends(ty: Bounded, options: u32, field: &Field) -> Option<(String, String)> {
    let (mut low, mut high) = (String::new(), String::new());
    match ty {
        Bounded::Unsigned(bits) => {
            let greatest = below_max(field, unsigned_max(bits).min(digits_max(field.width())));
            0u128.encode_segment(field, &mut low).ok()?;
            greatest.encode_segment(field, &mut high).ok()?;
        }
        Bounded::Signed(bits) => {
            // One position of the width holds the sign.
            let magnitude = digits_max(field.width().saturating_sub(1));
            let type_max = unsigned_max(bits) >> 1;
            let least = -(i128::try_from(magnitude.min(type_max + 1)).ok()?);
            let greatest = i128::try_from(below_max(field, magnitude.min(type_max))).ok()?;
            least.encode_segment(field, &mut low).ok()?;
            greatest.encode_segment(field, &mut high).ok()?;
        }
        Bounded::Bool => {
            false.encode_segment(field, &mut low).ok()?;
            true.encode_segment(field, &mut high).ok()?;
        }
        Bounded::Timestamp => {
            let unit = field.time_unit();
            let in_range = MAX_NANOS / unit.nanos();
            let by_width = match field.time_format() {
                TimeFormat::Unix(_) => in_range.min(digits_max(field.width())),
                TimeFormat::Rfc3339(_) => in_range,
            };
            let last: SystemTime = instant(below_max(field, by_width) * unit.nanos())?;
            SystemTime::UNIX_EPOCH.encode_segment(field, &mut low).ok()?;
            last.encode_segment(field, &mut high).ok()?;
        }
    }
    if low > high {
        std::mem::swap(&mut low, &mut high);
    }
    if options > 0 {
        // `None` (`0`) is the least value of an option; the greatest is `Some` of the greatest
        // (`1` and its encoding), an option of an option as many times over.
        let tags = "1".repeat(options as usize);
        return Some(("0".to_owned(), format!("{tags}{high}")));
    }
    Some((low, high))
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
        encoded_ends(ty, 0, &field).unwrap()
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
        let ms = f.with_width(15).with_time(TimeFormat::Unix(TimeUnit::Millis));
        assert_eq!(ends(Bounded::Timestamp, ms), ("000000000000000".into(), "253402300799999".into()));
        let text = f.with_width(20).with_time(TimeFormat::Rfc3339(TimeUnit::Seconds));
        assert_eq!(ends(Bounded::Timestamp, text), ("1970-01-01T00:00:00Z".into(), "9999-12-31T23:59:59Z".into()));
        let opt = encoded_ends(Bounded::Unsigned(8), 1, &f.with_width(3)).unwrap();
        assert_eq!(opt, ("0".into(), "1255".into()));
    }
}
