//! Layout texts made at random, as a person or another program could write them: every segment
//! type, unit and format, options, enums and nested keys, a width given or left out, `desc`,
//! `max`, a prefix or none, several separators. Each is built as the derive would accept it (a
//! width within what the type allows, `desc` only where the type reverses, `max` within the
//! width), printed, and read back by `DynLayout::parse`.
//!
//! With them, what the law over text needs and no derived type gives: values of a layout's
//! fields biased to the ends of their ranges ([`values`]), the order of two values of a field
//! as the field sorts them, `desc` reversed ([`field_cmp`]), and the predicate of a query on
//! the fields ([`Ask::holds`]), all computed on the values, independently of any encoding.

use std::cmp::Ordering;
use std::time::{Duration, SystemTime};

use proptest::prelude::*;
use proptest::sample::select;
use sortkey_core::query::Comparison;
use sortkey_core::{Capacity, DynBody, DynField, DynKey, DynLayout, DynType, DynValue, KeyRole, TimeUnit};

/// The separators the texts use: each sorts below every byte a segment of variable length
/// starts with (a digit, a float's class letter, an enum's lowercase name, the `-` of a negative
/// number), so that every generated layout is one the derive accepts; text and `char` values
/// below the separator are refused when they are written, which the values exercise.
const SEPARATORS: [char; 5] = ['#', '$', '!', '&', '+'];

/// A field's options as the generator chooses them, before they are checked against its type.
#[derive(Debug, Clone)]
struct Shape {
    width: Option<u32>,
    desc: bool,
    max: Option<u128>,
    unit: Option<TimeUnit>,
    rfc3339: bool,
    hex: bool,
    scale: u32,
}

/// A random layout text's `DynLayout`: a sort key (now and then a partition key) of one to four
/// fields, with a prefix or none.
pub fn layout() -> impl Strategy<Value = DynLayout> {
    let prefix = prop_oneof![1 => Just(None), 3 => "[A-Z][A-Z_]{0,4}".prop_map(Some)];
    (prefix, select(SEPARATORS.to_vec()), prop::collection::vec(field(true), 1..=4), 0..8u8).prop_map(
        |(prefix, separator, fields, role)| {
            let mut fields = named(fields, "f");
            // A nested key uses the key's separator.
            for f in &mut fields {
                if let DynType::Key(inner) = &mut f.ty {
                    inner.separator = separator;
                }
            }
            let role = if role == 0 { KeyRole::Partition } else { KeyRole::Sort };
            let key = DynKey { prefix, separator, body: DynBody::Fields(fields) };
            let text = DynLayout { name: "DynLayout", role, max_len: role.limit(), key }.to_string();
            DynLayout::parse(&text)
                .unwrap_or_else(|e| panic!("the generator wrote a text the grammar refuses: {e}\n{text}"))
        },
    )
}

/// Distinct field names, `f0`, `f1`, ... (`n0`, `n1`, ... in a nested key, so that an error's
/// field names one field), in order.
fn named(mut fields: Vec<DynField>, stem: &str) -> Vec<DynField> {
    for (i, field) in fields.iter_mut().enumerate() {
        field.name = Box::leak(format!("{stem}{i}").into_boxed_str());
    }
    fields
}

