//! Encoding a [`DynValue`] through a [`DynLayout`]: the same writes, in the same order, as the
//! code the derive generates for the type the layout describes, through the runtime's own
//! segment impls, so that a value is written to the same bytes, or refused with the same error
//! kind and field. A value the layout does not describe (a missing field, a value of another
//! type) is [`EncodeErrorKind::Mismatch`].

use std::time::SystemTime;

use crate::dynamic::model::{DynBody, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::spec::{first, spec, whole_key};
use crate::dynamic::value::DynValue;
use crate::encoding::framing::{encode_key, field_in};
use crate::encoding::names::encode_name;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::Field;
use crate::error::{EncodeError, EncodeErrorKind};

impl DynLayout {
    /// Encodes `value` as the derived type this layout describes would encode the same value:
    /// the same key, or the same error kind and field. The value is a [`DynValue::Key`] with
    /// every field of the layout by name (in any order), or for a family a
    /// [`DynValue::Variant`].
    pub fn encode(&self, value: &DynValue) -> Result<String, EncodeError> {
        let mut out = String::new();
        self.encode_into(value, &mut out)?;
        Ok(out)
    }

    /// [`encode`](Self::encode) appending to `out`, which is left as it was on an error.
    pub fn encode_into(&self, value: &DynValue, out: &mut String) -> Result<(), EncodeError> {
        let key = &self.key;
        if let DynBody::Family(variants) = &key.body {
            return match variant_of(value, variants, key.separator, &whole_key(self.name))? {
                (DynVariant::Unit(lit), _) => encode_key(out, self.name, usize::MAX, |out| {
                    out.push_str(lit);
                    Ok(())
                }),
                (DynVariant::Key(inner), Some(value)) => {
                    let whole = whole_key(self.name);
                    encode_key(out, self.name, crate::encoding::key::SORT_KEY_LIMIT, |out| {
                        write_key(value, inner, &whole, out)
                    })
                }
                (DynVariant::Key(_), None) => unreachable!("variant_of pairs a keyed variant with its value"),
            };
        }
        let whole = whole_key(self.name);
        encode_key(out, self.name, self.max_len, |out| write_key(value, key, &whole, out))
    }
}

impl DynLayout {
    /// The segment the field `name` of `value` (a key's fields, as [`decode`](Self::decode)
    /// gives them) is written as in its place in this layout's key, the same bytes a derived
    /// key writes for it: what a shard `by` the field is calculated from. `None` when the layout
    /// has no such field at its top level or `value` has no value for it; an error when the
    /// value does not fit the field.
    pub fn field_segment(&self, value: &DynValue, name: &str) -> Option<Result<String, EncodeError>> {
        let (DynBody::Fields(fields), DynValue::Key(values)) = (&self.key.body, value) else { return None };
        let at = fields.iter().position(|f| f.name == name)?;
        let (_, field_value) = values.iter().find(|(n, _)| same(n, name))?;
        let whole = whole_key(self.name);
        let spec = spec(whole.key_name(), &fields[at], self.key.separator);
        let spec = if at + 1 == fields.len() { field_in(spec, &whole) } else { spec };
        let mut out = String::new();
        Some(write_type(field_value, &fields[at].ty, &spec, &mut out).map(|()| out))
    }
}

/// An error of `field` (`None`: the key as a whole): the value is not what the layout says.
#[cold]
fn mismatch(field: &Field, expected: String, found: String) -> EncodeError {
    let kind = EncodeErrorKind::Mismatch { expected, found };
    match field.name() {
        "" => EncodeError::whole_key(field.key_name(), kind),
        name => EncodeError::new(field.key_name(), name, kind),
    }
}

/// Whether two field names are the same: at once when they are the same text in memory (a
/// layout's names and a decoded value's are the one interned copy), else by their bytes.
#[inline(always)]
fn same(a: &str, b: &str) -> bool {
    std::ptr::eq(a, b) || a == b
}

/// Whether a key's `values` are one for each of the layout's fields `names`, in their order (what
/// a decode gives): then each is written by place, with no lookup by name.
#[inline(always)]
pub(super) fn in_layout_order<'n>(values: &[(&str, DynValue)], names: impl ExactSizeIterator<Item = &'n str>) -> bool {
    values.len() == names.len() && values.iter().zip(names).all(|((n, _), f)| same(n, f))
}

