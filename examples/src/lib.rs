//! An embedded, byte-ordered table for the examples: items kept in the order DynamoDB would return them.
//!
//! [`MemTable`] stands in for a DynamoDB table with a partition key and a string (type `S`)
//! sort key. Each partition is a `BTreeMap<String, V>`, and the order of a `BTreeMap<String, _>`
//! is exactly DynamoDB's order of string sort keys: `str`'s `Ord` compares the UTF-8 bytes,
//! left to right, and a string that is a prefix of another sorts first. So `"10"` comes before
//! `"9"` here for the same reason it does in DynamoDB, and a Query over a partition returns the
//! items in the order this table iterates them.
//!
//! [`TextTable`] prints rows as an aligned text table, for the examples' output.
//!
//! ```
//! use sortkey_examples::{MemTable, Query};
//!
//! let mut table = MemTable::new();
//! table.put("SEASON#1", "9", "nine");
//! table.put("SEASON#1", "10", "ten");
//! let keys: Vec<&str> = table.query("SEASON#1", Query::forward()).map(|(sk, _)| sk).collect();
//! assert_eq!(keys, ["10", "9"]); // byte order, not numeric order
//! ```

#![warn(missing_docs)]

use std::collections::BTreeMap;
use std::fmt;

use sortkey_core::{EncodeError, KeyCondition, SortKey};

mod entities;
#[cfg(feature = "dynamodb")]
mod remote;
mod target;
pub mod vectors;

pub use entities::EntityTable;

#[cfg(feature = "dynamodb")]
pub use remote::{Error, Remote};
pub use target::Target;

/// An in-memory table of items addressed by a partition key and a sort key, both strings.
///
/// Within a partition the items are kept in byte order of their sort keys, which is the order
/// DynamoDB keeps (and returns) string sort keys in.
#[derive(Debug, Clone)]
pub struct MemTable<V> {
    partitions: BTreeMap<String, BTreeMap<String, V>>,
}

impl<V> Default for MemTable<V> {
    fn default() -> Self {
        MemTable { partitions: BTreeMap::new() }
    }
}

impl<V> MemTable<V> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes `item` under `(pk, sk)`, like DynamoDB's PutItem: an item with the same keys is
    /// replaced, and returned.
    pub fn put(&mut self, pk: impl Into<String>, sk: impl Into<String>, item: V) -> Option<V> {
        self.partitions.entry(pk.into()).or_default().insert(sk.into(), item)
    }

    /// Encodes `key` and writes `item` under `(pk, key)`.
    ///
    /// When the key cannot be encoded the table is left unchanged and the [`EncodeError`] is
    /// returned: a key that would sort wrongly is never written.
    pub fn put_key<K: SortKey>(&mut self, pk: impl Into<String>, key: &K, item: V) -> Result<Option<V>, EncodeError> {
        let sk = key.encode()?;
        Ok(self.put(pk, sk, item))
    }

    /// The item under `(pk, sk)`, if there is one.
    pub fn get(&self, pk: &str, sk: &str) -> Option<&V> {
        self.partitions.get(pk)?.get(sk)
    }

    /// The item under `(pk, sk)`, to change in place.
    pub fn get_mut(&mut self, pk: &str, sk: &str) -> Option<&mut V> {
        self.partitions.get_mut(pk)?.get_mut(sk)
    }

    /// Removes the item under `(pk, sk)` and returns it, like DynamoDB's DeleteItem.
    pub fn remove(&mut self, pk: &str, sk: &str) -> Option<V> {
        self.partitions.get_mut(pk)?.remove(sk)
    }

    /// The number of items in the whole table.
    pub fn len(&self) -> usize {
        self.partitions.values().map(BTreeMap::len).sum()
    }

    /// Whether the table holds no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items of partition `pk` as `(sort key, item)`, in sort-key byte order as `query`
    /// asks: ascending or descending, and at most `query.limit` of them.
    ///
    /// An unknown partition yields nothing, as a DynamoDB Query does.
    pub fn query<'t>(&'t self, pk: &str, query: Query) -> Box<dyn Iterator<Item = (&'t str, &'t V)> + 't> {
        let Some(partition) = self.partitions.get(pk) else {
            return Box::new(std::iter::empty());
        };
        let items = partition.iter().map(|(sk, v)| (sk.as_str(), v));
        let limit = query.limit.unwrap_or(usize::MAX);
        match query.order {
            Order::Ascending => Box::new(items.take(limit)),
            Order::Descending => Box::new(items.rev().take(limit)),
        }
    }
}

impl<V> MemTable<V> {
    /// The items of partition `pk` whose sort key satisfies `cond`, in the order and up to the
    /// limit `query` asks for: what a DynamoDB Query with that `KeyConditionExpression` returns.
    ///
    /// `KeyCondition::matches` compares UTF-8 bytes, as DynamoDB does, so this is the same
    /// query engine the tests use as their oracle.
    pub fn query_where<'t>(
        &'t self,
        pk: &str,
        cond: &'t KeyCondition,
        query: Query,
    ) -> Box<dyn Iterator<Item = (&'t str, &'t V)> + 't> {
        let limit = query.limit.unwrap_or(usize::MAX);
        let all = Query { limit: None, ..query };
        Box::new(self.query(pk, all).filter(move |(sk, _)| cond.matches(sk)).take(limit))
    }
}

