//! `rust_decimal::Decimal` (feature `rust_decimal`) as a fixed-point segment: the value times
//! `10^scale` (`#[key(scale = N)]`, 0 unless set) written as a signed integer, with the sign
//! position and nines' complement of the integer segments, so that it sorts by value and takes
//! `width`, `desc` and `max` as an `i128` would. `19.99` at scale 2, width 8 is `00001999`.
//!
//! A value with more fractional digits than `scale` is an encode error, never rounded; one that
//! does not fit the width is `TooWide`. Decoding gives the value at the field's scale (`19.9`
//! at scale 2 comes back as `19.90`, which is equal).

#![cfg(feature = "rust_decimal")]

use rust_decimal::Decimal;

use super::int::{decode_signed, encode_signed};
use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, DecodeSegment, KeySegment, SegmentOptions};
use crate::encoding::spec::{Field, Width};
use crate::error::{DecodeError, EncodeError, EncodeErrorKind};

/// The largest mantissa of a `Decimal`, `2^96 - 1`.
const MAX_MANTISSA: u128 = (1 << 96) - 1;

/// The scaled integer of `d` at `scale`, or why there is none.
fn scaled(d: &Decimal, scale: u32) -> Result<i128, EncodeErrorKind> {
    let (mantissa, own) = (d.mantissa(), d.scale());
    if own <= scale {
        let factor = 10i128.checked_pow(scale - own);
        return factor.and_then(|f| mantissa.checked_mul(f)).ok_or_else(|| EncodeErrorKind::TooWide {
            value: d.to_string(),
            width: 0,
            largest: "an i128".into(),
        });
    }
    // Dropping digits is allowed only when they are zeros.
    let factor = 10i128.pow(own - scale);
    if mantissa % factor != 0 {
        return Err(EncodeErrorKind::TooPrecise { value: d.to_string(), scale });
    }
    Ok(mantissa / factor)
}

/// The largest magnitude `width` holds at `scale`, as the error shows it: `99.9 (and at least
/// -99.9)` for width 4, scale 1.
fn largest_at_scale(width: u32, scale: u32) -> String {
    let digits = width.saturating_sub(1) as usize;
    let nines = "9".repeat(digits);
    let text = match nines.len().checked_sub(scale as usize) {
        _ if scale == 0 => nines,
        Some(0) | None => format!("0.{}{nines}", "0".repeat(scale as usize - nines.len())),
        Some(point) => format!("{}.{}", &nines[..point], &nines[point..]),
    };
    format!("{text} (and at least -{text})")
}

// Hidden from the "other types that implement" lists, as the other optional features' impls are
// (see ids.rs), so that the pinned trybuild output holds under every set of features.
#[diagnostic::do_not_recommend]
impl KeySegment for Decimal {
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Decimal;
    // 29 digits hold every mantissa (`2^96 - 1` has 29), and a sign position.
    const WIDTH: Width = Width::Digits { default: 30, min: 2, max: 40, signed: true };
    const REVERSIBLE: bool = true;
    const MAX_VALUE: Option<u128> = None;
    const CAPABILITIES: Capabilities = Capabilities::PLAIN.with_options(SegmentOptions::Decimal);

    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        let v = scaled(self, field.scale()).map_err(|kind| field.encode_error(kind))?;
        encode_signed(v < 0, v.unsigned_abs(), field, out).map_err(|e| match e.kind() {
            // The message shows the decimal, not the scaled integer.
            EncodeErrorKind::TooWide { width, .. } => {
                let largest = largest_at_scale(*width, field.scale());
                let kind = EncodeErrorKind::TooWide { value: self.to_string(), width: *width, largest };
                field.encode_error(kind)
            }
            _ => e,
        })
    }
}

#[diagnostic::do_not_recommend]
impl<'k> DecodeSegment<'k> for Decimal {
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
        let start = cursor.position();
        let (neg, mag) = decode_signed(cursor, field, "Decimal", (MAX_MANTISSA, MAX_MANTISSA))?;
        let v = if neg { -(mag as i128) } else { mag as i128 };
        Decimal::try_from_i128_with_scale(v, field.scale()).map_err(|_| {
            let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
            let expected = format!("a value a `Decimal` holds at scale {} (at most 28)", field.scale());
            cursor.error_at(start, field, crate::error::DecodeErrorKind::OutOfRange, expected, found)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::segment::testing::{dec, enc};

    const F: Field = Field::new("K", "price", '#').with_width(8).with_scale(2);

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn scaled_integers_sort_as_the_values() {
        assert_eq!(enc(&d("19.99"), F).unwrap(), "00001999");
        assert_eq!(enc(&d("19.9"), F).unwrap(), "00001990");
        assert_eq!(enc(&d("-0.01"), F).unwrap(), "-9999998");
        assert_eq!(enc(&d("19.990"), F).unwrap(), "00001999", "trailing zeros are not precision");
        assert_eq!(dec::<Decimal>("00001999", F).unwrap(), d("19.99"));
        assert_eq!(dec::<Decimal>("00001990", F).unwrap().to_string(), "19.90");
        assert_eq!(enc(&d("1.5"), F.with_desc(true)).unwrap(), "-9999849");
    }

    #[test]
    fn too_precise_and_too_wide_are_errors() {
        let e = enc(&d("19.999"), F).unwrap_err();
        assert_eq!(e.kind(), &EncodeErrorKind::TooPrecise { value: "19.999".into(), scale: 2 });
        let e = enc(&d("100000"), F).unwrap_err();
        assert!(matches!(e.kind(), EncodeErrorKind::TooWide { value, .. } if value == "100000"), "{e}");
        assert!(e.to_string().ends_with("(expected at most 99999.99 (and at least -99999.99))"), "{e}");
        assert_eq!(largest_at_scale(2, 3), "0.009 (and at least -0.009)");
        assert_eq!(largest_at_scale(4, 3), "0.999 (and at least -0.999)");
        assert!(dec::<Decimal>("-9999999", F).is_err(), "negative zero");
    }
}
