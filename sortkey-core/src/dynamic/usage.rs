//! How much of each field's capacity a set of keys uses: the largest (and least) value seen
//! of every numeric and timestamp field, against the largest its width and `max` admit, and
//! the headroom left, in digits and as a fraction. What the audit of a live table reports, so
//! that a width is widened before the first value that does not fit (the width is a one-way
//! door).

use std::time::SystemTime;

use crate::dynamic::capacity::Capacity;
use crate::dynamic::model::{DynBody, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::value::DynValue;

/// The values seen of one numeric or timestamp field of a layout.
///
/// With the `serde` feature it is `{"path", "values" (how many were seen), "least", "largest",
/// "can_hold" (its [`Capacity`]), "headroom" (null before a value)}`, integers by the one rule
/// of `sortkey_core::exact` (a module of that feature); the headroom is computed, not read back.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldUsage {
    /// The field's path: its name, after the names of the keys it is nested in and the
    /// prefix of the family variant it belongs to (`ORDER.placed_at`, `inner.id`).
    pub path: String,
    /// What the field admits.
    pub capacity: Capacity,
    /// How many values were seen (an option's `None` is none).
    pub seen: u64,
    /// The largest value seen: [`DynValue::Unsigned`], [`DynValue::Signed`] or, for a
    /// timestamp, [`DynValue::Unsigned`] of its unit since 1970.
    pub largest: Option<DynValue>,
    /// The least value seen, as [`largest`](Self::largest).
    pub least: Option<DynValue>,
}

/// What is left of a field's range above the largest value seen (and for a signed field below
/// the least one): the end that is closer to full.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Headroom {
    /// How many more digits the value can grow by: the digits of the capacity's end less the
    /// digits of the value seen.
    pub digits_left: u32,
    /// The part of the range left, from 1.0 (nothing seen beyond zero) to 0.0 (the end is
    /// reached).
    pub fraction_left: f64,
}

/// The usage of every numeric and timestamp field of a layout, over the keys observed.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutUsage {
    key: DynKey,
    fields: Vec<FieldUsage>,
}

impl DynLayout {
    /// An empty usage of this layout's numeric and timestamp fields, to
    /// [`observe`](LayoutUsage::observe) decoded keys with.
    pub fn usage(&self) -> LayoutUsage {
        // The fields with a capacity, by the paths `field_paths` gives them, in its order,
        // which is the order `observe_key` walks a value in.
        let fields = self
            .field_paths()
            .into_iter()
            .filter_map(|(path, field)| {
                let capacity = field.capacity()?;
                Some(FieldUsage { path, capacity, seen: 0, largest: None, least: None })
            })
            .collect();
        LayoutUsage { key: self.key.clone(), fields }
    }
}

impl LayoutUsage {
    /// Counts a key's value ([`DynLayout::decode`]'s) in. Values the layout does not describe
    /// count for nothing.
    pub fn observe(&mut self, value: &DynValue) {
        observe_fields(&self.key, value, &mut self.fields);
    }

    /// One entry per numeric or timestamp field, in the layout's order (a family's variants in
    /// theirs).
    pub fn fields(&self) -> &[FieldUsage] {
        &self.fields
    }

    /// Adds another usage of the same layout (the partial report of another segment).
    pub fn merge(&mut self, other: &LayoutUsage) {
        merge_fields(&mut self.fields, &other.fields);
    }
}

/// Adds the entries `theirs` of a usage of the same layout to `mine`.
pub(crate) fn merge_fields(mine: &mut [FieldUsage], theirs: &[FieldUsage]) {
    for (mine, theirs) in mine.iter_mut().zip(theirs) {
        mine.seen += theirs.seen;
        for v in theirs.largest.iter().chain(&theirs.least) {
            mine.record(v);
        }
    }
}