impl<V> MemTable<V> {
    /// One page of a Query, as DynamoDB pages with `Limit` and `ExclusiveStartKey`: the items of
    /// partition `pk` whose sort key `keep` accepts, in `query`'s order, after the sort key
    /// `start` (exclusive), at most `query.limit` of them; and the last one's sort key when
    /// more remain, to start the next page from.
    ///
    /// DynamoDB may also return a start key when the page ends exactly at the last item (the
    /// next page is then empty); this table returns one only when more items remain.
    ///
    /// ```
    /// use sortkey_examples::{MemTable, Query};
    ///
    /// let mut table = MemTable::new();
    /// for sk in ["a", "b", "c"] {
    ///     table.put("P", sk, ());
    /// }
    /// let (page, next) = table.page("P", Query::forward().limit(2), None, |_| true);
    /// assert_eq!((page.len(), next.as_deref()), (2, Some("b")));
    /// let (page, next) = table.page("P", Query::forward().limit(2), next.as_deref(), |_| true);
    /// assert_eq!((page[0].0, next), ("c", None));
    /// ```
    pub fn page<'t>(
        &'t self,
        pk: &str,
        query: Query,
        start: Option<&str>,
        keep: impl Fn(&str) -> bool,
    ) -> (Vec<(&'t str, &'t V)>, Option<String>) {
        let after = |sk: &str| match (start, query.order) {
            (None, _) => true,
            (Some(s), Order::Ascending) => sk > s,
            (Some(s), Order::Descending) => sk < s,
        };
        let mut items = self.query(pk, Query { limit: None, ..query }).filter(|(sk, _)| after(sk) && keep(sk));
        let limit = query.limit.unwrap_or(usize::MAX);
        let page: Vec<_> = items.by_ref().take(limit).collect();
        let next = match items.next() {
            Some(_) => page.last().map(|(sk, _)| (*sk).to_owned()),
            None => None,
        };
        (page, next)
    }
}

/// The direction a [`Query`] reads a partition in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Lowest sort key first (DynamoDB's `ScanIndexForward = true`, the default).
    Ascending,
    /// Highest sort key first (`ScanIndexForward = false`).
    Descending,
}

/// How [`MemTable::query`] reads a partition: a direction and an optional limit.
///
/// ```
/// use sortkey_examples::{Order, Query};
///
/// let q = Query::backward().limit(3);
/// assert_eq!((q.order, q.limit), (Order::Descending, Some(3)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query {
    /// The direction.
    pub order: Order,
    /// The most items to return; `None` for all of them.
    pub limit: Option<usize>,
}

impl Query {
    /// All items, lowest sort key first.
    pub fn forward() -> Self {
        Query { order: Order::Ascending, limit: None }
    }

    /// All items, highest sort key first.
    pub fn backward() -> Self {
        Query { order: Order::Descending, limit: None }
    }

    /// At most `n` items.
    pub fn limit(self, n: usize) -> Self {
        Query { limit: Some(n), ..self }
    }
}

/// How a [`TextTable`] column lines up its cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text starts at the column's left edge (the default).
    Left,
    /// Text ends at the column's right edge, for numbers.
    Right,
}

/// A text table whose column widths fit their widest cell; `Display` prints it.
///
/// ```
/// use sortkey_examples::TextTable;
///
/// let mut t = TextTable::new(["key", "score"]).right(1);
/// t.row(["a", "10"]);
/// t.row(["bb", "9"]);
/// assert_eq!(t.to_string(), "  key  score\n  ---  -----\n  a       10\n  bb       9\n");
/// ```
#[derive(Debug, Clone)]
pub struct TextTable {
    headers: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl TextTable {
    /// A table with these column headers and no rows; every column aligned left.
    pub fn new<I, S>(headers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        let align = vec![Align::Left; headers.len()];
        TextTable { headers, align, rows: Vec::new() }
    }

    /// Aligns column `col` (from 0) to the right.
    pub fn right(mut self, col: usize) -> Self {
        if let Some(a) = self.align.get_mut(col) {
            *a = Align::Right;
        }
        self
    }

    /// Appends a row; missing cells print empty, extra cells are dropped.
    pub fn row<I, S>(&mut self, cells: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: ToString,
    {
        let mut row: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
        row.resize(self.headers.len(), String::new());
        self.rows.push(row);
        self
    }

    /// The width of each column in characters: its widest cell or header.
    fn widths(&self) -> Vec<usize> {
        let width = |s: &String| s.chars().count();
        let mut widths: Vec<usize> = self.headers.iter().map(width).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(width(cell));
            }
        }
        widths
    }

    fn write_line<'c>(
        &self,
        f: &mut fmt::Formatter<'_>,
        widths: &[usize],
        cells: impl Iterator<Item = &'c str>,
    ) -> fmt::Result {
        let mut line = String::from("  ");
        for (i, cell) in cells.enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let w = widths[i];
            match self.align[i] {
                Align::Left => line.push_str(&format!("{cell:<w$}")),
                Align::Right => line.push_str(&format!("{cell:>w$}")),
            }
        }
        writeln!(f, "{}", line.trim_end())
    }
}

impl fmt::Display for TextTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths = self.widths();
        let rules: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        self.write_line(f, &widths, self.headers.iter().map(String::as_str))?;
        self.write_line(f, &widths, rules.iter().map(String::as_str))?;
        for row in &self.rows {
            self.write_line(f, &widths, row.iter().map(String::as_str))?;
        }
        Ok(())
    }
}