/// One field of any type; `nest` allows a nested key (one level).
fn field(nest: bool) -> BoxedStrategy<DynField> {
    let plain = prop_oneof![
        4 => select(vec![8u32, 16, 32, 64, 128, 0]).prop_map(DynType::Unsigned),
        3 => select(vec![8u32, 16, 32, 64, 128, 0]).prop_map(DynType::Signed),
        1 => Just(DynType::Bool),
        1 => Just(DynType::Char),
        3 => Just(DynType::Text),
        2 => select(vec![32u32, 64]).prop_map(DynType::Float),
        4 => Just(DynType::Timestamp),
        1 => Just(DynType::Uuid),
        1 => Just(DynType::Ulid),
        2 => Just(DynType::Decimal),
        1 => prop::collection::btree_set("[a-z]{1,4}", 1..4).prop_map(|n| DynType::Enum(n.into_iter().collect())),
    ];
    let option = plain.clone().prop_filter_map("an option of a plain type", |ty| match ty {
        DynType::Enum(_) | DynType::Char => None,
        ty => Some(DynType::Option(Box::new(ty))),
    });
    let ty = if nest {
        let nested = prop::collection::vec(field(false), 1..=2).prop_map(|fields| {
            DynType::Key(DynKey { prefix: None, separator: '#', body: DynBody::Fields(named(fields, "n")) })
        });
        prop_oneof![10 => plain, 2 => option, 1 => nested].boxed()
    } else {
        prop_oneof![6 => plain, 1 => option].boxed()
    };
    let shape = (
        prop_oneof![Just(None), (1..=40u32).prop_map(Some)],
        any::<bool>(),
        prop_oneof![3 => Just(None), 1 => any::<u128>().prop_map(Some)],
        prop_oneof![
            Just(None),
            select(vec![TimeUnit::Seconds, TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos]).prop_map(Some)
        ],
        (any::<bool>(), any::<bool>(), 0..=6u32),
    )
        .prop_map(|(width, desc, max, unit, (rfc3339, hex, scale))| Shape {
            width,
            desc,
            max,
            unit,
            rfc3339,
            hex,
            scale,
        });
    (ty, shape).prop_map(|(ty, shape)| shaped(ty, shape)).boxed()
}

/// The field of type `ty` with the options of `shape` its type takes, each within what the
/// derive allows for the type.
fn shaped(ty: DynType, s: Shape) -> DynField {
    let inner = ty.innermost().clone();
    let option = matches!(ty, DynType::Option(_));
    let mut f = DynField::new("f", ty);
    // (least, greatest, default) widths of a type that takes one.
    let digits = match inner {
        DynType::Unsigned(bits) => Some((1, unsigned_digits(bits), unsigned_digits(bits))),
        DynType::Signed(bits) => Some((2, unsigned_digits(bits) + 1, unsigned_digits(bits) + 1)),
        DynType::Decimal => Some((2, 40, 30)),
        DynType::Timestamp if !s.rfc3339 => Some((1, 40, 12)),
        _ => None,
    };
    if let (Some((least, greatest, _)), Some(w)) = (digits, s.width) {
        f.width = w.clamp(least, greatest);
    }
    let reversible = matches!(
        inner,
        DynType::Unsigned(_) | DynType::Signed(_) | DynType::Bool | DynType::Float(_) | DynType::Decimal
    ) || matches!(inner, DynType::Timestamp if !s.rfc3339);
    f.desc = s.desc && reversible && !option;
    match inner {
        DynType::Unsigned(bits) => {
            let width = if f.width > 0 { f.width } else { unsigned_digits(bits) };
            let limit = pow10(width).min(type_max(bits).saturating_add(1));
            // A `max` the width already implies is no part of a text the derive prints.
            f.max = s.max.map(|m| m % limit).filter(|&m| m < pow10(width) - 1);
        }
        DynType::Timestamp => {
            f.unit = s.unit;
            f.rfc3339 = s.rfc3339;
        }
        DynType::Float(_) => f.hex = s.hex,
        DynType::Decimal => f.scale = Some(s.scale),
        _ => {}
    }
    f
}

/// Digits of the largest unsigned integer of `bits` bits (`usize` as 64).
fn unsigned_digits(bits: u32) -> u32 {
    type_max(bits).to_string().len() as u32
}

/// The largest unsigned integer of `bits` bits (`usize` as 64 bits).
fn type_max(bits: u32) -> u128 {
    match bits {
        0 | 64 => u64::MAX.into(),
        128 => u128::MAX,
        b => (1u128 << b) - 1,
    }
}

/// `10^exp`, saturating.
fn pow10(exp: u32) -> u128 {
    10u128.checked_pow(exp).unwrap_or(u128::MAX)
}

/// Random values of `layout` (a key of fields), biased to the ends of each field's range and
/// past them (so that about as many are refused as written), and to its separators in text.
pub fn values(layout: &DynLayout, n: usize) -> BoxedStrategy<Vec<DynValue>> {
    let DynBody::Fields(fields) = &layout.key.body else { panic!("the generator makes keys of fields") };
    prop::collection::vec(key_value(fields, layout.key.separator), n).boxed()
}

