//! Timestamp segments: an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z,
//! truncated to the field's unit, written as zero-padded Unix time or as fixed-width RFC 3339 UTC text.
//!
//! Both forms sort by the instant, and every instant of the range encodes. Instants before
//! 1970 or after 9999 are an [`EncodeError`]; a key that names one does not decode. Precision
//! below the unit is cut off toward the past, on every path alike: `encode`, the query
//! builder's bounds and therefore what comes back from `decode` (which is exact: a decoded
//! instant encodes back to the same key).

use std::time::{Duration, SystemTime};

use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, DecodeSegment, KeySegment, SegmentOptions};
use crate::encoding::spec::{Field, TimeFormat, TimeUnit, Width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

pub(crate) const MAX_NANOS: u128 = 253_402_300_799_999_999_999;
const RANGE: &str = "an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z";
const NANOS_PER_SEC: u128 = 1_000_000_000;

/// Checks the range, truncates to the unit and writes the instant `nanos` (since the epoch).
fn encode_time(nanos: i128, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    let Ok(n) = u128::try_from(nanos) else {
        return Err(out_of_range(field, format!("{}ns before 1970-01-01T00:00:00Z", nanos.unsigned_abs())));
    };
    if n > MAX_NANOS {
        return Err(out_of_range(field, format!("{n}ns after 1970-01-01T00:00:00Z, which is after year 9999")));
    }
    let unit = field.time_unit();
    let v = n / unit.nanos();
    match field.time_format() {
        TimeFormat::Unix(_) => v.encode_segment(field, out),
        TimeFormat::Rfc3339(_) => {
            push_rfc3339(out, v * unit.nanos(), unit);
            Ok(())
        }
    }
}

#[cold]
fn out_of_range(field: &Field, found: String) -> EncodeError {
    field.encode_error(EncodeErrorKind::OutOfRange { value: found, range: RANGE })
}

/// Reads a timestamp segment as nanoseconds since the epoch.
fn decode_time(cursor: &mut Cursor<'_>, field: &Field) -> Result<u128, DecodeError> {
    let start = cursor.position();
    let unit = field.time_unit();
    let nanos = match field.time_format() {
        TimeFormat::Unix(_) => {
            let v = <u128 as DecodeSegment<'_>>::decode_segment(cursor, field)?;
            v.checked_mul(unit.nanos()).filter(|&n| n <= MAX_NANOS)
        }
        TimeFormat::Rfc3339(_) => {
            let width = field.width() as usize;
            let text = cursor.take_ascii(width, field, "RFC 3339 UTC text such as 2024-06-23T00:00:00Z")?;
            // Well-formed text of an instant before 1970 is out of range, as its count would be.
            match parse_rfc3339(text, unit) {
                Some(nanos) => Some(nanos),
                None if before_1970(text, unit) => None,
                None => return Err(bad_rfc3339(cursor, start, field, text)),
            }
        }
    };
    nanos.ok_or_else(|| {
        let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
        let expected = format!("{RANGE} in unit {:?}", unit.name());
        cursor.error_at(start, field, DecodeErrorKind::OutOfRange, expected, found)
    })
}

/// Whether `text` is well-formed RFC 3339 UTC text of `unit` whose year is before 1970: the same
/// text in a year from 1970 on with the same February reads.
#[cold]
fn before_1970(text: &str, unit: TimeUnit) -> bool {
    let Some(year) = text.get(..4).filter(|y| y.bytes().all(|b| b.is_ascii_digit())) else { return false };
    let year: i64 = year.parse().unwrap_or(1970);
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let again = format!("{}{}", if leap { "2000" } else { "2001" }, &text[4..]);
    year < 1970 && parse_rfc3339(&again, unit).is_some()
}

#[cold]
fn bad_rfc3339(cursor: &Cursor<'_>, start: usize, field: &Field, text: &str) -> DecodeError {
    let expected = match field.time_unit().fraction_digits() {
        0 => "RFC 3339 UTC text YYYY-MM-DDTHH:MM:SSZ with a valid date and time".to_owned(),
        d => format!("RFC 3339 UTC text YYYY-MM-DDTHH:MM:SS.{}Z with a valid date and time", "f".repeat(d as usize)),
    };
    cursor.error_at(start, field, DecodeErrorKind::InvalidText, expected, format!("{text:?}"))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // Both casts are exact: 1 <= d <= 31 and 1 <= m <= 12.
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Writes `nanos` (within the range, a multiple of the unit) as RFC 3339 UTC text.
pub(crate) fn push_rfc3339(out: &mut String, nanos: u128, unit: TimeUnit) {
    use std::fmt::Write as _;
    // Within the range the seconds fit an i64 and the days an i64.
    let secs = (nanos / NANOS_PER_SEC) as i64;
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    let (h, mi, s) = (sod / 3600, sod / 60 % 60, sod % 60);
    // Writing to a String cannot fail.
    let _ = write!(out, "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}");
    let digits = unit.fraction_digits() as usize;
    if digits > 0 {
        let frac = nanos % NANOS_PER_SEC / unit.nanos();
        let _ = write!(out, ".{frac:0digits$}");
    }
    out.push('Z');
}

/// Parses exactly the text [`push_rfc3339`] writes; `None` for anything else.
pub(crate) fn parse_rfc3339(text: &str, unit: TimeUnit) -> Option<u128> {
    let b = text.as_bytes();
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        let digits = b.get(range)?;
        digits.iter().try_fold(0u32, |acc, &c| c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0')))
    };
    let punct = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if !punct.iter().all(|&(i, c)| b.get(i) == Some(&c)) || b.last() != Some(&b'Z') {
        return None;
    }
    let (y, mo, d) = (i64::from(num(0..4)?), num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let date_ok = (1..=12).contains(&mo) && d >= 1 && d <= days_in_month(y, mo);
    if !date_ok || h > 23 || mi > 59 || s > 59 || y < 1970 {
        return None;
    }
    let digits = unit.fraction_digits() as usize;
    let frac = match digits {
        0 if b.len() == 20 => 0,
        0 => return None,
        _ if b.len() == 21 + digits && b[19] == b'.' => num(20..20 + digits)?,
        _ => return None,
    };
    let secs = days_from_civil(y, mo, d) * 86_400 + i64::from(h * 3600 + mi * 60 + s);
    let secs = u128::try_from(secs).ok()?;
    Some(secs * NANOS_PER_SEC + u128::from(frac) * unit.nanos())
}

/// RFC 3339 UTC text `YYYY-MM-DDTHH:MM:SS[.f...]Z` with no fraction or one of 1 to 9 digits
/// (what a person or another program writes, `...56.5Z` too) as nanoseconds since the epoch;
/// `None` for anything else.
pub(crate) fn parse_rfc3339_any(text: &str) -> Option<u128> {
    let seconds = text.get(..19)?;
    let fraction = match text.get(19..)? {
        "Z" => 0,
        rest => {
            let digits = rest.strip_prefix('.')?.strip_suffix('Z')?;
            if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            // At most 9 digits: the value and the scale fit.
            digits.parse::<u128>().ok()? * 10u128.pow(9 - digits.len() as u32)
        }
    };
    let mut whole = String::with_capacity(20);
    whole.push_str(seconds);
    whole.push('Z');
    Some(parse_rfc3339(&whole, TimeUnit::Seconds)? + fraction)
}

/// A timestamp type: how to get its nanoseconds since the epoch and back.
macro_rules! timestamp_segment {
    ($(#[$doc:meta])* $(@ #[$hide:meta])* $ty:ty, |$v:ident| $to:expr, |$n:ident| $from:expr) => {
        $(#[$doc])*
        $(#[$hide])*
        impl KeySegment for $ty {
            const WIDTH: Width = Width::Digits { default: 12, min: 1, max: 40, signed: false };
            const REVERSIBLE: bool = true;
            const MAX_VALUE: Option<u128> = None;
            const CAPABILITIES: Capabilities = Capabilities::PLAIN.with_options(SegmentOptions::Time);
            const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Timestamp;

            #[inline]
            fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
                let $v = self;
                encode_time($to, field, out)
            }
        }

        $(#[$hide])*
        impl<'k> DecodeSegment<'k> for $ty {
            fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
                let start = cursor.position();
                let $n = decode_time(cursor, field)?;
                let value: Option<$ty> = $from;
                value.ok_or_else(|| {
                    let found = format!("{:?}", &cursor.key()[start..cursor.position()]);
                    let expected = concat!("an instant that `", stringify!($ty), "` can represent on this platform");
                    cursor.error_at(start, field, DecodeErrorKind::OutOfRange, expected, found)
                })
            }
        }
    };
}

/// Splits nanoseconds since the epoch into a [`Duration`].
fn duration(nanos: u128) -> Option<Duration> {
    let secs = u64::try_from(nanos / NANOS_PER_SEC).ok()?;
    // The remainder is below 10^9.
    Some(Duration::new(secs, (nanos % NANOS_PER_SEC) as u32))
}

/// The instant `nanos` after the epoch, when this platform's `SystemTime` holds it.
pub(crate) fn instant(nanos: u128) -> Option<SystemTime> {
    duration(nanos).and_then(|d| SystemTime::UNIX_EPOCH.checked_add(d))
}

timestamp_segment!(
    /// Unix time or RFC 3339 in UTC; times before 1970 are an error.
    SystemTime,
    |t| match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i128::try_from(d.as_nanos()).unwrap_or(i128::MAX),
        Err(e) => i128::try_from(e.duration().as_nanos()).map_or(i128::MIN, |n| -n.max(1)),
    },
    |n| instant(n)
);

#[cfg(feature = "chrono")]
timestamp_segment!(
    /// Feature `chrono`. A leap second (a sub-second part of 10^9 ns or more) is written as
    /// the last nanosecond of the second before it.
    // Optional features stay out of the compiler's lists of implementors (see ids.rs).
    @ #[diagnostic::do_not_recommend]
    chrono::DateTime<chrono::Utc>,
    |t| i128::from(t.timestamp()) * 1_000_000_000 + i128::from(t.timestamp_subsec_nanos().min(999_999_999)),
    |n| {
        let secs = i64::try_from(n / NANOS_PER_SEC).ok();
        // The remainder is below 10^9.
        secs.and_then(|s| chrono::DateTime::from_timestamp(s, (n % NANOS_PER_SEC) as u32))
    }
);

#[cfg(feature = "time")]
timestamp_segment!(
    /// Feature `time`. The instant is normalised to UTC: any offset encodes like the same
    /// instant in UTC, and decoding gives UTC.
    @ #[diagnostic::do_not_recommend]
    ::time::OffsetDateTime,
    |t| t.unix_timestamp_nanos(),
    |n| i128::try_from(n).ok().and_then(|n| ::time::OffsetDateTime::from_unix_timestamp_nanos(n).ok())
);

#[cfg(test)]
mod tests {
    use super::*;

    const F: Field = Field::new("K", "at", '#').with_width(12);

    use crate::encoding::segment::testing::{dec, enc};

    fn at(secs: u64, nanos: u32) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::new(secs, nanos)
    }

    #[test]
    fn civil_dates_round_trip_over_the_range() {
        for days in (0..days_from_civil(10_000, 1, 1)).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(days_from_civil(2000, 2, 29)), (2000, 2, 29));
    }

    #[test]
    fn unix_seconds_pad_and_truncate() {
        assert_eq!(enc(&at(1_719_100_800, 999_999_999), F).unwrap(), "001719100800");
        let ms = F.with_width(15).with_time(TimeFormat::Unix(TimeUnit::Millis));
        assert_eq!(enc(&at(1_719_100_800, 123_456_789), ms).unwrap(), "001719100800123");
        assert_eq!(dec::<SystemTime>("001719100800123", ms).unwrap(), at(1_719_100_800, 123_000_000));
        assert_eq!(enc(&at(5, 0), F.with_desc(true)).unwrap(), "999999999994");
        assert_eq!(dec::<SystemTime>("999999999994", F.with_desc(true)).unwrap(), at(5, 0));
    }

    #[test]
    fn range_is_1970_to_9999() {
        let before = SystemTime::UNIX_EPOCH - Duration::from_nanos(1);
        let e = enc(&before, F).unwrap_err();
        assert!(e.to_string().contains("1ns before 1970-01-01T00:00:00Z"), "{e}");
        assert!(enc(&at(253_402_300_799, 999_999_999), F).is_ok());
        assert!(enc(&at(253_402_300_800, 0), F.with_width(13)).is_err());
        assert!(dec::<SystemTime>("0253402300800", F.with_width(13)).is_err());
        assert!(dec::<SystemTime>("0253402300799", F.with_width(13)).is_ok());
    }

    #[test]
    fn rfc3339_is_fixed_width_utc() {
        let f = F.with_time(TimeFormat::Rfc3339(TimeUnit::Seconds)).with_width(20);
        assert_eq!(enc(&at(1_719_100_800, 5), f).unwrap(), "2024-06-23T00:00:00Z");
        let ns = F.with_time(TimeFormat::Rfc3339(TimeUnit::Nanos)).with_width(30);
        assert_eq!(enc(&at(0, 5), ns).unwrap(), "1970-01-01T00:00:00.000000005Z");
        assert_eq!(enc(&at(253_402_300_799, 999_999_999), ns).unwrap(), "9999-12-31T23:59:59.999999999Z");
        assert_eq!(dec::<SystemTime>("2024-02-29T23:59:59Z", f).unwrap(), at(1_709_251_199, 0));
        for bad in ["2023-02-29T00:00:00Z", "2024-06-23T24:00:00Z", "2024-06-23t00:00:00Z", "1969-12-31T23:59:59Z"] {
            assert!(dec::<SystemTime>(bad, f).is_err(), "{bad}");
        }
        let e = dec::<SystemTime>("2024-13-01T00:00:00Z", f).unwrap_err();
        assert_eq!((e.field(), e.offset()), (Some("at"), 0));
    }
}
