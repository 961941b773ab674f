//! Whether two layouts encode every key alike, in a `const` context: the facts a layout's
//! description prints (prefix, separator, role, `max_len`, each field's name, type, effective
//! width, `desc`, effective `max`, unit, format and scale, nested keys and families in full),
//! compared one by one. Generated code asserts it where an entity names a key type of its own
//! (`pk(type = CustomerPk, ...)`), so a shared type that drifted from the declaration does not
//! compile.

use crate::encoding::key::KeyRole;
use crate::encoding::layout::{Body, FieldLayout, Layout, SegmentLayout, VariantLayout};
use crate::encoding::spec::{Field, TimeFormat, TimeUnit};

impl Layout {
    /// Whether `self` and `other` have the same description, which is exactly when they encode
    /// every value alike (the names of the key types aside, which change no byte).
    pub const fn encodes_like(&self, other: &Layout) -> bool {
        opt_str_eq(self.prefix, other.prefix)
            && self.separator == other.separator
            && self.max_len == other.max_len
            && role_eq(self.role, other.role)
            && body_eq(&self.body, &other.body)
    }
}

const fn body_eq(a: &Body, b: &Body) -> bool {
    match (a, b) {
        (Body::Fields(a), Body::Fields(b)) => fields_eq(a, b),
        (Body::Family(a), Body::Family(b)) => variants_eq(a, b),
        (Body::Opaque, Body::Opaque) => true,
        _ => false,
    }
}

const fn fields_eq(a: &[FieldLayout], b: &[FieldLayout]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !field_eq(&a[i], &b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn variants_eq(a: &[VariantLayout], b: &[VariantLayout]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        let same = match (&a[i], &b[i]) {
            (VariantLayout::Unit(x), VariantLayout::Unit(y)) => str_eq(x, y),
            (VariantLayout::Key(x), VariantLayout::Key(y)) => x.encodes_like(y),
            _ => false,
        };
        if !same {
            return false;
        }
        i += 1;
    }
    true
}

/// The facts `write_field` prints of a field, compared.
const fn field_eq(a: &FieldLayout, b: &FieldLayout) -> bool {
    let (fa, fb) = (&a.field, &b.field);
    if !str_eq(fa.name(), fb.name()) || !segment_eq(&a.segment, &b.segment) || fa.is_desc() != fb.is_desc() {
        return false;
    }
    let inner = innermost(&a.segment);
    let keyed = matches!(inner, SegmentLayout::Key(_));
    if !keyed && fa.width() != fb.width() {
        return false;
    }
    if !opt_u128_eq(shown_max(fa), shown_max(fb)) {
        return false;
    }
    match inner {
        SegmentLayout::Timestamp => time_eq(fa.time_format(), fb.time_format()),
        SegmentLayout::Float(_) => fa.is_hex() == fb.is_hex(),
        SegmentLayout::Decimal => fa.scale() == fb.scale(),
        _ => true,
    }
}

/// The `max` a description shows: none when the width already implies it.
const fn shown_max(field: &Field) -> Option<u128> {
    let Some(max) = field.max() else { return None };
    if field.width() == 0 {
        return Some(max);
    }
    match 10u128.checked_pow(field.width()) {
        Some(p) if max >= p - 1 => None,
        _ => Some(max),
    }
}

const fn segment_eq(a: &SegmentLayout, b: &SegmentLayout) -> bool {
    match (a, b) {
        (SegmentLayout::Unsigned(x), SegmentLayout::Unsigned(y))
        | (SegmentLayout::Signed(x), SegmentLayout::Signed(y))
        | (SegmentLayout::Float(x), SegmentLayout::Float(y)) => *x == *y,
        (SegmentLayout::Option(x), SegmentLayout::Option(y)) => segment_eq(x, y),
        (SegmentLayout::Enum(x), SegmentLayout::Enum(y)) => names_eq(x, y),
        (SegmentLayout::Key(x), SegmentLayout::Key(y)) => x.encodes_like(y),
        _ => match (a.name(), b.name()) {
            (Some(x), Some(y)) => str_eq(x, y),
            _ => false,
        },
    }
}

const fn innermost(segment: &SegmentLayout) -> &SegmentLayout {
    match segment {
        SegmentLayout::Option(inner) => innermost(inner),
        other => other,
    }
}

const fn names_eq(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !str_eq(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

const fn time_eq(a: TimeFormat, b: TimeFormat) -> bool {
    match (a, b) {
        (TimeFormat::Unix(x), TimeFormat::Unix(y)) | (TimeFormat::Rfc3339(x), TimeFormat::Rfc3339(y)) => unit_eq(x, y),
        _ => false,
    }
}

const fn unit_eq(a: TimeUnit, b: TimeUnit) -> bool {
    a.nanos() == b.nanos()
}

const fn role_eq(a: KeyRole, b: KeyRole) -> bool {
    matches!((a, b), (KeyRole::Sort, KeyRole::Sort) | (KeyRole::Partition, KeyRole::Partition))
}

const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => str_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

const fn opt_u128_eq(a: Option<u128>, b: Option<u128>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b,
        (None, None) => true,
        _ => false,
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use crate::SortKey;

    #[derive(crate::SortKey)]
    #[key(crate = crate, prefix = "CUST", partition)]
    #[allow(dead_code)]
    struct A {
        #[key(width = 8)]
        customer_id: u32,
    }

    #[derive(crate::SortKey)]
    #[key(crate = crate, prefix = "CUST", partition)]
    #[allow(dead_code)]
    struct B {
        #[key(width = 8)]
        customer_id: u32,
    }

    #[derive(crate::SortKey)]
    #[key(crate = crate, prefix = "CUST", partition)]
    #[allow(dead_code)]
    struct Wider {
        #[key(width = 9)]
        customer_id: u32,
    }

    #[test]
    fn layouts_encode_alike_exactly_when_their_descriptions_are_equal() {
        assert!(A::LAYOUT.encodes_like(&B::LAYOUT), "the type names change no byte");
        assert!(!A::LAYOUT.encodes_like(&Wider::LAYOUT));
        assert_eq!(A::LAYOUT.to_string(), B::LAYOUT.to_string());
        assert_ne!(A::LAYOUT.to_string(), Wider::LAYOUT.to_string());
    }
}