fn key_value(fields: &[DynField], separator: char) -> BoxedStrategy<DynValue> {
    let parts: Vec<BoxedStrategy<(&'static str, DynValue)>> = fields
        .iter()
        .map(|f| {
            let name = f.name;
            field_value(f, separator).prop_map(move |v| (name, v)).boxed()
        })
        .collect();
    parts.prop_map(DynValue::Key).boxed()
}

/// A value of one field.
fn field_value(field: &DynField, separator: char) -> BoxedStrategy<DynValue> {
    let inner = field.ty.innermost().clone();
    let capacity = field.capacity();
    let plain = type_value(&inner, field, capacity, separator);
    match &field.ty {
        DynType::Option(_) => {
            prop_oneof![1 => Just(DynValue::Option(None)), 4 => plain.prop_map(|v| DynValue::Option(Some(Box::new(v))))]
                .boxed()
        }
        _ => plain,
    }
}

fn type_value(ty: &DynType, field: &DynField, capacity: Option<Capacity>, separator: char) -> BoxedStrategy<DynValue> {
    match (ty, capacity) {
        (DynType::Unsigned(_), Some(Capacity::Unsigned { largest })) => {
            let edges = vec![0, 1, largest.saturating_sub(1), largest, largest.saturating_add(1)];
            prop_oneof![2 => select(edges), 1 => 0..=largest, 1 => any::<u64>().prop_map(u128::from)]
                .prop_map(DynValue::Unsigned)
                .boxed()
        }
        (DynType::Signed(_), Some(Capacity::Signed { least, largest })) => {
            let edges = vec![
                least.saturating_sub(1),
                least,
                least + 1,
                -1,
                0,
                1,
                largest - 1,
                largest,
                largest.saturating_add(1),
            ];
            prop_oneof![2 => select(edges), 1 => least..=largest, 1 => any::<i64>().prop_map(i128::from)]
                .prop_map(DynValue::Signed)
                .boxed()
        }
        (DynType::Timestamp, Some(Capacity::Timestamp { largest, unit, .. })) => {
            let counts = prop_oneof![
                2 => select(vec![0, 1, largest.saturating_sub(1), largest, largest.saturating_add(1)]),
                2 => 0..=largest,
            ];
            counts
                .prop_filter_map("an instant this platform holds", move |count| {
                    let nanos = count.checked_mul(unit.nanos())?;
                    let secs = u64::try_from(nanos / 1_000_000_000).ok()?;
                    SystemTime::UNIX_EPOCH.checked_add(Duration::new(secs, (nanos % 1_000_000_000) as u32))
                })
                .prop_map(DynValue::Timestamp)
                .boxed()
        }
        (DynType::Bool, _) => any::<bool>().prop_map(DynValue::Bool).boxed(),
        (DynType::Char, _) => {
            select(vec!['a', 'z', '~', separator, '!', '0', 'é', '\u{10ffff}']).prop_map(DynValue::Char).boxed()
        }
        (DynType::Text, _) => text(separator).prop_map(DynValue::Text).boxed(),
        (DynType::Float(bits), _) => {
            let finite = prop_oneof![
                select(vec![0.0, -0.0, 1.5, -1.5, 1e300, -1e-300, f64::INFINITY, f64::NEG_INFINITY, 0.1]),
                any::<f64>().prop_filter("no NaN", |f| !f.is_nan()),
            ];
            if *bits == 32 {
                finite.prop_map(|f| DynValue::F32(f as f32)).boxed()
            } else {
                finite.prop_map(DynValue::F64).boxed()
            }
        }
        (DynType::Uuid, _) => {
            any::<u128>().prop_map(|n| DynValue::Uuid(sortkey_core::uuid::Uuid::from_u128(n).to_string())).boxed()
        }
        (DynType::Ulid, _) => {
            any::<u128>().prop_map(|n| DynValue::Ulid(sortkey_core::ulid::Ulid(n).to_string())).boxed()
        }
        (DynType::Decimal, _) => {
            let scale = field.scale.unwrap_or(0);
            (any::<i64>(), 0..=scale + 1)
                .prop_map(|(m, s)| DynValue::Decimal(sortkey_core::rust_decimal::Decimal::new(m, s).to_string()))
                .boxed()
        }
        (DynType::Enum(names), _) => select(names.clone()).prop_map(DynValue::Enum).boxed(),
        (DynType::Key(key), _) => {
            let DynBody::Fields(fields) = &key.body else { unreachable!("nested keys of fields") };
            key_value(fields, key.separator)
        }
        (ty, _) => panic!("no values for {ty}"),
    }
}

/// Text biased to the characters around the separator, which a field before the last refuses.
fn text(separator: char) -> BoxedStrategy<String> {
    let chars = vec!['a', 'b', 'z', '~', '0', separator, char::from(separator as u8 + 1), ' ', '\0', 'é', '\u{202e}'];
    prop::collection::vec(select(chars), 0..5).prop_map(|cs| cs.into_iter().collect()).boxed()
}

/// How `a` and `b`, values of `field`, sort in the field's order (`desc` reversed); `None` when
/// the two are not both values of it.
pub fn field_cmp(field: &DynField, a: &DynValue, b: &DynValue) -> Option<Ordering> {
    let o = type_cmp(&field.ty, a, b)?;
    Some(if field.desc { o.reverse() } else { o })
}

fn type_cmp(ty: &DynType, a: &DynValue, b: &DynValue) -> Option<Ordering> {
    use DynValue as V;
    Some(match (ty, a, b) {
        (_, V::Unsigned(x), V::Unsigned(y)) => x.cmp(y),
        (_, V::Signed(x), V::Signed(y)) => x.cmp(y),
        (_, V::Bool(x), V::Bool(y)) => x.cmp(y),
        (_, V::Char(x), V::Char(y)) => x.cmp(y),
        (_, V::Text(x), V::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
        (_, V::F32(x), V::F32(y)) => x.total_cmp(y),
        (_, V::F64(x), V::F64(y)) => x.total_cmp(y),
        (_, V::Timestamp(x), V::Timestamp(y)) => x.cmp(y),
        (_, V::Uuid(x), V::Uuid(y)) | (_, V::Ulid(x), V::Ulid(y)) => x.cmp(y),
        (_, V::Decimal(x), V::Decimal(y)) => {
            let (x, y): (sortkey_core::rust_decimal::Decimal, sortkey_core::rust_decimal::Decimal) =
                (x.parse().ok()?, y.parse().ok()?);
            x.cmp(&y)
        }
        (DynType::Enum(_), V::Enum(x), V::Enum(y)) => x.as_bytes().cmp(y.as_bytes()),
        (DynType::Option(inner), V::Option(x), V::Option(y)) => match (x, y) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(x), Some(y)) => type_cmp(inner, x, y)?,
        },
        (DynType::Key(key), V::Key(_), V::Key(_)) => {
            let DynBody::Fields(fields) = &key.body else { return None };
            key_cmp(fields, a, b)?
        }
        _ => return None,
    })
}

