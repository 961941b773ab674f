//! Reading a key in its current layout or an older one during a migration: `#[key(legacy =
//! OldKey)]` declares the older layouts a key type also reads, converting each with `From`, and
//! reports which layout a key was in. Ranges during a migration run once per live layout; the
//! results merge in the current layout's order, each item once.

use crate::encoding::key::{DecodeKey, SortKey};
use crate::encoding::layout::Layout;
use crate::error::DecodeError;

/// A key decoded from whichever of its layouts it was written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Versioned<K> {
    /// The key, converted to the current layout's type.
    pub key: K,
    /// Which layout matched: 0 for the current one, 1 for the first `legacy` and so on.
    pub version: usize,
    /// The layout the key was written in.
    pub layout: &'static Layout,
}

impl<K> Versioned<K> {
    /// Whether the key is in the current layout, so a backfill need not rewrite it.
    pub fn is_current(&self) -> bool {
        self.version == 0
    }
}

/// A key type that also reads older layouts: derived with `#[key(legacy = OldKey)]`, once per
/// older type, newest first, each with `impl From<OldKey> for Key`.
pub trait Legacy: SortKey + Sized + for<'k> DecodeKey<'k> {
    /// The older layouts, in the order `decode_any` tries them.
    const LEGACY_LAYOUTS: &'static [&'static Layout];

    /// Decodes `key` in the current layout, else in each older one in turn, and converts it.
    /// A key no layout reads is the current layout's error. The current layout wins when two
    /// read the same string; the layouts' lock (tests/layouts.rs shows one) is where to see that
    /// they do not.
    fn decode_any(key: &str) -> Result<Versioned<Self>, DecodeError>;
}

/// The keys of one query per live layout, merged in the current layout's key order (descending
/// when `forward` is false), each key once even when it is in two layouts during a backfill; an
/// item in the current layout wins over its old copy.
pub fn merge_layouts<K: Legacy, V>(pages: Vec<Vec<(Versioned<K>, V)>>, forward: bool) -> Vec<(Versioned<K>, V)> {
    let mut all: Vec<(String, Versioned<K>, V)> =
        pages.into_iter().flatten().filter_map(|(k, v)| Some((k.key.encode().ok()?, k, v))).collect();
    all.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.version.cmp(&b.1.version)));
    all.dedup_by(|later, first| later.0 == first.0);
    if !forward {
        all.reverse();
    }
    all.into_iter().map(|(_, k, v)| (k, v)).collect()
}

/// The keys of one query per live layout, as a table returns them (`pages[v]` the keys, with
/// their items, of the query of version `v`: 0 the current layout, 1 the first `legacy`, ...,
/// as [`FieldCondition::on_versions`](crate::FieldCondition::on_versions) gives the conditions),
/// decoded and merged as [`merge_layouts`] does. A query's byte range may hold keys of another
/// version that its condition does not select (a narrower width's keys sort among the wider
/// ones'): only the keys in the queried version's layout are kept from each page, so every key
/// returned is one the condition selects; a key no layout reads is left out too.
pub fn merge_version_pages<K: Legacy, V>(pages: Vec<Vec<(String, V)>>, forward: bool) -> Vec<(Versioned<K>, V)> {
    let read = pages
        .into_iter()
        .enumerate()
        .map(|(version, page)| {
            page.into_iter()
                .filter_map(|(key, item)| K::decode_any(&key).ok().filter(|k| k.version == version).map(|k| (k, item)))
                .collect()
        })
        .collect();
    merge_layouts(read, forward)
}
