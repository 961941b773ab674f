//! A page of an index's Query read across the live layouts of the index's sort key. An index
//! key is not unique: many items can share one, in an order DynamoDB does not promise, so a page
//! is ordered by the key in the current layout and then by the item's primary key, and its cursor
//! holds both. Each layout whose keys sort as the current one's is read from the cursor's key as
//! that layout writes it (the condition narrowed to start there) until it has given more than a
//! page of its own results and the key at the page's end is past (its ties all read); any other
//! layout is read whole. What [`query_page`](super::query_page) does for an index query whose
//! sort key has `legacy`.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

use crate::dynamic::{DynValue, LiveKey, LiveLayouts, LiveResults, Outside};
use crate::query::condition::KeyCondition;

use super::Attributes;
use super::failed::RequestError;
use super::versions::VersionsError;

/// The paged read of one partition of a global secondary index across the live layouts of the
/// index's sort key: which index and partition, the table's own key attributes, in which
/// direction and how many results a page. What [`VersionsQuery`](super::VersionsQuery) is for a
/// table's own sort key: an index key is not unique, so a page is ordered by the key in the
/// current layout and then by the item's primary key, and its cursor ([`IndexCursor`]) holds
/// both.
#[derive(Debug, Clone, Copy)]
pub struct IndexVersionsQuery<'a> {
    /// The table.
    pub table: &'a str,
    /// The global secondary index.
    pub index: &'a str,
    /// The index's partition key, encoded.
    pub partition: &'a str,
    /// The index's partition key attribute.
    pub partition_attribute: &'a str,
    /// The index's sort key attribute.
    pub sort_attribute: &'a str,
    /// The table's own key attributes: its partition key's, and its sort key's when it has one.
    pub table_keys: (&'a str, Option<&'a str>),
    /// Ascending in the current layout's order, or descending.
    pub forward: bool,
    /// The results a page returns.
    pub limit: usize,
}

/// Where a page of an [`IndexVersionsQuery`] ends: its last result's index key in the current
/// layout, and the item's primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexCursor {
    /// The index key, in the current layout.
    pub key: String,
    /// The item's partition key.
    pub partition: String,
    /// The item's sort key ("" for a table of a partition key alone).
    pub sort: String,
}

/// One page of an [`IndexVersionsQuery`].
#[derive(Debug, Clone, PartialEq)]
pub struct IndexVersionsPage {
    /// The results, at most the query's limit, in its direction (ties of an index key by the
    /// item's primary key), each item once, and the keys the Queries returned that are no
    /// result.
    pub results: LiveResults<Attributes>,
    /// Where the next page starts; `None` after the last page.
    pub next: Option<IndexCursor>,
    /// The items the Queries returned, those beyond the page included: what the page cost.
    pub read: usize,
    /// Of those, the items each version's Query returned (current version first).
    pub read_per_version: Vec<u64>,
    /// The Query requests made.
    pub requests: usize,
    /// The read units they consumed (`ConsumedCapacity`).
    pub read_units: f64,
}

impl IndexVersionsQuery<'_> {
    /// The page after `cursor` (a previous page's `next`) of the results of `conditions` (as
    /// [`LiveLayouts::conditions`] gives them for `live`). A version whose keys sort as the
    /// current layout's is read from the cursor's key as that version writes it until the page
    /// and every tie of its last key are read; another version is read whole. A request that
    /// fails is the error ([`VersionsError::Request`]); a limit of 0 is refused.
    pub async fn run(
        &self,
        client: &Client,
        live: &LiveLayouts<'_>,
        conditions: &[Option<KeyCondition>],
        cursor: Option<&IndexCursor>,
    ) -> Result<IndexVersionsPage, VersionsError> {
        if self.limit == 0 {
            return Err(VersionsError::NoLimit { table: self.table.to_owned() });
        }
        let read = IndexRead {
            table: self.table,
            index: Some(self.index),
            partition: (self.partition_attribute, self.partition),
            sort_attribute: self.sort_attribute,
            primary: self.table_keys,
            current_primary: None,
        };
        let after = cursor.map(|c| (c.key.clone(), (c.partition.clone(), c.sort.clone())));
        let page = page(client, &read, live, conditions, (after.as_ref(), self.forward), self.limit)
            .await
            .map_err(VersionsError::Request)?;
        let next = page.items.last().filter(|_| page.more).map(|last| {
            let ((partition, sort), _) = read.primary_of(&last.item);
            IndexCursor { key: last.current_key.clone(), partition, sort }
        });
        let mut per_version = vec![0u64; live.layouts().len()];
        for r in &page.items {
            per_version[r.version] += 1;
        }
        Ok(IndexVersionsPage {
            results: LiveResults { results: page.items, outside: page.outside, per_version },
            next,
            read: page.read,
            read_per_version: page.read_per_version,
            requests: page.requests,
            read_units: page.read_units,
        })
    }
}

