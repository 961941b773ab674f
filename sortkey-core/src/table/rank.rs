//! Rank counters: how many items of a partition sort before a key, kept by the key layout.
//!
//! A ranked field is a fixed-width unsigned field written right after the sort key's prefix
//! (`RUN#{score:u64 width=10 desc}#...`), so that its digits decide the items' order. The
//! counters are a trie of its leading digits: one counter item per node (the first 0, 1, ...,
//! `levels - 1` digits of the field), holding ten counts `c0`..`c9`, the items whose next digit
//! is that one. A write changes one count per level (in the same transaction as the item); a
//! rank read sums, at each level, the counts of the digits before the key's own (a point read
//! of `levels` nodes) and counts the items left, those sharing the key's first `levels` digits,
//! with one `Select = COUNT` Query inside that finest bucket.
//!
//! This module is the arithmetic, without requests: the counters' keys, what a write changes,
//! the buckets, and the sum; the `dynamodb` feature's `write_ranked` and `rank` send them.

use std::collections::BTreeMap;
use std::fmt;

use crate::encoding::layout::{Body, Layout, SegmentLayout};
use crate::table::entity::Entity;

/// A field of a sort key layout that keeps rank counters: where its digits are in a sort key,
/// how many, how many levels of counters, and the counters' own sort key prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedField {
    key: String,
    field: String,
    key_prefix: String,
    width: usize,
    levels: usize,
    counter_prefix: String,
}

/// Why a field cannot keep rank counters: the key and field, and what was expected and found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankError {
    /// The key type (or layout) asked for.
    pub key: String,
    /// The field asked for.
    pub field: String,
    /// What was expected, and what was found instead.
    pub message: String,
}

impl fmt::Display for RankError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot rank `{}` by `{}`: {}", self.key, self.field, self.message)
    }
}

impl std::error::Error for RankError {}

/// The most levels of counters: a write updates one counter item a level in its transaction
/// (DynamoDB allows 100 actions), and ten levels already make each finest bucket one value of
/// a ten-digit field.
pub const MOST_RANK_LEVELS: usize = 20;

impl RankedField {
    /// The first field of `layout` (a sort key layout with a prefix), an unsigned integer of
    /// fixed width, ranked with `levels` levels of counters (1 to the field's width, at most
    /// [`MOST_RANK_LEVELS`]). `key` names the layout in errors and in the counters' keys.
    ///
    /// ```
    /// use sortkey_core::{RankedField, SortKey};
    ///
    /// #[derive(SortKey)]
    /// #[key(prefix = "RUN")]
    /// struct RankKey {
    ///     #[key(width = 10, desc)]
    ///     score: u64,
    ///     player: String,
    /// }
    ///
    /// let ranked = RankedField::of("RankKey", &RankKey::LAYOUT, "score", 4).unwrap();
    /// assert_eq!(ranked.digits("RUN#9999998499#p_1"), Some("9999998499"));
    /// assert_eq!(ranked.counter_key("99"), "#RANK#RankKey#score#99");
    /// let e = RankedField::of("RankKey", &RankKey::LAYOUT, "player", 4).unwrap_err();
    /// assert_eq!(e.to_string(), "cannot rank `RankKey` by `player`: expected the sort key's first field, found its field 2");
    /// ```
    pub fn of(key: &str, layout: &Layout, field: &str, levels: usize) -> Result<RankedField, RankError> {
        let error = |message: String| RankError { key: key.to_owned(), field: field.to_owned(), message };
        let Body::Fields(fields) = layout.body else {
            return Err(error("expected a key type with fields, found a family or a hand-written key".into()));
        };
        let Some(position) = fields.iter().position(|f| f.field.name() == field) else {
            let names: Vec<&str> = fields.iter().map(|f| f.field.name()).collect();
            return Err(error(format!("expected a field of the key, found only {}", names.join(", "))));
        };
        if position != 0 {
            return Err(error(format!("expected the sort key's first field, found its field {}", position + 1)));
        }
        let Some(prefix) = layout.prefix else {
            return Err(error("expected a sort key with a prefix (`#[key(prefix = ...)]`), found none".into()));
        };
        let first = &fields[0];
        if !matches!(first.segment, SegmentLayout::Unsigned(_)) || first.field.width() == 0 {
            return Err(error(format!("expected an unsigned integer of fixed width, found {:?}", first.segment)));
        }
        let width = first.field.width() as usize;
        RankedField::new(key, field, &format!("{prefix}{}", layout.separator), width, levels)
    }

