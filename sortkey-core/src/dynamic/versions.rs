//! A condition on a key's fields by name, independent of any one layout, and so the same
//! condition on every live version of a key (`#[key(legacy = ...)]`, a lock's `Current > Older`
//! line): each layout's own [`KeyCondition`], with a bound an older layout cannot hold clipped
//! to what it holds, or no condition at all when none of its keys can match. What a query of a
//! collection in the middle of a migration runs once per live layout.

use std::cmp::Ordering;
use std::time::SystemTime;

use crate::dynamic::capacity::Capacity;
use crate::dynamic::model::{DynField, DynLayout};
use crate::dynamic::query::DynQuery;
use crate::dynamic::value::DynValue;
use crate::encoding::layout::Layout;
use crate::error::{DecodeError, QueryError, QueryErrorKind};
use crate::migrate::legacy::Legacy;
use crate::query::Comparison;
use crate::query::condition::KeyCondition;

/// A condition on fields by name: a family's variant, fields fixed in order, then how it ends.
/// [`on`](Self::on) gives it on a layout, [`on_versions`](Self::on_versions) on each live
/// layout of a key type.
///
/// ```
/// use sortkey_core::query::Comparison;
/// use sortkey_core::{DynLayout, DynValue, FieldCondition, KeyCondition};
///
/// let current = DynLayout::parse("RUN#{score:u64 width=12 desc}#{player:text}")?;
/// let older = DynLayout::parse("RUN#{score:u64 width=8 desc}#{player:text}")?;
/// let high = FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(5_000_000));
/// assert_eq!(high.on(&current)?, Some(KeyCondition::Between("RUN#".into(), "RUN#999994999999$".into())));
/// assert_eq!(high.on(&older)?, Some(KeyCondition::Between("RUN#".into(), "RUN#94999999$".into())));
/// // A bound the older layout cannot hold: none of its keys can match.
/// let higher = FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(500_000_000));
/// assert_eq!(higher.on(&older)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FieldCondition {
    /// A family's variant, by its prefix or literal.
    pub variant: Option<String>,
    /// Fields fixed, in the layout's order, by name.
    pub fixed: Vec<(String, DynValue)>,
    /// How the condition ends.
    pub end: ConditionEnd,
}

/// How a [`FieldCondition`] ends, after its fixed fields.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionEnd {
    /// Every key with the fixed fields (`begins_with`), or the one key when all are fixed.
    Prefix,
    /// The one key whose fields are all fixed.
    Eq,
    /// The next field, by name, compared with a value.
    Compare(String, Comparison, DynValue),
    /// The next field, by name, between two values (inclusive).
    Between(String, DynValue, DynValue),
    /// The next field, a text, starting with a prefix.
    TextPrefix(String, String),
}

impl Default for FieldCondition {
    fn default() -> Self {
        FieldCondition::new()
    }
}

impl FieldCondition {
    /// Every key (of the layout, or of the variant picked next).
    pub fn new() -> Self {
        FieldCondition { variant: None, fixed: Vec::new(), end: ConditionEnd::Prefix }
    }

    /// A family's variant, by its prefix (or a unit variant's literal).
    pub fn variant(mut self, name: &str) -> Self {
        self.variant = Some(name.to_owned());
        self
    }

    /// Fixes the next field.
    pub fn fix(mut self, name: &str, value: DynValue) -> Self {
        self.fixed.push((name.to_owned(), value));
        self
    }

    /// Ends with the one key whose fields are all fixed.
    pub fn eq(mut self) -> Self {
        self.end = ConditionEnd::Eq;
        self
    }

    /// Ends with the next field compared with `value`.
    pub fn compare(mut self, name: &str, cmp: Comparison, value: DynValue) -> Self {
        self.end = ConditionEnd::Compare(name.to_owned(), cmp, value);
        self
    }

    /// Ends with the next field between `low` and `high` (inclusive).
    pub fn between(mut self, name: &str, low: DynValue, high: DynValue) -> Self {
        self.end = ConditionEnd::Between(name.to_owned(), low, high);
        self
    }

