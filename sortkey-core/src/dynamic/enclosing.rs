//! A typed condition on the older layouts of its key: the condition a derived type's builder
//! gives is bytes on the current layout, and an older layout writes the same values otherwise.
//! Its bounds are read back as the fields they fix ([`FieldCondition::enclosing`]), and that
//! field condition is said on each older layout ([`LiveLayouts::enclosing_conditions`]); the
//! older keys it selects are then held to the typed condition through their current key
//! ([`LiveLayouts::read`]), so that none is missed and none is wrongly a result.

use crate::dynamic::model::{DynBody, DynLayout};
use crate::dynamic::value::DynValue;
use crate::dynamic::versions::{ConditionEnd, FieldCondition, LiveLayouts};
use crate::error::{QueryError, QueryErrorKind};
use crate::query::Comparison;
use crate::query::condition::KeyCondition;

impl FieldCondition {
    /// A condition by field names whose keys on `layout` include every key `condition` (a
    /// condition on `layout`'s keys, as its builder gives it) selects: the fields both of its
    /// bounds fix alike, then the next field between what each bound says of it (inclusive,
    /// each end open when the bound says nothing). Said on an older layout of the same fields it
    /// selects every older key whose current key `condition` selects, and few others.
    ///
    /// `None` when `layout` is no layout of fields (a family, a hand-written key) or a bound
    /// does not start with its prefix: nothing can be said of its fields.
    ///
    /// ```
    /// use sortkey_core::query::Comparison;
    /// use sortkey_core::{DynLayout, DynValue, FieldCondition};
    ///
    /// let layout = DynLayout::parse("TICKET#{created:u64 width=13 desc}#{no:u32 width=10}")?;
    /// let at = DynValue::Unsigned(1_700_000_000_000);
    /// let typed = FieldCondition::new().fix("created", at.clone()).compare("no", Comparison::Ge, DynValue::Unsigned(30));
    /// let condition = typed.on(&layout)?.unwrap();
    /// let enclosing = FieldCondition::enclosing(&layout, &condition).unwrap();
    /// assert_eq!(enclosing, typed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn enclosing(layout: &DynLayout, condition: &KeyCondition) -> Option<FieldCondition> {
        let DynBody::Fields(fields) = &layout.key.body else { return None };
        let range = |bound: &str| layout.leading_fields(bound, true);
        let (low, high) = match condition {
            KeyCondition::Eq(key) => (range(key)?, range(key)?),
            KeyCondition::BeginsWith(prefix) => {
                let fixed = layout.leading_fields(prefix, false)?;
                (fixed.clone(), fixed)
            }
            KeyCondition::Gt(bound) | KeyCondition::Ge(bound) => (range(bound)?, Vec::new()),
            KeyCondition::Lt(bound) | KeyCondition::Le(bound) => (Vec::new(), range(bound)?),
            KeyCondition::Between(lo, hi) => (range(lo)?, range(hi)?),
        };
        let common = low.iter().zip(&high).take_while(|(a, b)| a == b).count();
        let fixed: Vec<(String, DynValue)> = low[..common].iter().map(|(n, v)| ((*n).to_owned(), v.clone())).collect();
        let Some(next) = fields.get(common) else {
            return Some(FieldCondition { variant: None, fixed, end: ConditionEnd::Eq });
        };
        let at = |side: &[(&'static str, DynValue)]| side.get(common).map(|(_, v)| v.clone());
        // The bounds are bytes: on a `desc` field the lower one holds the greater value.
        let desc = next.desc && !planted_bug!(EnclosingIgnoresDesc);
        let (least, greatest) = if desc { (at(&high), at(&low)) } else { (at(&low), at(&high)) };
        let name = next.name.to_owned();
        let end = match (least, greatest) {
            (Some(l), Some(g)) => ConditionEnd::Between(name, l, g),
            (Some(l), None) => ConditionEnd::Compare(name, Comparison::Ge, l),
            (None, Some(g)) => ConditionEnd::Compare(name, Comparison::Le, g),
            (None, None) => ConditionEnd::Prefix,
        };
        Some(FieldCondition { variant: None, fixed, end })
    }
}

impl LiveLayouts<'_> {
    /// The condition on each live layout of a typed condition on the current one: `current`
    /// itself first, then for each older layout the [enclosing](FieldCondition::enclosing)
    /// field condition said on it, or, when it orders the fields otherwise, the widest condition
    /// it can express; `None` for an older layout none of whose keys can match. Every older key
    /// these select is a result only when its current key meets `current`
    /// ([`read`](Self::read)), so the results are exactly what `current` selects once every key
    /// is in the current layout.
    ///
    /// An error names the layout that cannot be read so: a current layout that is no layout of
    /// fields (a family), or an older one that can express no condition of the fields.
    pub fn enclosing_conditions(&self, current: &KeyCondition) -> Result<Vec<Option<KeyCondition>>, QueryError> {
        let mut out = vec![Some(current.clone())];
        let Some(((name, layout), older)) = self.layouts().split_first() else { return Ok(out) };
        if older.is_empty() {
            return Ok(out);
        }
        let refused = |version: usize, layout: &DynLayout, expected: &str, found: String| {
            let reason = QueryErrorKind::OutOfOrder { expected: expected.to_owned(), found };
            let kind = QueryErrorKind::OlderLayout { version, layout: layout.to_string(), reason: Box::new(reason) };
            QueryError::new(spec_name(name), None, kind)
        };
        let Some(fields) = FieldCondition::enclosing(layout, current) else {
            let (_, oldest) = older[0];
            let found = format!("the condition {current:?} on `{layout}`");
            return Err(refused(1, oldest, "a condition on a current layout of fields, read by its fields", found));
        };
        for (i, (_, older)) in older.iter().enumerate() {
            match fields.on(older) {
                Ok(condition) => out.push(condition),
                Err(e) => match fields.widest_on(older) {
                    Some(condition) => out.push(Some(condition)),
                    None => {
                        let found = format!("{e}");
                        return Err(refused(i + 1, older, "a condition its fields can say", found));
                    }
                },
            }
        }
        Ok(out)
    }
}

/// A layout's name, kept for the life of the program as an error's key name is.
fn spec_name(name: &str) -> &'static str {
    crate::dynamic::spec::intern(name)
}