/// Observes the decoded `value` of a key of `key`'s layout into its usage `entries` (as
/// [`DynLayout::usage`] made them).
pub(crate) fn observe_fields(key: &DynKey, value: &DynValue, entries: &mut [FieldUsage]) {
    observe_key(key, value, entries);
}

impl FieldUsage {
    /// The headroom above the largest value seen and below the least; `None` before a value.
    pub fn headroom(&self) -> Option<Headroom> {
        let (largest, least) = (self.largest.as_ref()?, self.least.as_ref()?);
        let top = |end: u128, v: u128| Headroom {
            digits_left: digits(end).saturating_sub(digits(v)),
            fraction_left: if end == 0 { 0.0 } else { (end - v.min(end)) as f64 / end as f64 },
        };
        Some(match (&self.capacity, largest, least) {
            (Capacity::Signed { least: lo, largest: hi }, DynValue::Signed(v), DynValue::Signed(w)) => {
                let above = top(hi.max(&0).unsigned_abs(), v.max(&0).unsigned_abs());
                let below = top(lo.min(&0).unsigned_abs(), w.min(&0).unsigned_abs());
                if below.fraction_left < above.fraction_left { below } else { above }
            }
            (
                Capacity::Unsigned { largest: end } | Capacity::Timestamp { largest: end, .. },
                DynValue::Unsigned(v),
                _,
            ) => top(*end, *v),
            _ => return None,
        })
    }

    fn record(&mut self, value: &DynValue) {
        let beyond = |kept: &Option<DynValue>, above: bool| match (kept, value) {
            (None, _) => true,
            (Some(DynValue::Unsigned(k)), DynValue::Unsigned(v)) => (v > k) == above && v != k,
            (Some(DynValue::Signed(k)), DynValue::Signed(v)) => (v > k) == above && v != k,
            _ => false,
        };
        if beyond(&self.largest, true) {
            self.largest = Some(value.clone());
        }
        if beyond(&self.least, false) {
            self.least = Some(value.clone());
        }
    }

    fn observe(&mut self, value: &DynValue) {
        let value = match (value, &self.capacity) {
            (DynValue::Option(None), _) => return,
            (DynValue::Option(Some(v)), _) => return self.observe(v),
            (DynValue::Timestamp(t), Capacity::Timestamp { unit, .. }) => {
                let nanos = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
                DynValue::Unsigned(nanos / unit.nanos())
            }
            (DynValue::Unsigned(_) | DynValue::Signed(_), _) => value.clone(),
            _ => return,
        };
        self.seen += 1;
        self.record(&value);
    }
}

/// Decimal digits of `v` (1 for 0).
fn digits(v: u128) -> u32 {
    v.checked_ilog10().map_or(1, |d| d + 1)
}

/// Whether a field of type `ty` has a capacity (an entry of its own).
fn measured(ty: &DynType) -> bool {
    matches!(ty.innermost(), DynType::Unsigned(_) | DynType::Signed(_) | DynType::Timestamp)
}

/// How many entries `usage` makes for a key (to skip those of a variant not taken).
fn count(key: &DynKey) -> usize {
    match &key.body {
        DynBody::Fields(fields) => fields
            .iter()
            .map(|f| match f.ty.innermost() {
                DynType::Key(inner) => count(inner),
                ty => usize::from(measured(ty)),
            })
            .sum(),
        DynBody::Family(variants) => {
            variants.iter().map(|v| if let DynVariant::Key(k) = v { count(k) } else { 0 }).sum()
        }
        DynBody::Custom => 0,
    }
}

/// The value under any `Some`; `None` for `None`.
fn present(value: &DynValue) -> Option<&DynValue> {
    match value {
        DynValue::Option(inner) => present(inner.as_deref()?),
        v => Some(v),
    }
}

