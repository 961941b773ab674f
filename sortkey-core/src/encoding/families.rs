//! What the code of a key family calls: the dispatch on the first segment, the error of an
//! unknown one, and the constants the family's checks and limits are computed from.

use crate::encoding::cursor::Cursor;
use crate::encoding::key::KeyRole;
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// The text up to the first `separator` (all of `key` when there is none): the segment that
/// tells a family's variants apart.
#[inline]
pub fn first_segment(key: &str, separator: char) -> &str {
    let sep = crate::encoding::spec::separator_byte(separator);
    match key.bytes().position(|b| b == sep) {
        Some(end) => &key[..end],
        None => key,
    }
}

/// Whether `key` begins with the segment `first`, followed by the separator or the end: the test
/// of the family's decode, one comparison per variant without scanning for the separator.
#[inline(always)]
pub fn has_first_segment(key: &str, first: &str, separator: char) -> bool {
    let (key, first) = (key.as_bytes(), first.as_bytes());
    key.starts_with(first)
        && key.get(first.len()).is_none_or(|&b| b == crate::encoding::spec::separator_byte(separator))
}

/// Decodes a keyed variant and wraps it in the family's variant, out of line: the family's own
/// decode stays a few compares and a tail call, without the registers and the stack frame an
/// inlined variant decode would make every call pay.
#[inline(never)]
pub fn decode_variant<'k, T, F>(key: &'k str, wrap: impl FnOnce(T) -> F) -> Result<F, DecodeError>
where
    T: crate::encoding::key::DecodeKey<'k>,
{
    T::decode_borrowed(key).map(wrap)
}

/// The first byte of a variant's literal (0 for an empty one, which the family's checks
/// reject): the family compares it before the whole first segment.
pub const fn first_byte(literal: &str) -> u8 {
    match literal.as_bytes().first() {
        Some(&b) => b,
        None => 0,
    }
}

/// A variant type's prefix, or `""` for a type without one (which the family's checks reject).
pub const fn prefix_of(prefix: Option<&'static str>) -> &'static str {
    match prefix {
        Some(p) => p,
        None => "",
    }
}

/// Whether two variants' keys start with the same first segment: the family's variants must not.
pub const fn same_first_segment(a: &str, b: &str, separator: char) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let sep = crate::encoding::spec::separator_byte(separator);
    let mut i = 0;
    loop {
        let end_a = i == a.len() || a[i] == sep;
        let end_b = i == b.len() || b[i] == sep;
        if end_a || end_b {
            return end_a && end_b;
        }
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
}

/// Whether a variant type is a sort key, as a family's variants must be.
pub const fn is_sort_role(role: KeyRole) -> bool {
    matches!(role, KeyRole::Sort)
}

/// The largest of the variants' `MAX_LEN`s: the family's.
pub const fn max_of(lens: &[usize]) -> usize {
    let mut max = 0;
    let mut i = 0;
    while i < lens.len() {
        if lens[i] > max {
            max = lens[i];
        }
        i += 1;
    }
    max
}

/// The least byte of the family's encodings that could meet the separator of an outer key: its
/// variants' least bytes and the bytes of the first segments that tell them apart.
pub const fn least_of(leasts: &[Option<u8>], literals: &[&str]) -> Option<u8> {
    let mut least: Option<u8> = None;
    let mut i = 0;
    while i < leasts.len() {
        least = min(least, leasts[i]);
        i += 1;
    }
    let mut j = 0;
    while j < literals.len() {
        let bytes = literals[j].as_bytes();
        let mut k = 0;
        while k < bytes.len() {
            least = min(least, Some(bytes[k]));
            k += 1;
        }
        j += 1;
    }
    least
}

const fn min(a: Option<u8>, b: Option<u8>) -> Option<u8> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if x < y { x } else { y }),
        (Some(x), None) | (None, Some(x)) => Some(x),
        (None, None) => None,
    }
}

/// Writes a unit variant's literal as a whole key, under the whole-key rules.
#[inline]
pub fn encode_unit(out: &mut String, family: &'static str, literal: &'static str) -> Result<(), EncodeError> {
    crate::encoding::framing::encode_key(out, family, usize::MAX, |out| {
        out.push_str(literal);
        Ok(())
    })
}