    /// Ends with the next field, a text, starting with `prefix`.
    pub fn text_begins_with(mut self, name: &str, prefix: &str) -> Self {
        self.end = ConditionEnd::TextPrefix(name.to_owned(), prefix.to_owned());
        self
    }

    /// The condition on `layout`'s keys: `None` when none of them can match (a fixed value, or
    /// the lower end of a range, beyond what its field holds; an empty range); a range end beyond
    /// what the field holds is clipped to it. An error is the layout's refusal (a field it does not have, out of
    /// order, of another type), as its query builder gives it.
    pub fn on(&self, layout: &DynLayout) -> Result<Option<KeyCondition>, QueryError> {
        let mut query = layout.query();
        if let Some(variant) = &self.variant {
            query = query.variant(variant);
        }
        for (name, value) in &self.fixed {
            if fit(query.next_field(), name, value) != Ordering::Equal {
                return Ok(None);
            }
            query = query.fix(name, value);
        }
        let condition = match &self.end {
            ConditionEnd::Prefix => query.begins_with().map(Some),
            ConditionEnd::Eq => query.eq().map(Some),
            ConditionEnd::TextPrefix(name, prefix) => query.text_begins_with(name, prefix).map(Some),
            ConditionEnd::Compare(name, cmp, value) => compare(query, name, *cmp, value),
            ConditionEnd::Between(name, low, high) => between(query, name, low, high),
        };
        match condition {
            // A range no key is in (below the least value, `low > high`): no condition to run.
            Err(e) if matches!(e.kind(), QueryErrorKind::EmptyRange) => Ok(None),
            other => other,
        }
    }

    /// The widest condition `layout` can express of this one: its variant and the longest run
    /// of the fixed fields that it puts first, in this order, then every key with them; `None`
    /// when it can express none (no such variant) or none of its keys can match.
    pub fn widest_on(&self, layout: &DynLayout) -> Option<KeyCondition> {
        (0..=self.fixed.len()).rev().find_map(|n| {
            let wider = FieldCondition {
                variant: self.variant.clone(),
                fixed: self.fixed[..n].to_vec(),
                end: ConditionEnd::Prefix,
            };
            wider.on(layout).ok()
        })?
    }

    /// The condition on each live layout of `K`: the current one first (version 0), then each
    /// older one (`#[key(legacy = ...)]`, version 1, 2, ...), each `None` when none of its keys
    /// can match. Run one query per `Some`, and merge their pages with
    /// [`merge_layouts`](crate::merge_layouts). An older layout that cannot say the condition
    /// (it orders the fields otherwise) is refused
    /// ([`QueryErrorKind::OlderLayout`](crate::QueryErrorKind::OlderLayout), naming `K`, the
    /// field and the layout): the lock's [`LiveLayouts`] reads such a layout instead.
    pub fn on_versions<K: Legacy>(&self) -> Result<Vec<Option<KeyCondition>>, QueryError> {
        let layouts = std::iter::once(&K::LAYOUT).chain(K::LEGACY_LAYOUTS.iter().copied());
        let name = std::any::type_name::<K>().rsplit("::").next().unwrap_or_default();
        layouts
            .enumerate()
            .map(|(version, layout): (usize, &Layout)| {
                self.on(&DynLayout::from(layout)).map_err(|e| match version {
                    0 => QueryError::new(name, e.field(), e.kind().clone()),
                    _ => QueryError::new(
                        name,
                        e.field(),
                        QueryErrorKind::OlderLayout {
                            version,
                            layout: layout.to_string(),
                            reason: Box::new(e.kind().clone()),
                        },
                    ),
                })
            })
            .collect()
    }
}