/// An item's primary key as the current layouts write it, from its fields (`None` when they do
/// not read as the entity).
pub(super) type CurrentPrimary = dyn Fn(&Attributes) -> Option<(String, String)> + Sync;

/// Which index (or table) is read, and how its items are keyed.
pub(super) struct IndexRead<'a> {
    /// The table.
    pub(super) table: &'a str,
    /// The index; `None` for the table itself (a read of its whole partition).
    pub(super) index: Option<&'a str>,
    /// The index's partition key attribute and its value, encoded.
    pub(super) partition: (&'a str, &'a str),
    /// The index's sort key attribute.
    pub(super) sort_attribute: &'a str,
    /// The table's primary key attributes: its partition key's and its sort key's.
    pub(super) primary: (&'a str, Option<&'a str>),
    /// While the table's own key has older layouts: an item's primary key in the current ones
    /// (computed from its fields), so that an item moved and not yet deleted, in the index twice,
    /// orders and is kept once. `None` when the item's primary key is as stored.
    pub(super) current_primary: Option<&'a CurrentPrimary>,
}

impl IndexRead<'_> {
    /// `item`'s primary key, as text ("" for an attribute it lacks): in the current layouts when
    /// they can differ from the stored ones; and whether it is stored under it.
    fn primary_of(&self, item: &Attributes) -> ((String, String), bool) {
        let text = |name: Option<&str>| name.and_then(|n| item.get(n)?.as_s().ok().cloned()).unwrap_or_default();
        let stored = (text(Some(self.primary.0)), text(self.primary.1));
        match self.current_primary.and_then(|current| current(item)) {
            Some(current) => {
                let at_current = current == stored;
                (current, at_current)
            }
            None => (stored, true),
        }
    }
}

/// Where a page starts after: an item's index key in the current layout and its primary key.
pub(super) type KeyCursor = (String, (String, String));

/// One page: the items in the read's order (each with its index key as stored, its version, its
/// value and its key in the current layout), whether more follow, the keys the Queries returned
/// that are no result, and what the page cost: the items the Queries returned (in all and per
/// version), the requests and the read units.
pub(super) struct IndexPage {
    pub(super) items: Vec<LiveKey<Attributes>>,
    pub(super) more: bool,
    pub(super) outside: Vec<Outside>,
    pub(super) read: usize,
    pub(super) read_per_version: Vec<u64>,
    pub(super) requests: usize,
    pub(super) read_units: f64,
}

/// One item read: its index key (as stored and in the current layout), its version and value,
/// its primary key (in the current layouts), whether it is stored under that key, the item.
struct Found {
    key: String,
    version: usize,
    value: DynValue,
    current_key: String,
    primary: (String, String),
    at_current: bool,
    item: Attributes,
}

impl Found {
    fn order(&self) -> (&str, &str, &str) {
        (&self.current_key, &self.primary.0, &self.primary.1)
    }

    /// In the read's order (ascending when `forward`), two of one item (moved and not yet
    /// deleted) once, the copy under the current key kept.
    fn sort(all: &mut Vec<Found>, forward: bool) {
        all.sort_by(|a, b| a.order().cmp(&b.order()).then(b.at_current.cmp(&a.at_current)));
        all.dedup_by(|later, first| later.primary == first.primary);
        if !forward {
            all.reverse();
        }
    }