/// How two values of a key of `fields` sort: field by field, each in its own order.
pub fn key_cmp(fields: &[DynField], a: &DynValue, b: &DynValue) -> Option<Ordering> {
    for f in fields {
        match field_cmp(f, a.field(f.name)?, b.field(f.name)?)? {
            Ordering::Equal => continue,
            o => return Some(o),
        }
    }
    Some(Ordering::Equal)
}

/// A query on a layout's fields: the first `k` fixed to a template's, then how it ends.
#[derive(Debug, Clone)]
pub struct Ask {
    /// How many fields are fixed.
    pub k: usize,
    /// The value whose first `k` fields are fixed.
    pub fixed: DynValue,
    /// How the query ends.
    pub end: AskEnd,
}

/// How an [`Ask`] ends.
#[derive(Debug, Clone)]
pub enum AskEnd {
    /// Every key with the fixed fields.
    BeginsWith,
    /// The one key (every field fixed).
    Eq,
    /// The next field compared with a value.
    Cmp(Comparison, DynValue),
    /// The next field between two values.
    Between(DynValue, DynValue),
    /// The next field, a text, starting with a prefix.
    Prefix(String),
}

impl Ask {
    /// Runs the query builder of `layout` for the ask.
    pub fn build(&self, layout: &DynLayout) -> Result<sortkey_core::KeyCondition, sortkey_core::QueryError> {
        let DynBody::Fields(fields) = &layout.key.body else { panic!("a key of fields") };
        let mut q = layout.query();
        for f in &fields[..self.k] {
            q = q.fix(f.name, self.fixed.field(f.name).expect("the template has every field"));
        }
        let name = fields.get(self.k).map_or("", |f| f.name);
        match &self.end {
            AskEnd::BeginsWith => q.begins_with(),
            AskEnd::Eq => q.eq(),
            AskEnd::Cmp(op, v) => q.compare(name, *op, v),
            AskEnd::Between(a, b) => q.between(name, a, b),
            AskEnd::Prefix(p) => q.text_begins_with(name, p),
        }
    }