/// `field <cmp> value` on the query, `value` beyond the field's range first brought in.
fn compare(
    query: DynQuery<'_>,
    name: &str,
    cmp: Comparison,
    value: &DynValue,
) -> Result<Option<KeyCondition>, QueryError> {
    let at = fit(query.next_field(), name, value);
    let every = |query: DynQuery<'_>| query.begins_with().map(Some);
    match (cmp, at) {
        (_, Ordering::Equal) => query.compare(name, cmp, value).map(Some),
        // Above the field's largest value: none above it, every key below it.
        (Comparison::Gt | Comparison::Ge, Ordering::Greater) => Ok(None),
        (Comparison::Lt | Comparison::Le, Ordering::Greater) => every(query),
        // Below its least: every key above it, none below.
        (Comparison::Gt | Comparison::Ge, Ordering::Less) => every(query),
        (Comparison::Lt | Comparison::Le, Ordering::Less) => Ok(None),
    }
}

/// `low <= field <= high` on the query, each end beyond the field's range clipped to it.
fn between(
    query: DynQuery<'_>,
    name: &str,
    low: &DynValue,
    high: &DynValue,
) -> Result<Option<KeyCondition>, QueryError> {
    let field = query.next_field();
    match (fit(field, name, low), fit(field, name, high)) {
        (Ordering::Equal, Ordering::Equal) => query.between(name, low, high).map(Some),
        (Ordering::Greater, _) | (_, Ordering::Less) => Ok(None),
        (Ordering::Less, Ordering::Greater) => query.begins_with().map(Some),
        (Ordering::Less, Ordering::Equal) => query.compare(name, Comparison::Le, high).map(Some),
        (Ordering::Equal, Ordering::Greater) => query.compare(name, Comparison::Ge, low).map(Some),
    }
}

/// Where `value` lies against the range of `field` (when it is the field named `name`): below
/// its least value, within it, or above its largest. A field without a range (text, a float), a
/// value of another type, or another field: within (the query builder judges those).
fn fit(field: Option<&DynField>, name: &str, value: &DynValue) -> Ordering {
    let Some(capacity) = field.filter(|f| f.name == name).and_then(DynField::capacity) else {
        return Ordering::Equal;
    };
    let value = match value {
        DynValue::Option(Some(inner)) => inner,
        other => other,
    };
    let beyond = |v: i128, least: i128, largest: i128| {
        if v < least {
            Ordering::Less
        } else if v > largest {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    };
    match (capacity, value) {
        (Capacity::Unsigned { largest }, DynValue::Unsigned(v)) => v.cmp(&largest).max(Ordering::Equal),
        (Capacity::Signed { least, largest }, DynValue::Signed(v)) => beyond(*v, least, largest),
        (Capacity::Timestamp { unit, largest, .. }, DynValue::Timestamp(t)) => {
            let nanos = t.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            (nanos / unit.nanos()).cmp(&largest).max(Ordering::Equal)
        }
        _ => Ordering::Equal,
    }
}

/// The live layouts of one key, current first, then its older versions newest first (a lock's
/// [`LockFile::live`](crate::LockFile::live)): the condition on each, and the merge of their
/// queries' pages into the results in the current layout's order, each key once, with every key
/// a query returned that is no result set beside them.
#[derive(Debug, Clone)]
pub struct LiveLayouts<'l> {
    layouts: Vec<(&'l str, &'l DynLayout)>,
}

/// A key one of the live layouts reads, within the condition: a result.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveKey<V> {
    /// The key as stored.
    pub key: String,
    /// Its version: 0 for the current layout, 1 for the newest older one, ...
    pub version: usize,
    /// Its value, decoded in its own layout.
    pub value: DynValue,
    /// Its key in the current layout (the key itself for the current version): the order of the
    /// results.
    pub current_key: String,
    /// What came with it (the item).
    pub item: V,
}

/// A key a query returned that is no result.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outside {
    /// The key.
    pub key: String,
    /// The live layout that reads it (by name), or `None` when none does.
    pub layout: Option<String>,
    /// Why it is no result.
    pub reason: String,
}

/// A cursor (a previous page's `next`) that the current layout of the key does not read: a cursor
/// of another key, or one changed on its way back.
#[derive(Debug, Clone, PartialEq)]
pub struct CursorError {
    /// The cursor.
    pub cursor: String,
    /// The current layout (by name) that was to read it.
    pub layout: String,
    /// Why it does not read it.
    pub error: DecodeError,
}