    fn result(self) -> LiveKey<Attributes> {
        LiveKey {
            key: self.key,
            version: self.version,
            value: self.value,
            current_key: self.current_key,
            item: self.item,
        }
    }
}

/// The items of a page by their key in the current layout.
pub(super) fn keyed(items: Vec<LiveKey<Attributes>>) -> Vec<(String, Attributes)> {
    items.into_iter().map(|r| (r.current_key, r.item)).collect()
}

/// Whether `found` comes after `cursor` in the read's direction.
fn beyond(found: &Found, cursor: Option<&KeyCursor>, forward: bool) -> bool {
    match cursor {
        Some((key, (pk, sk))) => {
            let at = (key.as_str(), pk.as_str(), sk.as_str());
            if forward { found.order() > at } else { found.order() < at }
        }
        None => true,
    }
}

/// The page after `cursor` of at most `limit` items the `conditions` (one per live layout, as
/// [`LiveLayouts::conditions`] or [`LiveLayouts::enclosing_conditions`] gives them) select, in
/// the current layout's order (descending when not `forward`), then the primary key's. A
/// request that fails is the error.
pub(super) async fn page(
    client: &Client,
    read: &IndexRead<'_>,
    live: &LiveLayouts<'_>,
    conditions: &[Option<KeyCondition>],
    (cursor, forward): (Option<&KeyCursor>, bool),
    limit: usize,
) -> Result<IndexPage, RequestError> {
    let limit = limit.max(1);
    let (mut all, mut more, mut outside) = (Vec::new(), false, Vec::<Outside>::new());
    let (mut items_read, mut requests, mut read_units) = (0, 0, 0.0);
    let mut read_per_version = vec![0u64; conditions.len()];
    for (version, condition) in conditions.iter().enumerate() {
        let Some(condition) = condition else { continue };
        let whole = !live.sorts_as_current(version);
        let narrowed = match (cursor, whole) {
            (Some((key, _)), false) => match start_in(live, version, key) {
                Some(start) if forward => narrow(condition, &start),
                Some(start) => narrow_below(condition, &start),
                None => Some(condition.clone()),
            },
            _ => Some(condition.clone()),
        };
        let Some(narrowed) = narrowed else { continue };
        let expression = narrowed.with_partition_key(read.partition.0, read.partition.1, read.sort_attribute);
        let (mut own, mut start): (Vec<Found>, Option<Attributes>) = (Vec::new(), None);
        loop {
            let query = client
                .query()
                .table_name(read.table)
                .set_index_name(read.index.map(str::to_owned))
                .scan_index_forward(forward)
                .set_limit((!whole).then(|| i32::try_from(limit + 1).unwrap_or(i32::MAX)))
                .set_exclusive_start_key(start.take())
                .return_consumed_capacity(ReturnConsumedCapacity::Total);
            let answer = expression
                .apply_to_query(query)
                .send()
                .await
                .map_err(|e| RequestError::from_sdk("Query", read.table, &e))?;
            requests += 1;
            items_read += answer.items().len();
            read_per_version[version] += answer.items().len() as u64;
            read_units += answer.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
            for item in answer.items() {
                match found(live, conditions, version, read, item) {
                    Ok(Some(found)) if beyond(&found, cursor, forward) => own.push(found),
                    Ok(_) => {}
                    Err(o) if !outside.iter().any(|seen| seen.key == o.key) => outside.push(o),
                    Err(_) => {}
                }
            }
            start = answer.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            if start.is_none() {
                break;
            }
            // Read in the current order: once more than a page is read and the last key read is
            // past the page's last, every item that can be in the page (ties included) is read.
            let past = |last: &str, edge: &str| if forward { last > edge } else { last < edge };
            if !whole
                && own.len() > limit
                && own.last().is_some_and(|f| past(&f.current_key, &own[limit - 1].current_key))
            {
                more = true;
                break;
            }
        }
        all.extend(own);
    }
    Found::sort(&mut all, forward);
    if all.len() > limit {
        all.truncate(limit);
        more = true;
    }
    outside.sort_by(|a, b| a.key.cmp(&b.key));
    let items = all.into_iter().map(Found::result).collect();
    Ok(IndexPage { items, more, outside, read: items_read, read_per_version, requests, read_units })
}