    /// Whether `key`, a value of the layout's key, satisfies the ask, on its fields: a
    /// comparison is on the values (`desc` changes where keys sort, not what `<` means).
    pub fn holds(&self, fields: &[DynField], key: &DynValue) -> bool {
        let same = |f: &DynField| field_cmp(f, key.field(f.name).unwrap(), self.fixed.field(f.name).unwrap());
        if !fields[..self.k].iter().all(|f| same(f) == Some(Ordering::Equal)) {
            return false;
        }
        let Some(next) = fields.get(self.k) else { return matches!(self.end, AskEnd::BeginsWith | AskEnd::Eq) };
        let v = key.field(next.name).unwrap();
        let value_cmp = |a: &DynValue, b: &DynValue| type_cmp(&next.ty, a, b).unwrap();
        match &self.end {
            AskEnd::BeginsWith => true,
            AskEnd::Eq => false,
            AskEnd::Cmp(op, t) => {
                let o = value_cmp(v, t);
                match op {
                    Comparison::Lt => o == Ordering::Less,
                    Comparison::Le => o != Ordering::Greater,
                    Comparison::Gt => o == Ordering::Greater,
                    Comparison::Ge => o != Ordering::Less,
                }
            }
            AskEnd::Between(lo, hi) => value_cmp(v, lo) != Ordering::Less && value_cmp(v, hi) != Ordering::Greater,
            AskEnd::Prefix(p) => matches!(v, DynValue::Text(t) if t.starts_with(p.as_str())),
        }
    }
}

/// Random asks on `layout`, their values drawn from `keys` (so that equalities happen).
pub fn asks(layout: &DynLayout, keys: Vec<DynValue>) -> BoxedStrategy<Ask> {
    let DynBody::Fields(fields) = &layout.key.body else { panic!("a key of fields") };
    let n = fields.len();
    let names: Vec<&'static str> = fields.iter().map(|f| f.name).collect();
    let ops = select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    let pick = select(keys);
    (0..=n, pick.clone(), pick.clone(), pick, ops, 0..4usize, "[a-z~]{0,2}")
        .prop_map(move |(k, fixed, a, b, op, kind, prefix)| {
            let at = |v: &DynValue| v.field(names.get(k).copied().unwrap_or_default()).cloned();
            let end = match (k == n, kind) {
                (true, 0) => AskEnd::Eq,
                (true, _) | (false, 0) => AskEnd::BeginsWith,
                (false, 1) => AskEnd::Cmp(op, at(&a).unwrap()),
                (false, 2) => AskEnd::Between(at(&a).unwrap(), at(&b).unwrap()),
                (false, _) => match at(&a) {
                    Some(DynValue::Text(_)) => AskEnd::Prefix(prefix),
                    _ => AskEnd::Cmp(op, at(&b).unwrap()),
                },
            };
            Ask { k, fixed, end }
        })
        .boxed()
}

/// The text of `layout` with every width left out that its type (and unit) would give anyway:
/// how a person might write the same layout by hand.
pub fn terse(layout: &DynLayout) -> String {
    let mut terse = layout.clone();
    drop_default_widths(&mut terse.key);
    terse.to_string()
}

fn drop_default_widths(key: &mut DynKey) {
    let DynBody::Fields(fields) = &mut key.body else { return };
    for field in fields {
        if let DynType::Key(inner) = &mut field.ty {
            drop_default_widths(inner);
        }
        let written = field.width;
        field.width = 0;
        if field.effective_width() != written {
            field.width = written;
        }
    }
}