/// `value` shown in an error: its kind and its value.
fn shown(value: &DynValue) -> String {
    format!("{} ({value:?})", value.kind())
}

/// The variant of `variants` that `value` names, and a keyed variant's value.
fn variant_of<'a, 'v>(
    value: &'v DynValue,
    variants: &'a [DynVariant],
    separator: char,
    field: &Field,
) -> Result<(&'a DynVariant, Option<&'v DynValue>), EncodeError> {
    if let DynValue::Variant(name, inner) = value {
        let found = variants.iter().find(|v| match v {
            DynVariant::Unit(lit) => lit == name && inner.is_none(),
            DynVariant::Key(key) => key.prefix.as_deref() == Some(name.as_str()) && inner.is_some(),
        });
        if let Some(variant) = found {
            return Ok((variant, inner.as_deref()));
        }
    }
    let names: Vec<String> = variants
        .iter()
        .map(|v| match v {
            DynVariant::Unit(lit) => format!("{lit:?}"),
            DynVariant::Key(_) => format!("{:?} with its key", first(v, separator)),
        })
        .collect();
    Err(mismatch(field, format!("one of the variants {}", names.join(", ")), shown(value)))
}

/// The segments of `key` for `value`, `outer` the field the key is written as (the whole key,
/// or the field of a key it is nested in), as the derived key's `encode_segment`.
fn write_key(value: &DynValue, key: &DynKey, outer: &Field, out: &mut String) -> Result<(), EncodeError> {
    let sep = key.separator;
    match &key.body {
        DynBody::Fields(fields) => {
            let DynValue::Key(values) = value else {
                return Err(mismatch(outer, "a key's fields".to_owned(), shown(value)));
            };
            // The value of each field: by place when the value has the layout's fields in its
            // order (as a decode gives them), else by name, every name checked.
            let in_order = in_layout_order(values, fields.iter().map(|f| f.name));
            if !in_order
                && let Some((name, _)) = values.iter().find(|(name, _)| !fields.iter().any(|f| same(f.name, name)))
            {
                let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                let expected = format!("only the layout's fields {}", names.join(", "));
                return Err(mismatch(outer, expected, format!("a field `{name}`")));
            }
            if let Some(prefix) = &key.prefix {
                out.push_str(prefix);
                out.push(sep);
            }
            for (i, field) in fields.iter().enumerate() {
                let spec = spec(outer.key_name(), field, sep);
                let spec = if i + 1 == fields.len() { field_in(spec, outer) } else { spec };
                let value = if in_order {
                    &values[i].1
                } else {
                    let mut named = values.iter().filter(|(name, _)| same(name, field.name));
                    let (Some((_, value)), None) = (named.next(), named.next()) else {
                        let found =
                            format!("{} values for it", values.iter().filter(|(n, _)| same(n, field.name)).count());
                        return Err(mismatch(&spec, "one value for the field".to_owned(), found));
                    };
                    value
                };
                if i > 0 {
                    out.push(sep);
                }
                write_type(value, &field.ty, &spec, out)?;
            }
            Ok(())
        }
        DynBody::Family(variants) => match variant_of(value, variants, sep, outer)? {
            (DynVariant::Unit(lit), _) => {
                out.push_str(lit);
                Ok(())
            }
            (DynVariant::Key(inner), Some(value)) => write_key(value, inner, outer, out),
            (DynVariant::Key(_), None) => unreachable!("variant_of pairs a keyed variant with its value"),
        },
        DynBody::Custom => {
            let DynValue::Custom(text) = value else {
                return Err(mismatch(outer, "a custom segment's raw text".to_owned(), shown(value)));
            };
            if let Some(prefix) = &key.prefix {
                out.push_str(prefix);
                out.push(sep);
            }
            text.as_str().encode_segment(outer, out)
        }
    }
}

/// An integer of a `bits` wide type, or a mismatch that says the type's range.
fn narrow<T: TryFrom<V>, V: Copy + std::fmt::Display>(v: V, ty: &DynType, spec: &Field) -> Result<T, EncodeError> {
    T::try_from(v).map_err(|_| mismatch(spec, format!("a `{ty}` value"), format!("{v}, which a `{ty}` cannot hold")))
}