/// The page after `cursor` of at most `limit` items of the whole partition, for a key whose
/// layouts have no prefix and a query without a sort condition: no condition can be said of
/// one layout's keys alone, so the partition is read whole (one Query, paged), each key read by
/// the first live layout that reads it (a key none reads, another entity's, is left out), and
/// the items ordered by their key in the current layout, then their primary key. Every page
/// reads the whole partition: what it costs is in `read`.
pub(super) async fn page_whole(
    client: &Client,
    read: &IndexRead<'_>,
    live: &LiveLayouts<'_>,
    cursor: Option<&KeyCursor>,
    limit: usize,
) -> Result<IndexPage, RequestError> {
    let limit = limit.max(1);
    let (mut all, mut items_read, mut requests, mut start) = (Vec::new(), 0, 0, None::<Attributes>);
    let mut read_per_version = vec![0u64; live.layouts().len()];
    loop {
        let query = client
            .query()
            .table_name(read.table)
            .set_index_name(read.index.map(str::to_owned))
            .key_condition_expression("#pk = :pk")
            .expression_attribute_names("#pk", read.partition.0)
            .expression_attribute_values(":pk", aws_sdk_dynamodb::types::AttributeValue::S(read.partition.1.to_owned()))
            .set_exclusive_start_key(start.take());
        let answer = query.send().await.map_err(|e| RequestError::from_sdk("Query", read.table, &e))?;
        requests += 1;
        items_read += answer.items().len();
        for item in answer.items() {
            let Some(key) = item.get(read.sort_attribute).and_then(|v| v.as_s().ok()) else { continue };
            let Some((version, value)) =
                live.layouts().iter().enumerate().find_map(|(v, (_, l))| l.decode(key).ok().map(|value| (v, value)))
            else {
                continue;
            };
            let Ok(current_key) = live.current_key(version, key, &value) else { continue };
            read_per_version[version] += 1;
            let (primary, at_current) = read.primary_of(item);
            let key = key.clone();
            let found = Found { key, version, value, current_key, primary, at_current, item: item.clone() };
            if beyond(&found, cursor, true) {
                all.push(found);
            }
        }
        start = answer.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
        if start.is_none() {
            break;
        }
    }
    // A copy in two layouts (a table's item moved and not yet deleted) is one item: of the
    // table, its key in the current layout the same; of an index, its primary key.
    if read.index.is_none() {
        all.sort_by(|a, b| a.order().cmp(&b.order()));
        all.dedup_by(|later, first| later.current_key == first.current_key);
    } else {
        Found::sort(&mut all, true);
    }
    let more = all.len() > limit;
    all.truncate(limit);
    let items = all.into_iter().map(Found::result).collect();
    let (outside, read_units) = (Vec::new(), 0.0);
    Ok(IndexPage { items, more, outside, read: items_read, read_per_version, requests, read_units })
}

/// `item`, returned by the Query of `version`, when it is one of that version's results: its
/// index key read by that layout, within the conditions, with a key in the current layout.
/// A key no layout reads as a result is outside (the error); one another version reads is
/// that version's (`None`: its own Query returns it).
fn found(
    live: &LiveLayouts<'_>,
    conditions: &[Option<KeyCondition>],
    version: usize,
    read: &IndexRead<'_>,
    item: &Attributes,
) -> Result<Option<Found>, Outside> {
    let Some(key) = item.get(read.sort_attribute).and_then(|v| v.as_s().ok()) else { return Ok(None) };
    let (read_version, value) = live.read(key, conditions)?;
    if read_version != version {
        return Ok(None);
    }
    let current_key = live.current_key(version, key, &value).map_err(|reason| Outside {
        key: key.clone(),
        layout: Some(live.layouts()[version].0.to_owned()),
        reason,
    })?;
    let (primary, at_current) = read.primary_of(item);
    Ok(Some(Found { key: key.clone(), version, value, current_key, primary, at_current, item: item.clone() }))
}

