//! Decoding a key through a [`DynLayout`]: the same reads, in the same order, as the code the
//! derive generates for the type the layout describes, through the runtime's own segment impls,
//! so that a key is refused exactly when the derived type refuses it, with the same error kind,
//! field and byte offset.

use crate::dynamic::model::{DynBody, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::spec::{first, spec, whole_key};
use crate::dynamic::value::DynValue;
use crate::encoding::cursor::Cursor;
use crate::encoding::families::{first_segment, has_first_segment, unknown_variant_here};
use crate::encoding::framing::{decode_start, expect_prefix, expect_separator, field_in};
use crate::encoding::names::{take_name, unknown_name};
use crate::encoding::segment::DecodeSegment;
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind};

impl DynLayout {
    /// Decodes `key` as the derived type this layout describes would: the same value (as a
    /// [`DynValue`]), or the same error kind, field and byte offset.
    pub fn decode(&self, key: &str) -> Result<DynValue, DecodeError> {
        if let DynBody::Family(variants) = &self.key.body {
            return decode_family(self.name, key, variants, self.key.separator);
        }
        let mut cursor = decode_start(key, self.name, self.max_len)?;
        let value = decode_key(&mut cursor, &self.key, &whole_key(self.name))?;
        cursor.expect_end()?;
        Ok(value)
    }
}

/// A family as a whole key: the first variant whose first segment the key has, decoded whole.
fn decode_family(
    name: &'static str,
    key: &str,
    variants: &[DynVariant],
    separator: char,
) -> Result<DynValue, DecodeError> {
    for variant in variants {
        let first = first(variant, separator);
        if !has_first_segment(key, first, separator) {
            continue;
        }
        return match variant {
            DynVariant::Unit(lit) => {
                let mut cursor = decode_start(key, name, usize::MAX)?;
                expect_prefix(&mut cursor, lit)?;
                cursor.expect_end()?;
                Ok(DynValue::Variant(lit.clone(), None))
            }
            DynVariant::Key(inner) => {
                let mut cursor = decode_start(key, name, crate::encoding::key::SORT_KEY_LIMIT)?;
                let value = decode_key(&mut cursor, inner, &whole_key(name))?;
                cursor.expect_end()?;
                Ok(DynValue::Variant(first.to_owned(), Some(Box::new(value))))
            }
        };
    }
    let prefixes: Vec<String> = variants.iter().map(|v| format!("{:?}", first(v, separator))).collect();
    let expected = format!("a key starting with one of the prefixes {}", prefixes.join(", "));
    let found = format!("{:?}", first_segment(key, separator));
    Err(DecodeError::new(name, None, 0, DecodeErrorKind::UnknownVariant, expected, found))
}

/// A key's prefix and the separator after it, as the derived code expects the one literal
/// `"{prefix}{sep}"`: the same error when they are not there, without building the literal when
/// they are.
pub(super) fn expect_key_prefix(cursor: &mut Cursor<'_>, prefix: &str, sep: char) -> Result<(), DecodeError> {
    let rest = cursor.rest();
    if rest.starts_with(prefix) && rest[prefix.len()..].starts_with(sep) {
        expect_prefix(cursor, prefix)?;
        return expect_prefix(cursor, sep.encode_utf8(&mut [0; 4]));
    }
    expect_prefix(cursor, &format!("{prefix}{sep}"))
}

/// A key's segments at the cursor, `outer` the field it is read as (the whole key, or the field
/// of a key it is nested in), which says whether its last field is the key's last segment.
fn decode_key(cursor: &mut Cursor<'_>, key: &DynKey, outer: &Field) -> Result<DynValue, DecodeError> {
    let sep = key.separator;
    match &key.body {
        DynBody::Fields(fields) => {
            if let Some(prefix) = &key.prefix {
                expect_key_prefix(cursor, prefix, sep)?;
            }
            let mut values = Vec::with_capacity(fields.len());
            for (i, field) in fields.iter().enumerate() {
                let spec = spec(outer.key_name(), field, sep);
                let last = i + 1 == fields.len();
                let spec = if last { field_in(spec, outer) } else { spec };
                values.push((field.name, decode_field(cursor, &field.ty, &spec)?));
                if !last {
                    expect_separator(cursor, sep.encode_utf8(&mut [0; 4]), &spec)?;
                }
            }
            Ok(DynValue::Key(values))
        }
        DynBody::Family(variants) => {
            for variant in variants {
                if !has_first_segment(cursor.rest(), first(variant, sep), sep) {
                    continue;
                }
                return match variant {
                    DynVariant::Unit(lit) => {
                        expect_prefix(cursor, lit)?;
                        Ok(DynValue::Variant(lit.clone(), None))
                    }
                    DynVariant::Key(inner) => {
                        let value = decode_key(cursor, inner, outer)?;
                        Ok(DynValue::Variant(first(variant, sep).to_owned(), Some(Box::new(value))))
                    }
                };
            }
            let prefixes: Vec<&str> = variants.iter().map(|v| first(v, sep)).collect();
            Err(unknown_variant_here(cursor, outer, sep, &prefixes))
        }
        DynBody::Custom => {
            if let Some(prefix) = &key.prefix {
                expect_key_prefix(cursor, prefix, sep)?;
            }
            Ok(DynValue::Custom(cursor.take_text(outer)?.to_owned()))
        }
    }
}