    /// The ranked field an entity declares (`#[entity(rank(score, levels = 4))]`) on its primary
    /// sort key; `None` for an entity without one. An error when the declaration does not fit
    /// the key ([`of`](Self::of)). The counters count the current layout's keys: an item still
    /// under an older layout's key (`legacy`) is in none until it moves.
    pub fn of_entity<E: Entity>() -> Option<Result<RankedField, RankError>> {
        let declared = E::RANK?;
        let error = |message: String| RankError { key: E::NAME.to_owned(), field: declared.field.to_owned(), message };
        let sort = E::LAYOUTS.iter().find(|l| l.index.is_none() && Some(l.attribute) == E::KEYS.sort());
        let Some(sort) = sort else {
            return Some(Err(error("expected an entity with a sort key, found a partition key alone".into())));
        };
        Some(RankedField::of(sort.name, &sort.layout, declared.field, declared.levels))
    }

    /// A ranked field described by hand: its digits are the `width` characters after
    /// `key_prefix` in every sort key of the board.
    pub fn new(
        key: &str,
        field: &str,
        key_prefix: &str,
        width: usize,
        levels: usize,
    ) -> Result<RankedField, RankError> {
        let error = |message: String| RankError { key: key.to_owned(), field: field.to_owned(), message };
        if levels == 0 || levels > width.min(MOST_RANK_LEVELS) {
            return Err(error(format!(
                "expected 1 to {} levels of counters (the field's width, at most {MOST_RANK_LEVELS}), found {levels}",
                width.min(MOST_RANK_LEVELS)
            )));
        }
        Ok(RankedField {
            key: key.to_owned(),
            field: field.to_owned(),
            key_prefix: key_prefix.to_owned(),
            width,
            levels,
            counter_prefix: format!("#RANK#{key}#{field}#"),
        })
    }

    /// The ranked field's name.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The levels of counters.
    pub fn levels(&self) -> usize {
        self.levels
    }

    /// The field's width in digits.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The sort key text before the field's digits (`RUN#`).
    pub fn key_prefix(&self) -> &str {
        &self.key_prefix
    }

