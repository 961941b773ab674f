//! A page of an index's Query read across the live layouts of the index's sort key. An index
//! key is not unique: many items can share one, in an order DynamoDB does not promise, so a page
//! is ordered by the key in the current layout and then by the item's primary key, and its cursor
//! holds both. Each layout whose keys sort as the current one's is read from the cursor's key as
//! that layout writes it (the condition narrowed to start there) until it has given more than a
//! page of its own results and the key at the page's end is past (its ties all read); any other
//! layout is read whole. What [`query_page`](super::query_page) does for an index query whose
//! sort key has `legacy`.

use aws_sdk_dynamodb::Client;

use crate::dynamic::LiveLayouts;
use crate::query::condition::KeyCondition;
use crate::table::item::KeyNames;

use super::Attributes;

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
    /// The table's primary key attributes.
    pub(super) primary: KeyNames,
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
        let stored = (text(Some(self.primary.partition())), text(self.primary.sort()));
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
pub(super) type IndexCursor = (String, (String, String));

/// One page: the items (with their index key in the current layout), whether more follow, the
/// items the Queries returned and the requests made.
pub(super) struct IndexPage {
    pub(super) items: Vec<(String, Attributes)>,
    pub(super) more: bool,
    pub(super) read: usize,
    pub(super) requests: usize,
}

/// One item read: its index key in the current layout, its primary key (in the current
/// layouts), whether it is stored under that key, the item.
struct Found {
    current_key: String,
    primary: (String, String),
    at_current: bool,
    item: Attributes,
}

impl Found {
    fn order(&self) -> (&str, &str, &str) {
        (&self.current_key, &self.primary.0, &self.primary.1)
    }

    /// Two of one item (moved and not yet deleted) next to each other, the copy under the
    /// current key first: the one kept.
    fn sort(all: &mut Vec<Found>) {
        all.sort_by(|a, b| a.order().cmp(&b.order()).then(b.at_current.cmp(&a.at_current)));
        all.dedup_by(|later, first| later.primary == first.primary);
    }
}

/// The page after `cursor` of at most `limit` items the `conditions` (one per live layout, as
/// [`LiveLayouts::enclosing_conditions`] gives them) select, in ascending order. A request that
/// fails is the error, in one line.
pub(super) async fn page(
    client: &Client,
    read: &IndexRead<'_>,
    live: &LiveLayouts<'_>,
    conditions: &[Option<KeyCondition>],
    cursor: Option<&IndexCursor>,
    limit: usize,
) -> Result<IndexPage, String> {
    let limit = limit.max(1);
    let after = |f: &Found| match cursor {
        Some((key, (pk, sk))) => f.order() > (key.as_str(), pk.as_str(), sk.as_str()),
        None => true,
    };
    let (mut all, mut more, mut items_read, mut requests) = (Vec::new(), false, 0, 0);
    for (version, condition) in conditions.iter().enumerate() {
        let Some(condition) = condition else { continue };
        let whole = !live.sorts_as_current(version);
        let narrowed = match (cursor, whole) {
            (Some((key, _)), false) => match start_in(live, version, key) {
                Some(start) => narrow(condition, &start),
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
                .set_limit((!whole).then(|| i32::try_from(limit + 1).unwrap_or(i32::MAX)))
                .set_exclusive_start_key(start.take());
            let answer = expression
                .apply_to_query(query)
                .send()
                .await
                .map_err(|e| format!("cannot query {}: {}", read.table, crate::error::sdk_error_line(&e)))?;
            requests += 1;
            items_read += answer.items().len();
            for item in answer.items() {
                let Some(found) = found(live, conditions, version, read, item) else { continue };
                if after(&found) {
                    own.push(found);
                }
            }
            start = answer.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
            if start.is_none() {
                break;
            }
            // Read in the current order: once more than a page is read and the last key read is
            // past the page's last, every item that can be in the page (ties included) is read.
            if !whole && own.len() > limit && own.last().map(|f| &f.current_key) > Some(&own[limit - 1].current_key) {
                more = true;
                break;
            }
        }
        all.extend(own);
    }
    Found::sort(&mut all);
    if all.len() > limit {
        all.truncate(limit);
        more = true;
    }
    let items = all.into_iter().map(|f| (f.current_key, f.item)).collect();
    Ok(IndexPage { items, more, read: items_read, requests })
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
    cursor: Option<&IndexCursor>,
    limit: usize,
) -> Result<IndexPage, String> {
    let limit = limit.max(1);
    let (mut all, mut items_read, mut requests, mut start) = (Vec::new(), 0, 0, None::<Attributes>);
    loop {
        let query = client
            .query()
            .table_name(read.table)
            .set_index_name(read.index.map(str::to_owned))
            .key_condition_expression("#pk = :pk")
            .expression_attribute_names("#pk", read.partition.0)
            .expression_attribute_values(":pk", aws_sdk_dynamodb::types::AttributeValue::S(read.partition.1.to_owned()))
            .set_exclusive_start_key(start.take());
        let answer = query
            .send()
            .await
            .map_err(|e| format!("cannot query {}: {}", read.table, crate::error::sdk_error_line(&e)))?;
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
            let (primary, at_current) = read.primary_of(item);
            let found = Found { current_key, primary, at_current, item: item.clone() };
            let after = match cursor {
                Some((key, (pk, sk))) => found.order() > (key.as_str(), pk.as_str(), sk.as_str()),
                None => true,
            };
            if after {
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
        Found::sort(&mut all);
    }
    let more = all.len() > limit;
    all.truncate(limit);
    let items = all.into_iter().map(|f| (f.current_key, f.item)).collect();
    Ok(IndexPage { items, more, read: items_read, requests })
}

/// `item`, returned by the Query of `version`, when it is one of that version's results: its
/// index key read by that layout, within the conditions, with a key in the current layout.
fn found(
    live: &LiveLayouts<'_>,
    conditions: &[Option<KeyCondition>],
    version: usize,
    read: &IndexRead<'_>,
    item: &Attributes,
) -> Option<Found> {
    let key = item.get(read.sort_attribute)?.as_s().ok()?;
    let (read_version, value) = live.read(key, conditions).ok()?;
    if read_version != version {
        return None;
    }
    let current_key = live.current_key(version, key, &value).ok()?;
    let (primary, at_current) = read.primary_of(item);
    Some(Found { current_key, primary, at_current, item: item.clone() })
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