impl std::fmt::Display for CursorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the cursor `{}` is no `{}` key: {}", self.cursor, self.layout, self.error)
    }
}

impl std::error::Error for CursorError {}

/// The merged results of one query per live layout.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveResults<V> {
    /// The keys within the condition, in the current layout's order, each once (the current
    /// copy of a key kept over an older one not yet deleted).
    pub results: Vec<LiveKey<V>>,
    /// Keys the queries returned that are no result: read by no live layout, outside the
    /// condition in the layout that reads them, or with no key in the current layout.
    pub outside: Vec<Outside>,
    /// How many of the results are in each version's layout.
    pub per_version: Vec<u64>,
}

impl<V> LiveResults<V> {
    /// Keeps a page of the results: those after `cursor` (a current layout's key; all when
    /// `None`) in the read's direction (ascending when `forward`), at most `limit` of them.
    /// Returns whether the limit left some out.
    pub fn page(&mut self, cursor: Option<&str>, forward: bool, limit: usize) -> bool {
        if let Some(c) = cursor {
            self.results.retain(|r| if forward { r.current_key.as_str() > c } else { r.current_key.as_str() < c });
        }
        let cut = self.results.len() > limit;
        self.results.truncate(limit);
        self.per_version.iter_mut().for_each(|n| *n = 0);
        for r in &self.results {
            self.per_version[r.version] += 1;
        }
        cut
    }
}

impl<'l> LiveLayouts<'l> {
    /// The live layouts `layouts`, current first (as [`LockFile::live`](crate::LockFile::live)
    /// gives them).
    pub fn new(layouts: Vec<(&'l str, &'l DynLayout)>) -> Self {
        LiveLayouts { layouts }
    }

    /// The layouts, current first, each with its name.
    pub fn layouts(&self) -> &[(&'l str, &'l DynLayout)] {
        &self.layouts
    }

    /// `condition` on each layout, `None` for one none of whose keys can match. An error is the
    /// current layout's refusal. An older layout that refuses it (its fields in another order)
    /// gets the widest condition it can express (its variant and the fixed fields it puts first,
    /// every key with them): its keys are then results only when their key in the current
    /// layout meets the current condition ([`read`](Self::read)), so none is missed.
    pub fn conditions(&self, condition: &FieldCondition) -> Result<Vec<Option<KeyCondition>>, QueryError> {
        let mut out = Vec::with_capacity(self.layouts.len());
        for (i, (_, layout)) in self.layouts.iter().enumerate() {
            match condition.on(layout) {
                Ok(c) => out.push(c),
                Err(e) if i == 0 => return Err(e),
                Err(_) => out.push(condition.widest_on(layout)),
            }
        }
        Ok(out)
    }

    /// Whether a layout's keys sort as the current layout's do (the same fields in the same order,
    /// each the same way up): then the first results of its query are the first in the current
    /// order too, and a query with a limit can stop there.
    pub fn sorts_as_current(&self, version: usize) -> bool {
        let shape = |l: &DynLayout| -> Vec<(String, bool)> {
            l.field_paths().into_iter().map(|(path, f)| (path, f.desc)).collect()
        };
        match (self.layouts.first(), self.layouts.get(version)) {
            (Some((_, current)), Some((_, layout))) => shape(current) == shape(layout),
            _ => false,
        }
    }

    /// Where each version's query of the page after `cursor` starts: the key `cursor` (a
    /// result's key in the current layout, as [`LiveKey::current_key`] and the page's `next` give
    /// it) has in that version's layout, to read after as DynamoDB's `ExclusiveStartKey` (the key
    /// need not exist). `None` for a version read from the start of its condition: one whose keys
    /// sort otherwise than the current layout's, or that cannot hold the cursor's value; the
    /// results at or before the cursor are then dropped by [`LiveResults::page`]. An error when
    /// the current layout does not read `cursor`.
    pub fn starts(&self, cursor: &str) -> Result<Vec<Option<String>>, CursorError> {
        let Some((name, current)) = self.layouts.first() else { return Ok(Vec::new()) };
        let value = current.decode(cursor).map_err(|error| CursorError {
            cursor: cursor.to_owned(),
            layout: (*name).to_owned(),
            error,
        })?;
        Ok((0..self.layouts.len())
            .map(|version| {
                if planted_bug!(CursorFromWrongVersion) {
                    return Some(cursor.to_owned());
                }
                let (_, layout) = self.layouts[version];
                self.sorts_as_current(version).then(|| layout.encode(&value).ok()).flatten()
            })
            .collect())
    }

