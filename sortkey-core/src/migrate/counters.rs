//! Rank counter updates as transaction actions: the changes of one or more writes of a
//! partition, one `ADD` a changed trie node, the root's write count `v` grown by one. What a
//! ranked write (`dynamodb::write_ranked`, an entity's writes) and a backfill's moves join to
//! their items' actions.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};

use crate::table::rank::RankedField;

/// Each trie node's change of its ten counts.
pub(crate) type Changes = BTreeMap<String, [i64; 10]>;

/// Where counter items live: the table and its key attributes.
pub(crate) struct CounterTable<'a> {
    pub(crate) table: &'a str,
    pub(crate) pk: &'a str,
    pub(crate) sk: &'a str,
}

impl CounterTable<'_> {
    /// The `ADD`s of `changes` to `ranked`'s counter items in `partition`, the root's write
    /// count among them whatever the changes.
    pub(crate) fn updates(
        &self,
        ranked: &RankedField,
        partition: &str,
        changes: Changes,
    ) -> Result<Vec<TransactWriteItem>, BuildError> {
        self.updates_marked(ranked, partition, changes, None)
    }

    /// [`updates`](Self::updates), the root's update also moving a mark from `from` (`None`:
    /// none yet) to `to` in attribute `name`, on the condition that it is at `from`: what a
    /// stream's batch writes, so that a batch delivered twice is applied once.
    pub(crate) fn updates_marked(
        &self,
        ranked: &RankedField,
        partition: &str,
        mut changes: Changes,
        mark: Option<(&str, Option<&str>, &str)>,
    ) -> Result<Vec<TransactWriteItem>, BuildError> {
        changes.entry(String::new()).or_default();
        let mut actions = Vec::with_capacity(changes.len());
        for (node, change) in changes {
            let mut adds = Vec::new();
            let mut values = HashMap::new();
            let mut marked = None;
            if node.is_empty() {
                adds.push("v :v".to_owned());
                values.insert(":v".to_owned(), AttributeValue::N("1".to_owned()));
                if let Some((name, from, to)) = mark {
                    values.insert(":mark".to_owned(), AttributeValue::S(to.to_owned()));
                    let condition = match from {
                        Some(from) => {
                            values.insert(":from".to_owned(), AttributeValue::S(from.to_owned()));
                            "#mark = :from"
                        }
                        None => "attribute_not_exists(#mark)",
                    };
                    marked = Some((name, condition));
                }
            }
            for (digit, change) in change.iter().enumerate().filter(|(_, c)| **c != 0) {
                adds.push(format!("c{digit} :c{digit}"));
                values.insert(format!(":c{digit}"), AttributeValue::N(change.to_string()));
            }
            let key = HashMap::from([
                (self.pk.to_owned(), AttributeValue::S(partition.to_owned())),
                (self.sk.to_owned(), AttributeValue::S(ranked.counter_key(&node))),
            ]);
            let update = Update::builder().table_name(self.table).set_key(Some(key));
            let update = match marked {
                Some((name, condition)) => update
                    .update_expression(format!("ADD {} SET #mark = :mark", adds.join(", ")))
                    .condition_expression(condition)
                    .expression_attribute_names("#mark", name),
                None => update.update_expression(format!("ADD {}", adds.join(", "))),
            };
            let update = update.set_expression_attribute_values(Some(values)).build()?;
            actions.push(TransactWriteItem::builder().update(update).build());
        }
        Ok(actions)
    }
}

/// The counter changes of moves, summed by ranked field and partition: each move an item's
/// `(partition, sort key)` before and after (`None`: none), counted by every ranked field whose
/// board its key is on. A move within a partition changes that partition's counters by the
/// difference of its paths; a move across partitions takes one off the old and adds one to the
/// new.
#[derive(Default)]
pub(crate) struct MoveCounts {
    /// By the ranked field's place in its list, then partition.
    changes: BTreeMap<(usize, String), Changes>,
}

impl MoveCounts {
    /// Adds one move's changes.
    pub(crate) fn add(&mut self, ranked: &[RankedField], before: Option<(&str, &str)>, after: Option<(&str, &str)>) {
        for (at, field) in ranked.iter().enumerate() {
            let old = before.and_then(|(p, sk)| Some((p, field.digits(sk)?)));
            let new = after.and_then(|(p, sk)| Some((p, field.digits(sk)?)));
            match (old, new) {
                (Some((a, from)), Some((b, to))) if a == b => self.sum(at, a, field.changes(Some(from), Some(to))),
                (old, new) => {
                    if let Some((a, from)) = old {
                        self.sum(at, a, field.changes(Some(from), None));
                    }
                    if let Some((b, to)) = new {
                        self.sum(at, b, field.changes(None, Some(to)));
                    }
                }
            }
        }
    }

    fn sum(&mut self, at: usize, partition: &str, changes: Changes) {
        let into = self.changes.entry((at, partition.to_owned())).or_default();
        for (node, change) in changes {
            let counts = into.entry(node).or_default();
            for (c, d) in counts.iter_mut().zip(change) {
                *c += d;
            }
        }
    }

    /// Whether no move changed a counter of any board.
    pub(crate) fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Each ranked field's (by its place in the list) and partition's summed changes, the nodes
    /// that change nothing left out.
    pub(crate) fn by_partition(self) -> Vec<(usize, String, Changes)> {
        let mut out = Vec::with_capacity(self.changes.len());
        for ((at, partition), mut changes) in self.changes {
            changes.retain(|_, counts| counts.iter().any(|&c| c != 0));
            out.push((at, partition, changes));
        }
        out
    }

    /// The updates of every partition whose counters the moves change.
    pub(crate) fn updates(
        self,
        table: &CounterTable<'_>,
        ranked: &[RankedField],
    ) -> Result<Vec<TransactWriteItem>, BuildError> {
        let mut actions = Vec::new();
        for ((at, partition), mut changes) in self.changes {
            changes.retain(|_, counts| counts.iter().any(|&c| c != 0));
            actions.extend(table.updates(&ranked[at], &partition, changes)?);
        }
        Ok(actions)
    }
}