/// One field's segment: the common integer and text types read here, inlined into the loop
/// over a key's fields (so that the value goes to its place without a round trip through
/// memory), every other type by [`decode_type`].
#[inline(always)]
pub(super) fn decode_field(cursor: &mut Cursor<'_>, ty: &DynType, spec: &Field) -> Result<DynValue, DecodeError> {
    Ok(match ty {
        DynType::Unsigned(64) => DynValue::Unsigned(u64::decode_segment(cursor, spec)?.into()),
        DynType::Unsigned(32) => DynValue::Unsigned(u32::decode_segment(cursor, spec)?.into()),
        DynType::Unsigned(16) => DynValue::Unsigned(u16::decode_segment(cursor, spec)?.into()),
        DynType::Signed(64) => DynValue::Signed(i64::decode_segment(cursor, spec)?.into()),
        DynType::Signed(32) => DynValue::Signed(i32::decode_segment(cursor, spec)?.into()),
        DynType::Text => DynValue::Text(String::decode_segment(cursor, spec)?),
        _ => decode_type(cursor, ty, spec)?,
    })
}

/// One segment of type `ty`, by the runtime's impl of the type.
fn decode_type(cursor: &mut Cursor<'_>, ty: &DynType, spec: &Field) -> Result<DynValue, DecodeError> {
    fn read<'k, T: DecodeSegment<'k>>(cursor: &mut Cursor<'k>, spec: &Field) -> Result<T, DecodeError> {
        T::decode_segment(cursor, spec)
    }
    Ok(match ty {
        DynType::Unsigned(8) => DynValue::Unsigned(read::<u8>(cursor, spec)?.into()),
        DynType::Unsigned(16) => DynValue::Unsigned(read::<u16>(cursor, spec)?.into()),
        DynType::Unsigned(32) => DynValue::Unsigned(read::<u32>(cursor, spec)?.into()),
        DynType::Unsigned(64) => DynValue::Unsigned(read::<u64>(cursor, spec)?.into()),
        DynType::Unsigned(128) => DynValue::Unsigned(read::<u128>(cursor, spec)?),
        DynType::Unsigned(_) => DynValue::Unsigned(read::<usize>(cursor, spec)? as u128),
        DynType::Signed(8) => DynValue::Signed(read::<i8>(cursor, spec)?.into()),
        DynType::Signed(16) => DynValue::Signed(read::<i16>(cursor, spec)?.into()),
        DynType::Signed(32) => DynValue::Signed(read::<i32>(cursor, spec)?.into()),
        DynType::Signed(64) => DynValue::Signed(read::<i64>(cursor, spec)?.into()),
        DynType::Signed(128) => DynValue::Signed(read::<i128>(cursor, spec)?),
        DynType::Signed(_) => DynValue::Signed(read::<isize>(cursor, spec)? as i128),
        DynType::Bool => DynValue::Bool(read(cursor, spec)?),
        DynType::Char => DynValue::Char(read(cursor, spec)?),
        DynType::Text => DynValue::Text(read(cursor, spec)?),
        DynType::Float(32) => DynValue::F32(read(cursor, spec)?),
        DynType::Float(_) => DynValue::F64(read(cursor, spec)?),
        DynType::Timestamp => DynValue::Timestamp(read(cursor, spec)?),
        DynType::Uuid | DynType::Ulid | DynType::Decimal => extra(cursor, spec, ty)?,
        DynType::Option(inner) => match cursor.rest().as_bytes().first() {
            Some(b'0') => {
                cursor.skip_ascii_byte();
                DynValue::Option(None)
            }
            Some(b'1') => {
                cursor.skip_ascii_byte();
                DynValue::Option(Some(Box::new(decode_type(cursor, inner, spec)?)))
            }
            _ => {
                let expected = "`0` (None) or `1` (Some, then the value)";
                return Err(cursor.error_here(spec, DecodeErrorKind::BadTag, expected, 1));
            }
        },
        DynType::Enum(names) => {
            let (start, text) = take_name(cursor, spec)?;
            match names.iter().find(|n| *n == text) {
                Some(name) => DynValue::Enum(name.clone()),
                None => {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    return Err(unknown_name(cursor, start, spec, &names, text));
                }
            }
        }
        DynType::Key(key) => decode_key(cursor, key, spec)?,
        DynType::Custom => DynValue::Custom(cursor.take_text(spec)?.to_owned()),
    })
}