    /// Classifies one key a query returned: the live layout that reads it (the first), its
    /// value, and whether `conditions` (as [`conditions`](Self::conditions) gave them) select it.
    pub fn read(&self, key: &str, conditions: &[Option<KeyCondition>]) -> Result<(usize, DynValue), Outside> {
        let outside = |layout: Option<&str>, reason: String| Outside {
            key: key.to_owned(),
            layout: layout.map(str::to_owned),
            reason,
        };
        let Some((version, value)) =
            self.layouts.iter().enumerate().find_map(|(i, (_, l))| l.decode(key).ok().map(|v| (i, v)))
        else {
            let names: Vec<&str> = self.layouts.iter().map(|(n, _)| *n).collect();
            return Err(outside(None, format!("no version of the layout reads it ({})", names.join(", "))));
        };
        let name = self.layouts[version].0;
        let selected = conditions.get(version).and_then(Option::as_ref).is_some_and(|c| c.matches(key));
        // An older key is also held to the current condition, through its key in the current
        // layout: what its own layout's condition could not say (a widest condition) is said
        // there. A value with no current key is [`merge`](Self::merge)'s to report.
        let current = conditions.first().and_then(Option::as_ref);
        let within = version == 0
            || match self.current_key(version, key, &value) {
                Ok(current_key) => current.is_some_and(|c| c.matches(&current_key)),
                Err(_) => true,
            };
        match selected && within {
            true => Ok((version, value)),
            false => Err(outside(Some(name), format!("it is a `{name}` key outside the condition"))),
        }
    }

    /// Merges the keys each layout's query returned (`pages[v]`, with their items), by
    /// `conditions`, into the results in the current layout's order (descending when `forward` is
    /// false), each key once.
    pub fn merge<V>(
        &self,
        conditions: &[Option<KeyCondition>],
        pages: Vec<Vec<(String, V)>>,
        forward: bool,
    ) -> LiveResults<V> {
        let mut per_version = vec![0u64; self.layouts.len()];
        let mut results = Vec::new();
        let mut outside: Vec<Outside> = Vec::new();
        for (key, item) in pages.into_iter().flatten() {
            match self.read(&key, conditions) {
                Ok((version, value)) => match self.current_key(version, &key, &value) {
                    Ok(current_key) => results.push(LiveKey { key, version, value, current_key, item }),
                    Err(reason) => {
                        outside.push(Outside { layout: Some(self.layouts[version].0.to_owned()), key, reason })
                    }
                },
                Err(o) if !outside.iter().any(|seen| seen.key == o.key) => outside.push(o),
                Err(_) => {}
            }
        }
        results.sort_by(|a, b| a.current_key.cmp(&b.current_key).then(a.version.cmp(&b.version)));
        if !planted_bug!(VersionCopiesTwice) {
            results.dedup_by(|later, first| later.current_key == first.current_key);
        }
        for r in &results {
            per_version[r.version] += 1;
        }
        if !forward {
            results.reverse();
        }
        outside.sort_by(|a, b| a.key.cmp(&b.key));
        LiveResults { results, outside, per_version }
    }

    /// The key of `value` (read in `version`) in the current layout.
    pub(crate) fn current_key(&self, version: usize, key: &str, value: &DynValue) -> Result<String, String> {
        if version == 0 {
            return Ok(key.to_owned());
        }
        let (name, current) = self.layouts[0];
        current.encode(value).map_err(|e| format!("its value has no `{name}` key: {e}"))
    }
}
