//! A read across a key's live layout versions on DynamoDB, a page at a time: one Query per
//! version whose keys the condition can select, each started after the cursor as its own layout
//! writes the cursor's value ([`LiveLayouts::starts`]), merged in the current layout's order
//! ([`LiveLayouts::merge`]). What reads a collection in the middle of a migration page by page.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};

use std::fmt;

use crate::dynamic::{CursorError, LiveLayouts, LiveResults};
use crate::query::condition::KeyCondition;

use super::Attributes;
use super::failed::RequestError;

/// The paged read of one partition of a table across the live layouts of its sort key: which
/// partition, under which key attributes, in which direction and how many results a page.
///
/// The versions are read oldest first, so that an item a migration moves meanwhile (from an
/// older layout to the current one) is read in one of them at least, and a copy in both is
/// returned once.
#[derive(Debug, Clone, Copy)]
pub struct VersionsQuery<'a> {
    /// The table.
    pub table: &'a str,
    /// The encoded partition key.
    pub partition: &'a str,
    /// The partition key attribute.
    pub partition_attribute: &'a str,
    /// The sort key attribute.
    pub sort_attribute: &'a str,
    /// Ascending in the current layout's order, or descending.
    pub forward: bool,
    /// The results a page returns.
    pub limit: usize,
}

/// Why a [`VersionsQuery`] read no page.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum VersionsError {
    /// A page of no result was asked for (a limit of 0): refused before any request.
    NoLimit {
        /// The table.
        table: String,
    },
    /// The cursor is no key of the current layout.
    Cursor(CursorError),
    /// A Query failed.
    Request(RequestError),
}

impl fmt::Display for VersionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionsError::NoLimit { table } => write!(f, "a page of {table} reads at least one result, not 0"),
            VersionsError::Cursor(e) => e.fmt(f),
            VersionsError::Request(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for VersionsError {}

/// One page of a [`VersionsQuery`].
#[derive(Debug, Clone, PartialEq)]
pub struct VersionsPage {
    /// The results, at most the query's limit, in its direction, with the keys its Queries
    /// returned that are no result.
    pub results: LiveResults<Attributes>,
    /// Where the next page starts (the last result's key in the current layout); `None` after
    /// the last page.
    pub next: Option<String>,
    /// The items the Queries returned, those beyond the page included: what the page cost.
    pub read: usize,
    /// Of those, the items each version's Query returned (current version first).
    pub read_per_version: Vec<u64>,
    /// The Query requests made.
    pub requests: usize,
    /// The read units they consumed (`ConsumedCapacity`).
    pub read_units: f64,
}

impl VersionsQuery<'_> {
    /// The page after `cursor` (a previous page's `next`) of the results of `conditions` (as
    /// [`LiveLayouts::conditions`] gives them for `live`). A version whose keys sort as the
    /// current layout's is read until it gives a page of its own results; another to its end.
    /// A request that fails is the error ([`VersionsError::Request`]); a cursor the current
    /// layout does not read is refused, and so is a limit of 0.
    ///
    /// Each version's start is the cursor's value as that version writes it, which its condition
    /// (the same condition on the values, clipped to what the version holds) selects: DynamoDB
    /// refuses an `ExclusiveStartKey` outside a Query's key condition, and this one never is.
    pub async fn run(
        &self,
        client: &Client,
        live: &LiveLayouts<'_>,
        conditions: &[Option<KeyCondition>],
        cursor: Option<&str>,
    ) -> Result<VersionsPage, VersionsError> {
        if self.limit == 0 {
            return Err(VersionsError::NoLimit { table: self.table.to_owned() });
        }
        let starts = match cursor {
            Some(c) => live.starts(c).map_err(VersionsError::Cursor)?,
            None => vec![None; live.layouts().len()],
        };
        // Whether a key is a result after the cursor (the Queries of versions read from their
        // start return some before it).
        let beyond = |key: &str| {
            let current = live.read(key, conditions).ok().and_then(|(v, value)| live.current_key(v, key, &value).ok());
            match (cursor, current) {
                (None, current) => current.is_some(),
                (Some(c), Some(k)) => {
                    if self.forward {
                        k.as_str() > c
                    } else {
                        k.as_str() < c
                    }
                }
                (Some(_), None) => false,
            }
        };
        let (mut pages, mut more) = (vec![Vec::new(); conditions.len()], false);
        let (mut read, mut requests, mut read_units) = (0, 0, 0.0);
        let mut read_per_version = vec![0u64; conditions.len()];
        // The older versions first, so that an item moving meanwhile is seen in one or both.
        let order: Vec<usize> = if planted_bug!(VersionsCurrentFirst) {
            (0..conditions.len()).collect()
        } else {
            (0..conditions.len()).rev().collect()
        };
        for version in order {
            let Some(condition) = &conditions[version] else { continue };
            let whole = !live.sorts_as_current(version);
            let mut start = starts.get(version).cloned().flatten().map(|sk| self.key(sk));
            let mut own = 0;
            loop {
                let request = client
                    .query()
                    .table_name(self.table)
                    .scan_index_forward(self.forward)
                    .set_exclusive_start_key(start.take())
                    .set_limit((!whole).then(|| i32::try_from(self.limit.saturating_sub(own) + 1).unwrap_or(i32::MAX)))
                    .return_consumed_capacity(ReturnConsumedCapacity::Total);
                let expression =
                    condition.with_partition_key(self.partition_attribute, self.partition, self.sort_attribute);
                let page = expression
                    .apply_to_query(request)
                    .send()
                    .await
                    .map_err(|e| VersionsError::Request(RequestError::from_sdk("Query", self.table, &e)))?;
                requests += 1;
                read += page.items().len();
                read_per_version[version] += page.items().len() as u64;
                read_units += page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
                for item in page.items() {
                    let Some(sk) = item.get(self.sort_attribute).and_then(|v| v.as_s().ok()) else { continue };
                    let mine = live.read(sk, conditions).is_ok_and(|(v, _)| v == version);
                    own += usize::from(mine && beyond(sk));
                    pages[version].push((sk.clone(), item.clone()));
                }
                start = page.last_evaluated_key().filter(|k| !k.is_empty()).cloned();
                if start.is_none() {
                    break;
                }
                if !whole && own >= self.limit {
                    more = true;
                    break;
                }
            }
        }
        let mut results = live.merge(conditions, pages, self.forward);
        more |= results.page(cursor, self.forward, self.limit);
        let next = if more { results.results.last().map(|r| r.current_key.clone()) } else { None };
        Ok(VersionsPage { results, next, read, read_per_version, requests, read_units })
    }

    /// The primary key of sort key `sk` in the partition: an `ExclusiveStartKey`.
    fn key(&self, sk: String) -> Attributes {
        Attributes::from([
            (self.partition_attribute.to_owned(), AttributeValue::S(self.partition.to_owned())),
            (self.sort_attribute.to_owned(), AttributeValue::S(sk)),
        ])
    }
}
