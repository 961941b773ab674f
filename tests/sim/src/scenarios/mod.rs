//! Scenarios the simulation runs, each one seed at a time, each returning the first invariant a
//! run broke (with the seed's trace kept by [`Sim::run`](crate::Sim::run)): the migration of a
//! table's sort keys by leased, killed and replaced backfill workers beside writers
//! ([`migration`]; a service's typed code beside it, `migration::typed`), an index's sort key
//! rewritten in place ([`index`]), merged reads of a sharded partition ([`sharded`]), the
//! typed backfill's loop to a clean pass beside writers that keep its moves losing ([`clean`]),
//! and rank counters kept by writers beside rank readers ([`rank`]).

pub mod clean;
pub mod index;
pub mod leases;
pub mod migration;
pub mod rank;
pub mod sharded;
mod typed;

use aws_sdk_dynamodb::Client;
use sortkey_core::dynamodb::ShardedQuery;
use sortkey_core::query::MergeCursor;
use sortkey_core::{KeyExpression, KeyNames, TableDefinition};

/// Creates table `name` with string key attributes `pk` and `sk`.
pub(crate) async fn create_table(client: &Client, name: &str) {
    let request = TableDefinition::new(name, KeyNames::DEFAULT).apply_to_create(client.create_table());
    let request = request.unwrap_or_else(|e| panic!("a table definition: {e}"));
    request.send().await.unwrap_or_else(|e| panic!("cannot create table {name}: {e:?}"));
}

/// A run's verdict: `Err` with the first invariant it broke.
pub type Outcome = Result<(), String>;

/// The sort keys (attribute `sk`) a merged read of partitions (attribute `pk`) returns, page by
/// page by its cursor to the end, each with the shard it was returned from (what tells ties, one
/// sort key in two shards, apart); a page whose request fails (throttled, its answer lost) is
/// read again from the same cursor.
pub(crate) async fn merged_keys(client: &Client, query: &ShardedQuery<'_>) -> Vec<(String, u16)> {
    merged_pages(client, query, usize::MAX).await
}

/// [`merged_keys`] for at most `pages` pages (from the start; to the end if it comes first).
pub(crate) async fn merged_pages(client: &Client, query: &ShardedQuery<'_>, pages: usize) -> Vec<(String, u16)> {
    let (mut keys, mut after): (Vec<(String, u16)>, Option<MergeCursor>) = (Vec::new(), None);
    let mut read = 0;
    while read < pages {
        let Ok(page) = query.run(client, |pk| KeyExpression::partition("pk", pk), after.as_ref()).await else {
            continue;
        };
        read += 1;
        let sort = |item: &sortkey_core::dynamodb::Attributes| item.get("sk").and_then(|v| v.as_s().ok()).cloned();
        keys.extend(page.items.iter().filter_map(|(shard, item)| Some((sort(item)?, *shard))));
        match page.next {
            Some(next) => after = Some(next),
            None => return keys,
        }
    }
    keys
}