/// What a family's decode names in its errors, one constant per family: passed by one reference,
/// so that every call of the family's decode fits in registers and can be a tail call.
#[derive(Debug)]
pub struct FamilyInfo {
    /// The family's type name.
    pub name: &'static str,
    /// The separator of its keys.
    pub separator: char,
    /// Each variant's literal (a unit's literal, or the key type's prefix), in declaration order.
    pub prefixes: &'static [&'static str],
}

/// Decodes the unit variant `index` as a whole key, exactly its literal, to the family's value
/// that `value` makes (a function, not the value, so that no argument goes through the stack);
/// out of line for the reason [`decode_variant`] is.
#[inline(never)]
pub fn decode_unit<F>(
    key: &str,
    family: &'static FamilyInfo,
    index: usize,
    value: fn() -> F,
) -> Result<F, DecodeError> {
    let mut cursor = crate::encoding::framing::decode_start(key, family.name, usize::MAX)?;
    crate::encoding::framing::expect_prefix(&mut cursor, family.prefixes[index])?;
    cursor.expect_end().map(|()| value())
}

/// A key whose first segment is none of the family's prefixes.
#[cold]
#[inline(never)]
pub fn unknown_variant<F>(key: &str, family: &'static FamilyInfo) -> Result<F, DecodeError> {
    let found = first_segment(key, family.separator);
    let expected = expected(family.prefixes);
    Err(DecodeError::new(family.name, None, 0, DecodeErrorKind::UnknownVariant, expected, format!("{found:?}")))
}

/// The same error for a family read as a field of another key, at the cursor.
#[cold]
pub fn unknown_variant_here(cursor: &Cursor<'_>, field: &Field, separator: char, prefixes: &[&str]) -> DecodeError {
    let found = first_segment(cursor.rest(), separator);
    cursor.error_here(field, DecodeErrorKind::UnknownVariant, expected(prefixes), found.len().max(1))
}

fn expected(prefixes: &[&str]) -> String {
    let list: Vec<String> = prefixes.iter().map(|p| format!("{p:?}")).collect();
    format!("a key starting with one of the prefixes {}", list.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_segments_tell_variants_apart() {
        assert!(same_first_segment("ORDER", "ORDER#ITEM", '#'));
        assert!(same_first_segment("ORDER", "ORDER", '#'));
        assert!(!same_first_segment("ORDER", "ORDERS", '#'));
        assert!(!same_first_segment("ORDERS", "ORDER", '#'));
        assert!(!same_first_segment("A", "B", '#'));
        assert!(same_first_segment("A|x", "A|y", '|'));
        assert_eq!(first_segment("ORDER#42", '#'), "ORDER");
        assert_eq!(first_segment("PROFILE", '#'), "PROFILE");
        assert!(has_first_segment("ORDER#42", "ORDER", '#'));
        assert!(has_first_segment("ORDER", "ORDER", '#'));
        assert!(!has_first_segment("ORDERS#2024", "ORDER", '#'));
        assert!(!has_first_segment("ORDE", "ORDER", '#'));
        assert!(!has_first_segment("ORDER|1", "ORDER", '#'));
        assert!(has_first_segment("ORDER|1", "ORDER", '|'));
    }

    #[test]
    fn least_byte_covers_literals_and_variants() {
        assert_eq!(least_of(&[None, Some(b'a')], &["ORDER"]), Some(b'D'));
        assert_eq!(least_of(&[None], &[]), None);
        assert_eq!(max_of(&[10, 1024, 7]), 1024);
    }

    #[test]
    fn unknown_variant_lists_the_prefixes() {
        static FAMILY: FamilyInfo =
            FamilyInfo { name: "CustomerItem", separator: '#', prefixes: &["ORDER", "PROFILE"] };
        let e = unknown_variant::<()>("CART#1", &FAMILY).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::UnknownVariant);
        assert_eq!(
            e.to_string(),
            "cannot decode `CustomerItem` at byte 0: expected a key starting with one of the prefixes \"ORDER\", \
             \"PROFILE\", found \"CART\""
        );
    }
}