/// A segment of a type behind one of the crate's features, as its text; without the feature,
/// an error that names it.
fn extra(cursor: &mut Cursor<'_>, spec: &Field, ty: &DynType) -> Result<DynValue, DecodeError> {
    match ty {
        #[cfg(feature = "uuid")]
        DynType::Uuid => {
            Ok(DynValue::Uuid(<uuid::Uuid as DecodeSegment<'_>>::decode_segment(cursor, spec)?.to_string()))
        }
        #[cfg(feature = "ulid")]
        DynType::Ulid => {
            Ok(DynValue::Ulid(<ulid::Ulid as DecodeSegment<'_>>::decode_segment(cursor, spec)?.to_string()))
        }
        #[cfg(feature = "rust_decimal")]
        DynType::Decimal => {
            let value = <rust_decimal::Decimal as DecodeSegment<'_>>::decode_segment(cursor, spec)?;
            Ok(DynValue::Decimal(value.to_string()))
        }
        _ => {
            let feature = ty.missing_feature().unwrap_or_default();
            let expected = format!("a `{ty}` segment, which needs sortkey-core's feature `{feature}`");
            Err(cursor.error_here(spec, DecodeErrorKind::Invalid, expected, 0))
        }
    }
}

impl DynLayout {
    /// The leading fields a bound of a condition on this layout says something of: the longest
    /// run of its first fields that `bound` writes whole, decoded. A field before the last is
    /// whole when the separator follows it (or, with `range`, the separator's successor or the
    /// bound's end, as a range's bounds end); the last field when the bound ends with it, and
    /// only with `range` (a `begins_with` value may end inside it). `None` when the layout is
    /// not one of fields, or the bound does not start with its prefix.
    ///
    /// Byte order of keys is the order of their fields, so every key at or above a lower bound
    /// has leading fields at or above these, and every key at or below an upper bound at or
    /// below them: what another layout of the same fields is asked
    /// ([`FieldCondition::enclosing`](crate::FieldCondition::enclosing)).
    pub(crate) fn leading_fields(&self, bound: &str, range: bool) -> Option<Vec<(&'static str, DynValue)>> {
        let DynBody::Fields(fields) = &self.key.body else { return None };
        let sep = self.key.separator;
        let after_sep = char::from_u32(sep as u32 + 1).unwrap_or(sep);
        let mut cursor = Cursor::new(bound, self.name);
        if let Some(prefix) = &self.key.prefix
            && expect_key_prefix(&mut cursor, prefix, sep).is_err()
        {
            return bound.starts_with(prefix.as_str()).then(Vec::new);
        }
        let outer = whole_key(self.name);
        let mut out = Vec::new();
        for (i, field) in fields.iter().enumerate() {
            let last = i + 1 == fields.len();
            let spec = spec(self.name, field, sep);
            let spec = if last { field_in(spec, &outer) } else { spec };
            let Ok(value) = decode_field(&mut cursor, &field.ty, &spec) else { break };
            let rest = cursor.rest();
            let whole = match (last, range) {
                (true, range) => range && rest.is_empty(),
                (false, true) => rest.is_empty() || rest.starts_with(sep) || rest.starts_with(after_sep),
                (false, false) => rest.starts_with(sep),
            };
            if !whole {
                break;
            }
            out.push((field.name, value));
            if last || !rest.starts_with(sep) || expect_prefix(&mut cursor, sep.encode_utf8(&mut [0; 4])).is_err() {
                break;
            }
        }
        Some(out)
    }
}