/// Observes a key's value into its entries (`entries` starts at the key's first, as `usage`
/// made them).
fn observe_key(key: &DynKey, value: &DynValue, entries: &mut [FieldUsage]) {
    match (&key.body, value) {
        (DynBody::Fields(fields), DynValue::Key(values)) => {
            let mut at = 0;
            for (i, field) in fields.iter().enumerate() {
                // A decoded value holds the fields in the layout's order; another, by name.
                let named = |(name, _): &&(&str, DynValue)| *name == field.name;
                let value = values.get(i).filter(named).or_else(|| values.iter().find(named)).map(|(_, v)| v);
                let value = value.and_then(present);
                match field.ty.innermost() {
                    DynType::Key(inner) => {
                        let n = count(inner);
                        if let (Some(value), Some(slice)) = (value, entries.get_mut(at..at + n)) {
                            observe_key(inner, value, slice);
                        }
                        at += n;
                    }
                    ty if measured(ty) => {
                        if let (Some(value), Some(entry)) = (value, entries.get_mut(at)) {
                            entry.observe(value);
                        }
                        at += 1;
                    }
                    _ => {}
                }
            }
        }
        (DynBody::Family(variants), DynValue::Variant(name, Some(inner))) => {
            let mut at = 0;
            for variant in variants {
                let DynVariant::Key(key) = variant else { continue };
                let n = count(key);
                if key.prefix.as_deref() == Some(name.as_str()) {
                    if let Some(slice) = entries.get_mut(at..at + n) {
                        observe_key(key, inner, slice);
                    }
                    return;
                }
                at += n;
            }
        }
        _ => {}
    }
}

#[cfg(feature = "serde")]
mod json {
    //! [`FieldUsage`] in JSON: the values seen by the one rule for integers, read back as the
    //! field's capacity says (signed or not).

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{FieldUsage, Headroom};
    use crate::dynamic::capacity::Capacity;
    use crate::dynamic::value::DynValue;

    #[derive(Serialize)]
    struct Written<'a> {
        path: &'a str,
        values: u64,
        least: Option<&'a DynValue>,
        largest: Option<&'a DynValue>,
        can_hold: &'a Capacity,
        headroom: Option<Headroom>,
    }

    #[derive(Deserialize)]
    struct Read {
        path: String,
        values: u64,
        least: Option<Seen>,
        largest: Option<Seen>,
        can_hold: Capacity,
        #[allow(dead_code, reason = "computed from the rest, read only to be accepted")]
        headroom: Option<Headroom>,
    }

    /// A value seen: of 0 or more (up to `u128::MAX`), or negative.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seen {
        Unsigned(#[serde(with = "crate::dynamic::exact")] u128),
        Signed(#[serde(with = "crate::dynamic::exact")] i128),
    }

    impl Serialize for FieldUsage {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            Written {
                path: &self.path,
                values: self.seen,
                least: self.least.as_ref(),
                largest: self.largest.as_ref(),
                can_hold: &self.capacity,
                headroom: self.headroom(),
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for FieldUsage {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let read = Read::deserialize(d)?;
            let value = |v: Option<Seen>| -> Result<Option<DynValue>, D::Error> {
                let signed = matches!(read.can_hold, Capacity::Signed { .. });
                let bad = |found: &dyn std::fmt::Display| {
                    let expected = if signed { "a value of the field's type" } else { "a value of 0 or more" };
                    serde::de::Error::custom(format_args!("`{}`: expected {expected}, found {found}", read.path))
                };
                Ok(match v {
                    None => None,
                    Some(Seen::Unsigned(v)) if signed => {
                        Some(DynValue::Signed(i128::try_from(v).map_err(|_| bad(&v))?))
                    }
                    Some(Seen::Unsigned(v)) => Some(DynValue::Unsigned(v)),
                    Some(Seen::Signed(v)) if signed => Some(DynValue::Signed(v)),
                    Some(Seen::Signed(v)) => return Err(bad(&v)),
                })
            };
            let (least, largest) = (value(read.least)?, value(read.largest)?);
            Ok(FieldUsage { path: read.path, capacity: read.can_hold, seen: read.values, least, largest })
        }
    }
}