    /// The ranked field's digits in `sort_key`, or `None` when it is no key of the board (its
    /// prefix differs, the digits are not `width` ASCII digits, or a digit follows them).
    pub fn digits<'k>(&self, sort_key: &'k str) -> Option<&'k str> {
        let rest = sort_key.strip_prefix(&self.key_prefix)?;
        let digits = rest.get(..self.width)?;
        // A digit right after them is a wider field's (another layout's key): not on the board.
        let wider = rest.as_bytes().get(self.width).is_some_and(u8::is_ascii_digit);
        (!wider && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
    }

    /// The sort key of the counter item of trie node `node` (the first digits it counts under,
    /// empty for the root): `#RANK#KEY#FIELD#NODE`. It sorts before every key of the board's
    /// prefix, and no layout with a field reads it.
    pub fn counter_key(&self, node: &str) -> String {
        format!("{}{node}", self.counter_prefix)
    }

    /// The trie node of `counter_key`, when it is one of this field's counter keys.
    pub fn node_of<'k>(&self, counter_key: &'k str) -> Option<&'k str> {
        let node = counter_key.strip_prefix(&self.counter_prefix)?;
        (node.len() < self.levels && node.bytes().all(|b| b.is_ascii_digit())).then_some(node)
    }

    /// The nodes on the path of `digits`: its first 0, 1, ..., `levels - 1` digits.
    pub fn path<'d>(&self, digits: &'d str) -> impl Iterator<Item = &'d str> + use<'d, '_> {
        (0..self.levels).map(move |l| &digits[..l])
    }

    /// What a write changes in the counters: the item's digits before (`None`: it is new) and
    /// after (`None`: it is deleted), as each node's change of each of its ten counts. A node
    /// whose counts do not change is left out, so a write that keeps the first `levels` digits
    /// changes nothing.
    pub fn changes(&self, before: Option<&str>, after: Option<&str>) -> BTreeMap<String, [i64; 10]> {
        let mut changes: BTreeMap<String, [i64; 10]> = BTreeMap::new();
        for (digits, delta) in [(before, -1), (after, 1)] {
            let Some(digits) = digits else { continue };
            for node in self.path(digits) {
                let next = usize::from(digits.as_bytes()[node.len()] - b'0');
                changes.entry(node.to_owned()).or_default()[next] += delta;
            }
        }
        changes.retain(|_, counts| counts.iter().any(|&c| c != 0));
        changes
    }

    /// The counters a partition's sort keys stand for: each trie node's ten counts, only the
    /// nodes some key passes through. Keys that are not on the board (another prefix, no
    /// digits) count nothing. What an audit compares the counter items with, and what a repair
    /// writes.
    ///
    /// ```
    /// use sortkey_core::RankedField;
    ///
    /// let ranked = RankedField::new("Run", "score", "RUN#", 4, 2)?;
    /// let tally = ranked.tally(["RUN#1234#a", "RUN#1299#b", "RUN#5000#c", "PROFILE"]);
    /// assert_eq!(tally[""], [0, 2, 0, 0, 0, 1, 0, 0, 0, 0]);
    /// assert_eq!(tally["1"], [0, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(tally.len(), 3);
    /// # Ok::<(), sortkey_core::RankError>(())
    /// ```
    pub fn tally<'k>(&self, sort_keys: impl IntoIterator<Item = &'k str>) -> BTreeMap<String, [u64; 10]> {
        let mut tally: BTreeMap<String, [u64; 10]> = BTreeMap::new();
        for digits in sort_keys.into_iter().filter_map(|k| self.digits(k)) {
            for node in self.path(digits) {
                let next = usize::from(digits.as_bytes()[node.len()] - b'0');
                tally.entry(node.to_owned()).or_default()[next] += 1;
            }
        }
        tally
    }

    /// The items before `digits` that the counters hold, in the read's order (`forward`: the
    /// items whose digits are smaller; otherwise larger), from the counts of the nodes on its
    /// path (`counts(node)`; a node never written counts nothing). The items sharing its first
    /// `levels` digits are not in it: [`bucket`](Self::bucket) is where they are counted.
    pub fn counted_before(&self, digits: &str, forward: bool, mut counts: impl FnMut(&str) -> [u64; 10]) -> u64 {
        self.path(digits)
            .map(|node| {
                let own = usize::from(digits.as_bytes()[node.len()] - b'0');
                let counts = counts(node);
                let before = if forward { &counts[..own] } else { &counts[own + 1..] };
                before.iter().sum::<u64>()
            })
            .sum()
    }

    /// The finest bucket's part before `sort_key` (whose ranked digits are `digits`), in the
    /// read's order: the range of sort keys (both ends included) that holds every item sharing
    /// the first `levels` digits that sorts before it, and `sort_key` itself, which the reader
    /// leaves out when an item has it. Forward: from the bucket's first key to `sort_key`;
    /// backward: from `sort_key` to past the bucket's last key.
    pub fn bucket(&self, digits: &str, sort_key: &str, forward: bool) -> (String, String) {
        let start = format!("{}{}", self.key_prefix, &digits[..self.levels]);
        match forward {
            true => (start, sort_key.to_owned()),
            // Every key of the bucket continues its digits with ASCII, below U+10FFFF's bytes.
            false => (sort_key.to_owned(), format!("{start}\u{10FFFF}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RankedField;

    fn field(levels: usize) -> RankedField {
        RankedField::new("RankKey", "score", "RUN#", 4, levels).unwrap()
    }

    #[test]
    fn a_write_changes_one_count_a_level_and_a_move_nets_out() {
        let ranked = field(2);
        let put = ranked.changes(None, Some("1234"));
        assert_eq!(put.len(), 2);
        assert_eq!(put[""][1], 1);
        assert_eq!(put["1"][2], 1);
        let moved = ranked.changes(Some("1234"), Some("1299"));
        assert!(moved.is_empty(), "the same first two digits: no count changes: {moved:?}");
        let moved = ranked.changes(Some("1234"), Some("1334"));
        assert_eq!(moved.len(), 1, "the root's count of 1 loses one and gains one: {moved:?}");
        assert_eq!(moved["1"][2], -1);
        assert_eq!(moved["1"][3], 1);
    }

    #[test]
    fn levels_are_one_to_the_width() {
        assert!(RankedField::new("K", "f", "P#", 4, 0).is_err());
        let e = RankedField::new("K", "f", "P#", 4, 5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot rank `K` by `f`: expected 1 to 4 levels of counters (the field's width, at most 20), found 5"
        );
        assert_eq!(field(4).path("1234").collect::<Vec<_>>(), ["", "1", "12", "123"]);
    }

    #[test]
    fn digits_are_read_where_the_layout_writes_them() {
        let ranked = field(2);
        assert_eq!(ranked.digits("RUN#0042#p"), Some("0042"));
        assert_eq!(ranked.digits("RUN#004"), None);
        assert_eq!(ranked.digits("RUN#0x42#p"), None);
        assert_eq!(ranked.digits("#RANK#RankKey#score#1"), None);
        assert_eq!(ranked.node_of(&ranked.counter_key("1")), Some("1"));
        assert_eq!(ranked.node_of(&ranked.counter_key("12")), None, "no node at the last level");
    }
}