/// The key `current` (a key of the current layout) has in the layout of `version`; `None` when
/// that layout cannot write its value.
fn start_in(live: &LiveLayouts<'_>, version: usize, current: &str) -> Option<String> {
    let layouts = live.layouts();
    let value = layouts.first()?.1.decode(current).ok()?;
    layouts.get(version)?.1.encode(&value).ok()
}

/// `condition` narrowed to the keys at or above `start`: `None` when none of its keys are.
/// Every key it selects at or above `start` is selected; a few more may be (the results are held
/// to the condition again).
fn narrow(condition: &KeyCondition, start: &str) -> Option<KeyCondition> {
    let s = start.to_owned();
    match condition {
        KeyCondition::Eq(x) => (x.as_str() >= start).then(|| condition.clone()),
        KeyCondition::Ge(x) => Some(KeyCondition::Ge(x.clone().max(s))),
        KeyCondition::Gt(x) => Some(if start > x.as_str() { KeyCondition::Ge(s) } else { condition.clone() }),
        KeyCondition::Le(x) | KeyCondition::Lt(x) => (start <= x.as_str()).then(|| KeyCondition::Between(s, x.clone())),
        KeyCondition::Between(lo, hi) => {
            let lo = lo.clone().max(s);
            (lo <= *hi).then(|| KeyCondition::Between(lo, hi.clone()))
        }
        KeyCondition::BeginsWith(p) if start <= p.as_str() => Some(condition.clone()),
        KeyCondition::BeginsWith(p) if start.starts_with(p.as_str()) => Some(KeyCondition::Between(s, above_prefix(p))),
        // Past every key with the prefix.
        KeyCondition::BeginsWith(_) => None,
    }
}

/// `condition` narrowed to the keys at or below `start`: `None` when none of its keys are.
/// Every key it selects at or below `start` is selected; a few more may be (the results are held
/// to the condition again).
fn narrow_below(condition: &KeyCondition, start: &str) -> Option<KeyCondition> {
    let s = start.to_owned();
    match condition {
        KeyCondition::Eq(x) => (x.as_str() <= start).then(|| condition.clone()),
        KeyCondition::Le(x) | KeyCondition::Lt(x) if start < x.as_str() => Some(KeyCondition::Le(s)),
        KeyCondition::Le(_) | KeyCondition::Lt(_) => Some(condition.clone()),
        KeyCondition::Ge(x) | KeyCondition::Gt(x) => (x.as_str() <= start).then(|| KeyCondition::Between(x.clone(), s)),
        KeyCondition::Between(lo, hi) => {
            let hi = hi.clone().min(s);
            (*lo <= hi).then(|| KeyCondition::Between(lo.clone(), hi))
        }
        // Before every key with the prefix.
        KeyCondition::BeginsWith(p) if start < p.as_str() => None,
        KeyCondition::BeginsWith(p) if start.starts_with(p.as_str()) => Some(KeyCondition::Between(p.clone(), s)),
        KeyCondition::BeginsWith(_) => Some(condition.clone()),
    }
}

/// A string at or above every sort key (at most 1024 bytes) that starts with `prefix`: the
/// prefix followed by the greatest character as far as the limit allows.
fn above_prefix(prefix: &str) -> String {
    let mut out = prefix.to_owned();
    while out.len() + 4 <= crate::SORT_KEY_LIMIT {
        out.push(char::MAX);
    }
    // The greatest character of the bytes left: at or above any suffix that fits them.
    match crate::SORT_KEY_LIMIT.saturating_sub(out.len()) {
        3 => out.push('\u{FFFF}'),
        2 => out.push('\u{7FF}'),
        1 => out.push('\u{7F}'),
        _ => {}
    }
    out
}
