//! A sharded partition as `browse`, `query --table` and their pages read it: when the lock says
//! the table's partition key is sharded (`shards=16 by=player`), a partition given without its
//! shard (`SEASON#2026`) is read merged over its shards, exactly as one partition (sortkey-core's
//! `ShardedQuery`); given with one, or with `--shard I`, that shard alone.

use aws_sdk_dynamodb::Client;
use sortkey_core::dynamodb::ShardedQuery;
use sortkey_core::query::MergeCursor;
use sortkey_core::{KeyExpression, KeyRole, LockFile, ShardRule, ShardedPartition};

use crate::outcome::AskError;
use crate::table::key_names;

/// The partition a read names.
pub(crate) enum Partition {
    /// One partition: not sharded, or one shard of a sharded one (`shard`).
    One { pk: String, shard: Option<u16>, shards: Option<u16> },
    /// Every shard of a sharded partition, read merged; with the shards of its layout's older
    /// versions of another count (`Current > Older` in the lock: a shard-count move), whose
    /// copies of an item the current shards' copy hides.
    Merged(ShardedPartition, Vec<(String, ShardedPartition)>),
}

/// Where a read is: the table, an index of it (never sharded), the partition as given.
pub(crate) struct Place<'a> {
    pub(crate) table: &'a str,
    pub(crate) index: Option<&'a str>,
    pub(crate) pk: &'a str,
}

/// The partition `target.pk` names in `target.table`, by the lock's layouts of the table's
/// partition key attribute (those of its `table` lines, or every partition layout): a sharded
/// layout that reads it with or without its shard makes it sharded. `shard` (`--shard I`) picks
/// one shard. An index is never sharded.
pub(crate) async fn resolve(
    client: &Client,
    lock: &LockFile,
    target: &Place<'_>,
    shard: Option<u16>,
) -> Result<Partition, AskError> {
    let one = |shard, shards| Partition::One { pk: target.pk.to_owned(), shard, shards };
    if target.index.is_some() || !lock.entries.iter().any(|(_, l)| l.shard_field().is_some()) {
        return match shard {
            Some(_) => Err(AskError::not_found(format!(
                "--shard: the lock has no sharded partition key layout of {}",
                target.table
            ))),
            None => Ok(one(None, None)),
        };
    }
    let (pk_attr, _) = key_names(client, target.table, None).await?;
    let reading = lock.layouts_reading(Some(target.table), &pk_attr, KeyRole::Partition);
    // The current layout that reads it: no older version of another, when one is.
    let current = |name: &str| lock.versions_of(name).is_none_or(|v| v.current == name);
    let mut found: Vec<(&str, ShardedPartition)> =
        reading.into_iter().filter_map(|(name, layout)| Some((name, layout.sharded_partition(target.pk)?))).collect();
    found.sort_by_key(|(name, _)| !current(name));
    let mut found = found.into_iter();
    let Some((name, sharded)) = found.next() else {
        return match shard {
            Some(_) => Err(AskError::bad(format!(
                "--shard: no sharded layout of {}'s `{pk_attr}` reads the partition {}",
                target.table,
                crate::display::quoted(target.pk)
            ))),
            None => Ok(one(None, None)),
        };
    };
    let count = sharded.shards.count().get();
    match shard.or(sharded.given) {
        Some(i) => match sharded.partitions.get(usize::from(i)) {
            Some(pk) => Ok(Partition::One { pk: pk.clone(), shard: Some(i), shards: Some(count) }),
            None => Err(AskError::bad(format!("--shard {i}: the partition has {count} shards, 0 to {}", count - 1))),
        },
        None => {
            // Its older versions of another count, read with it while items move.
            let older = lock
                .live(name)
                .into_iter()
                .skip(1)
                .filter_map(|(old, layout)| Some((old.to_owned(), layout.sharded_partition(target.pk)?)))
                .filter(|(_, old)| old.given.is_none())
                .collect();
            Ok(Partition::Merged(sharded, older))
        }
    }
}

/// A merged page's sort keys, each with its shard; where the next page starts; the items read
/// and the read units spent.
pub(crate) struct MergedKeys {
    pub(crate) attribute: String,
    pub(crate) keys: Vec<(u16, String)>,
    pub(crate) next: Option<MergeCursor>,
    pub(crate) items: u64,
    pub(crate) read_units: f64,
}

/// One page of `limit` sort keys of every shard of `sharded` in `table` under the key condition
/// `expression(pk_attr, pk, sk_attr)` gives, merged, after `after` (a cursor's text,
/// `<shard>:<sort key>`).
pub(crate) async fn read(
    client: &Client,
    (table, after): (&str, Option<&str>),
    (sharded, older): (&ShardedPartition, &[(String, ShardedPartition)]),
    expression: impl Fn(&str, &str, &str) -> KeyExpression,
    (limit, forward): (usize, bool),
) -> Result<MergedKeys, AskError> {
    let (pk_attr, sk_attr) = key_names(client, table, None).await?;
    let sk_attr = sk_attr.ok_or_else(|| AskError::not_found(format!("table {table} has no sort key to browse")))?;
    let start = match after {
        Some(text) => Some(MergeCursor::parse(text).ok_or_else(|| {
            AskError::bad(format!(
                "--after of a sharded partition is a merged page's cursor, `<shard>:<sort key>`; found {}",
                crate::display::quoted(text)
            ))
        })?),
        None => None,
    };
    // The current shards first, then each older count's: an item mid-move is read once, from
    // the current shards.
    let mut partitions = sharded.partitions.clone();
    let mut firsts = vec![0usize];
    for (_, old) in older {
        firsts.push(partitions.len());
        partitions.extend(old.partitions.iter().cloned());
    }
    let query = ShardedQuery {
        table,
        partitions: &partitions,
        partition_attribute: &pk_attr,
        sort_attribute: &sk_attr,
        forward,
        limit,
        ties: sharded.shards.rule() == ShardRule::Random,
        copies: !older.is_empty(),
    };
    // A shard as its own count numbers it.
    let own = |i: u16| {
        let first = firsts.iter().rev().find(|&&f| f <= usize::from(i)).copied().unwrap_or(0);
        u16::try_from(usize::from(i) - first).unwrap_or(i)
    };
    let page = query
        .run(client, |pk| expression(&pk_attr, pk, &sk_attr), start.as_ref())
        .await
        .map_err(|failed| AskError::bad(failed.to_string()))?;
    let keys = page
        .items
        .into_iter()
        .map(|(shard, item)| {
            let sk = item.get(&sk_attr).and_then(|v| v.as_s().ok()).cloned().unwrap_or_default();
            (own(shard), sk)
        })
        .collect();
    Ok(MergedKeys { attribute: sk_attr, keys, next: page.next, items: page.read as u64, read_units: page.read_units })
}
