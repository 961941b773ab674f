//! The `const` functions the derive's compile-time checks and constants call: widths, lengths,
//! `max`, separators of nested keys and enum names before another field.

use crate::encoding::segment::Capabilities;
use crate::encoding::spec::{TimeFormat, Width};

/// The width a field uses: the one it sets or the type's default.
pub const fn resolve_width(width: Width, given: Option<u32>) -> u32 {
    match (width, given) {
        (Width::Digits { .. }, Some(w)) => w,
        (Width::Digits { default, .. }, None) => default,
        (Width::Fixed(n), _) => n,
        (Width::Variable, _) => 0,
    }
}

/// Adds two lengths that are both known.
pub const fn add_len(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        _ => None,
    }
}

/// Whether a field of this width may set `#[key(width = N)]`.
pub const fn width_configurable(width: Width) -> bool {
    matches!(width, Width::Digits { .. })
}

/// Whether `given` is a width the type can fill.
pub const fn width_in_range(width: Width, given: u32) -> bool {
    match width {
        Width::Digits { min, max, .. } => min <= given && given <= max,
        _ => true,
    }
}

/// Whether `max` is a value of the type (`type_max` is `None` for types without `max`).
pub const fn max_in_type(type_max: Option<u128>, max: u128) -> bool {
    match type_max {
        Some(t) => max <= t,
        None => false,
    }
}

/// Whether `max` fits the field's width.
pub const fn max_fits_width(width: Width, resolved: u32, max: u128) -> bool {
    let digits = match width {
        Width::Digits { signed: true, .. } => resolved.saturating_sub(1),
        _ => resolved,
    };
    let mut limit: u128 = 1;
    let mut i = 0;
    while i < digits {
        match limit.checked_mul(10) {
            Some(l) => limit = l,
            None => return true,
        }
        i += 1;
    }
    max < limit
}

/// Whether a constant length is within the key's limit.
pub const fn len_within(len: Option<usize>, max_len: usize) -> bool {
    match len {
        Some(n) => n <= max_len,
        None => true,
    }
}

/// The width of a timestamp field: the one it sets, or the one its format implies.
pub const fn time_width(given: Option<u32>, format: TimeFormat) -> Option<u32> {
    match (format, given) {
        (TimeFormat::Unix(_), Some(w)) => Some(w),
        (format, _) => Some(format.default_width()),
    }
}

/// The encoded length of a segment, `None` when its encodings differ in length (text, or a
/// type such as `Option` whose encodings vary although it has a width).
pub const fn segment_len_of(width: Width, resolved: u32, variable_len: bool) -> Option<usize> {
    match width {
        Width::Variable => None,
        _ if variable_len => None,
        _ => Some(resolved as usize),
    }
}

/// Whether a field of a type whose encodings contain bytes of at least its least byte may
/// stand before another segment of a key with this separator.
pub const fn least_byte_fits(caps: Capabilities, separator: char) -> bool {
    match caps.least_byte() {
        Some(b) => b as u32 > separator as u32,
        None => true,
    }
}

/// Whether a nested key type uses the outer key's separator (any other type: yes).
pub const fn nested_separator_matches(caps: Capabilities, separator: char) -> bool {
    match caps.nested_separator() {
        Some(s) => s as u32 == separator as u32,
        None => true,
    }
}

/// The capabilities of a key type (or family) used as a segment: its separator, and the least
/// byte of its encodings where they are known at compile time.
pub const fn key_capabilities(least: Option<u8>, separator: char) -> Capabilities {
    let caps = Capabilities::PLAIN.with_nested_separator(separator);
    match least {
        Some(b) => caps.with_least_byte(b),
        None => caps,
    }
}

/// The `WIDTH` of a nested key type: fixed when its encoded length is.
pub const fn nested_width(encoded_len: Option<usize>) -> Width {
    match encoded_len {
        Some(n) => Width::Fixed(n as u32),
        None => Width::Variable,
    }
}