/// One segment of type `ty` for `value`, by the runtime's impl of the type.
pub(super) fn write_type(value: &DynValue, ty: &DynType, spec: &Field, out: &mut String) -> Result<(), EncodeError> {
    fn put<T: KeySegment>(v: T, spec: &Field, out: &mut String) -> Result<(), EncodeError> {
        v.encode_segment(spec, out)
    }
    match (ty, value) {
        (DynType::Unsigned(bits), DynValue::Unsigned(v)) => match bits {
            8 => put(narrow::<u8, _>(*v, ty, spec)?, spec, out),
            16 => put(narrow::<u16, _>(*v, ty, spec)?, spec, out),
            32 => put(narrow::<u32, _>(*v, ty, spec)?, spec, out),
            64 => put(narrow::<u64, _>(*v, ty, spec)?, spec, out),
            128 => put(*v, spec, out),
            _ => put(narrow::<usize, _>(*v, ty, spec)?, spec, out),
        },
        (DynType::Signed(bits), DynValue::Signed(v)) => match bits {
            8 => put(narrow::<i8, _>(*v, ty, spec)?, spec, out),
            16 => put(narrow::<i16, _>(*v, ty, spec)?, spec, out),
            32 => put(narrow::<i32, _>(*v, ty, spec)?, spec, out),
            64 => put(narrow::<i64, _>(*v, ty, spec)?, spec, out),
            128 => put(*v, spec, out),
            _ => put(narrow::<isize, _>(*v, ty, spec)?, spec, out),
        },
        (DynType::Bool, DynValue::Bool(v)) => put(*v, spec, out),
        (DynType::Char, DynValue::Char(v)) => put(*v, spec, out),
        (DynType::Text, DynValue::Text(v)) => put(v.as_str(), spec, out),
        (DynType::Float(32), DynValue::F32(v)) => put(*v, spec, out),
        (DynType::Float(64), DynValue::F64(v)) => put(*v, spec, out),
        (DynType::Timestamp, DynValue::Timestamp(v)) => put::<SystemTime>(*v, spec, out),
        _ if ty.missing_feature().is_some() => Err(needs_feature(ty, spec, value)),
        #[cfg(feature = "uuid")]
        (DynType::Uuid, DynValue::Uuid(text)) => put(parse::<uuid::Uuid>(text, ty, spec)?, spec, out),
        #[cfg(feature = "ulid")]
        (DynType::Ulid, DynValue::Ulid(text)) => put(parse::<ulid::Ulid>(text, ty, spec)?, spec, out),
        #[cfg(feature = "rust_decimal")]
        (DynType::Decimal, DynValue::Decimal(text)) => put(parse::<rust_decimal::Decimal>(text, ty, spec)?, spec, out),
        (DynType::Option(inner), DynValue::Option(v)) => match v {
            None => {
                out.push('0');
                Ok(())
            }
            Some(v) => {
                out.push('1');
                write_type(v, inner, spec, out)
            }
        },
        (DynType::Enum(names), DynValue::Enum(name)) if names.contains(name) => encode_name(name, spec, out),
        (DynType::Enum(names), _) => {
            let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
            Err(mismatch(spec, format!("one of the names {}", names.join(", ")), shown(value)))
        }
        (DynType::Key(key), value) => write_key(value, key, spec, out),
        (DynType::Custom, DynValue::Custom(text)) => put(text.as_str(), spec, out),
        _ => Err(mismatch(spec, format!("a `{ty}` value"), shown(value))),
    }
}

/// A UUID's, ULID's or decimal's text as the type, or a mismatch that says it is not one.
#[cfg(any(feature = "uuid", feature = "ulid", feature = "rust_decimal"))]
fn parse<T: std::str::FromStr>(text: &str, ty: &DynType, spec: &Field) -> Result<T, EncodeError> {
    text.parse().map_err(|_| mismatch(spec, format!("a `{ty}` value"), format!("{text:?}, which is not one")))
}

/// A value of a type whose feature of sortkey-core is not enabled.
#[cold]
fn needs_feature(ty: &DynType, spec: &Field, value: &DynValue) -> EncodeError {
    let feature = ty.missing_feature().unwrap_or_default();
    let expected = format!("a `{ty}` segment, which needs sortkey-core's feature `{feature}`");
    mismatch(spec, expected, shown(value))
}
