//! The merged read of a sharded partition through the server: runs of a season written to 16
//! shards by player (and, for ties between shards, notes written to 4 random shards), read back
//! page by page with every kind of bound, both ways, and compared with the oracle (one Query
//! over the union: every item the condition selects, in sort key order). The items the server
//! returned are counted against the budget `limit + N * ceil(1.5 * limit / N)`.

use sortkey_core::dynamodb::{EntityItem, PutMode, get_item, move_item, put_item, query_merged, update_item};
use sortkey_core::query::MergeCursor;
use sortkey_core::{Entity, KeyCondition, Sharded, SortKey, TableDefinition};
use sortkey_tests::server::{client, runtime, server_or_skip};

/// A run of a season: 16 shards, each run's by its player.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 4), shard(shards = 16, by = player)),
    sk(prefix = "RUN", score(width = 4, desc), player)
)]
struct Run {
    season: u16,
    score: u32,
    player: String,
}

/// The sort key the merged read orders by.
fn sort_key(run: &Run) -> String {
    run.primary_key().sort.encode().unwrap()
}

/// The runs, and the oracle's answer to `condition`: the selected runs in sort key order.
fn oracle(runs: &[Run], condition: Option<&KeyCondition>, forward: bool) -> Vec<Run> {
    let mut all: Vec<(String, Run)> = runs.iter().map(|r| (sort_key(r), r.clone())).collect();
    all.retain(|(k, _)| condition.is_none_or(|c| c.matches(k)));
    all.sort_by(|a, b| a.0.cmp(&b.0));
    if !forward {
        all.reverse();
    }
    all.into_iter().map(|(_, r)| r).collect()
}

/// 240 runs of 60 players: scores collide across players, so the sort keys interleave across
/// shards; season 2025 holds one run, to stay out of 2026's answers.
fn season() -> Vec<Run> {
    (0..240u32).map(|i| Run { season: 2026, score: (i * 37) % 500, player: format!("p_{}", i % 60) }).collect()
}

/// Writes the season to table `table` (created), then reads it merged with every kind of bound,
/// both ways, at each of `limits` a page (1 only where the answer is at most 40 runs: a page per
/// item, and where `small_only`'s limit is given, that one too), each read compared with the
/// oracle and each page's items read with the budget; returns the reads compared.
async fn sweep(client: &aws_sdk_dynamodb::Client, table: &str, limits: &[usize], small_only: Option<usize>) -> usize {
    super::create(client, &TableDefinition::of::<Run>(table)).await;
    let runs = season();
    for run in runs.iter().chain([&Run { season: 2025, score: 1, player: "p_0".into() }]) {
        put_item(client, table, run, PutMode::Overwrite).await.unwrap();
    }
    let pk = RunPk { season: 2026, shard: 0 };
    let q = || RunSk::query();
    let conditions: Vec<(&str, Option<KeyCondition>)> = vec![
        ("none", None),
        ("=", Some(q().score(37).player("p_1").eq().unwrap())),
        ("score >= 200", Some(q().score_range().gte(200).unwrap())),
        ("score < 100", Some(q().score_range().lt(100).unwrap())),
        ("between", Some(q().score_range().between(120, 340).unwrap())),
        ("begins_with", Some(q().score(74).begins_with().unwrap())),
        ("player begins_with", Some(q().score(111).player_range().begins_with("p_3").unwrap())),
    ];
    let mut checked = 0;
    for (name, condition) in &conditions {
        let query = match condition {
            Some(c) => Run::query(&pk).unwrap().sort(c.clone()),
            None => Run::query(&pk).unwrap(),
        };
        for forward in [true, false] {
            let expected = oracle(&runs, condition.as_ref(), forward);
            for &limit in limits {
                if (limit == 1 || Some(limit) == small_only) && expected.len() > 40 {
                    continue; // a page per item or nearly: the smaller answers show it
                }
                let (mut got, mut start): (Vec<Run>, Option<MergeCursor>) = (Vec::new(), None);
                loop {
                    let page = query_merged(client, table, &query, forward, limit, start.as_ref())
                        .await
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    let budget = limit + 16 * (3 * limit).div_ceil(32);
                    assert!(page.read <= budget, "{name}, limit {limit}: read {} of {budget}", page.read);
                    for (shard, run) in &page.entities {
                        assert_eq!(*shard, run.primary_key().partition.shard, "{name}: the shard shown");
                    }
                    got.extend(page.entities.into_iter().map(|(_, r)| r));
                    match page.next {
                        Some(next) => start = Some(next),
                        None => break,
                    }
                }
                assert_eq!(got, expected, "{name}, forward {forward}, limit {limit}");
                checked += 1;
            }
        }
    }
    checked
}

/// Every condition, both ways, at 1, 7, 100 and 300 a page, on the simulation's in-memory
/// DynamoDB (held to moto by its differential test): at 7 a page the unbounded season is 35
/// pages of 16 shards' Queries, about a minute of moto's time for this sweep alone.
#[test]
fn a_sharded_season_reads_back_as_one_partition() {
    let client = sortkey_sim::MemoryDynamo::new().client();
    let checked = runtime().block_on(sweep(&client, "runs_sharded", &[1, 7, 100, 300], None));
    assert!(checked >= 40, "{checked} reads compared");
}

/// The same reads on moto, at 7 a page where the answer is at most 40 runs and at 100 and 300
/// everywhere; and the top 100 as the leaderboard reads it, within the budget on the server's
/// own count of the items and read units.
#[test]
fn a_sharded_season_reads_back_as_one_partition_on_moto() {
    let Some(server) = server_or_skip("a_sharded_season_reads_back_as_one_partition_on_moto") else { return };
    let client = client(&server.endpoint);
    runtime().block_on(async {
        let checked = sweep(&client, "runs_sharded", &[7, 100, 300], Some(7)).await;
        assert!(checked >= 30, "{checked} reads compared");
        let season = Run::query(&RunPk { season: 2026, shard: 0 }).unwrap();
        let top = query_merged(&client, "runs_sharded", &season, true, 100, None).await.unwrap();
        assert_eq!(top.entities.len(), 100);
        assert!(top.read <= 260 && top.read_units > 0.0, "read {} items, {} units", top.read, top.read_units);
    });
}

/// Writing chooses the shard from the item: an update stays in the run's shard, and a run whose
/// player changes (the field its shard is calculated from, in its sort key) moves to the new
/// player's shard, in one transaction; a point read by its key finds it with no fan-out, and the
/// merged read sees it once.
#[test]
fn a_changed_player_moves_the_run_to_its_shard() {
    let Some(server) = server_or_skip("a_changed_player_moves_the_run_to_its_shard") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Run>("runs_moved");
    runtime().block_on(async {
        super::create(&client, &def).await;
        // Two players of different shards.
        let shard = |p: &str| RunPk::SHARDS.of(p.as_bytes());
        let a = "p_0".to_owned();
        let b = (1..100).map(|i| format!("p_{i}")).find(|p| shard(p) != shard(&a)).unwrap();
        let run = Run { season: 2026, score: 1500, player: a.clone() };
        put_item(&client, "runs_moved", &run, PutMode::Create).await.unwrap();
        update_item(&client, "runs_moved", &run).await.unwrap();
        let key = run.primary_key();
        assert_eq!(key.partition.shard, RunPk::SHARDS.of(a.as_bytes()));
        assert_eq!(get_item::<Run>(&client, "runs_moved", &key).await.unwrap(), Some(run.clone()));

        let moved = Run { player: b.clone(), ..run.clone() };
        move_item(&client, "runs_moved", &run, &moved).await.unwrap();
        assert_eq!(get_item::<Run>(&client, "runs_moved", &key).await.unwrap(), None, "gone from the old shard");
        let new_key = moved.primary_key();
        assert_eq!(new_key.partition.shard, RunPk::SHARDS.of(b.as_bytes()));
        assert_eq!(get_item::<Run>(&client, "runs_moved", &new_key).await.unwrap(), Some(moved.clone()));
        let season = Run::query(&RunPk { season: 2026, shard: 0 }).unwrap();
        let all = query_merged(&client, "runs_moved", &season, true, 10, None).await.unwrap();
        assert_eq!(all.entities, vec![(new_key.partition.shard, moved)], "once, in its new shard");
        // query_page reads one partition: of a sharded one, it would read one shard, and refuses.
        let e = sortkey_core::dynamodb::query_page(&client, "runs_moved", &season, None, 10).await.unwrap_err();
        assert_eq!(e.kind(), &sortkey_core::dynamodb::ItemErrorKind::Sharded { shards: 16 }, "{e}");
        assert!(e.to_string().contains("expected dynamodb::query_merged"), "{e}");
    });
}

/// The partition key as it was before the season moved to 16 shards: 4.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(partition, prefix = "SEASON")]
struct RunPkV1 {
    #[key(width = 4)]
    season: u16,
    #[key(shards = 4, by = player)]
    shard: u16,
}

/// Mid-way through a shard-count move (4 shards to 16), the entity's merged read over both
/// counts: runs still in their old shard, runs moved, runs in both (copied, not yet deleted);
/// page after page, each run once, in order, the new copy when there are two.
#[test]
fn a_season_mid_move_reads_each_run_once_over_both_counts() {
    use sortkey_core::dynamodb::query_merged_moving;
    let Some(server) = server_or_skip("a_season_mid_move_reads_each_run_once_over_both_counts") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Run>("runs_mid_move");
    let runs: Vec<Run> =
        (0..45u32).map(|i| Run { season: 2026, score: (i * 13) % 50, player: format!("p_{i}") }).collect();
    let older = RunPkV1 { season: 2026, shard: 0 }.every_shard().unwrap();
    runtime().block_on(async {
        super::create(&client, &def).await;
        for (i, run) in runs.iter().enumerate() {
            if i % 3 != 1 {
                put_item(&client, "runs_mid_move", run, PutMode::Create).await.unwrap();
            }
            if i % 3 != 0 {
                // The old copy: the same item under the 4-shard partition key.
                let mut item = run.to_item().unwrap();
                let old = RunPkV1 { season: 2026, shard: RunPkV1::SHARDS.of(run.player.as_bytes()) };
                item.insert("pk".into(), aws_sdk_dynamodb::types::AttributeValue::S(old.encode().unwrap()));
                client.put_item().table_name("runs_mid_move").set_item(Some(item)).send().await.unwrap();
            }
        }
        let season = Run::query(&RunPk { season: 2026, shard: 0 }).unwrap();
        for (forward, limit) in [(true, 7), (false, 100)] {
            let (mut got, mut start) = (Vec::new(), None);
            loop {
                let page =
                    query_merged_moving(&client, "runs_mid_move", &season, &older, forward, limit, start.as_ref())
                        .await
                        .unwrap();
                got.extend(page.entities);
                match page.next {
                    Some(next) => start = Some(next),
                    None => break,
                }
            }
            let want = oracle(&runs, None, forward);
            assert_eq!(got.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(), want, "each run once, in order");
            for (shard, run) in &got {
                let i: usize = run.player[2..].parse().unwrap();
                let expected = match i % 3 {
                    1 => 16 + RunPkV1::SHARDS.of(run.player.as_bytes()),
                    _ => run.primary_key().partition.shard,
                };
                assert_eq!(*shard, expected, "{run:?}: the new copy when there are two, old shards after the new");
            }
        }
    });
}

impl From<RunPkV1> for MovingRunPk {
    /// The season kept; the shard is the item's (its player's), which the older key cannot say:
    /// the item's own key is computed from its fields, not converted.
    fn from(old: RunPkV1) -> Self {
        MovingRunPk { season: old.season, shard: old.shard }
    }
}

/// A run of a season whose shards went from 4 to 16 (`legacy = RunPkV1` on its partition key).
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", legacy = RunPkV1, season(width = 4), shard(shards = 16, by = player)),
    sk(prefix = "RUN", score(width = 4, desc), player)
)]
struct MovingRun {
    season: u16,
    score: u32,
    player: String,
}

/// Mid-way through the shard-count move, a point read by the current key finds a run still in
/// its 4-shard partition (the older shard calculated from its player, as the old code wrote
/// it) and says so; an update moves it to its 16-shard partition; a delete removes one where it
/// is; a run under neither is missing.
#[test]
fn a_point_read_mid_move_finds_a_run_in_its_older_shard() {
    use aws_sdk_dynamodb::types::AttributeValue;
    use sortkey_core::dynamodb::{ItemErrorKind, delete_item, get_stored};
    let Some(server) = server_or_skip("a_point_read_mid_move_finds_a_run_in_its_older_shard") else { return };
    let client = client(&server.endpoint);
    const TABLE: &str = "runs_point_mid_move";
    let def = TableDefinition::of::<MovingRun>(TABLE);
    let old_pk = |run: &MovingRun| {
        RunPkV1 { season: run.season, shard: RunPkV1::SHARDS.of(run.player.as_bytes()) }.encode().unwrap()
    };
    let raw = |pk: String, run: &MovingRun| {
        let request = client.get_item().table_name(TABLE).key("pk", AttributeValue::S(pk));
        let request = request.key("sk", AttributeValue::S(run.primary_key().sort.encode().unwrap()));
        async move { request.consistent_read(true).send().await.unwrap().item().cloned() }
    };
    runtime().block_on(async {
        super::create(&client, &def).await;
        // Players whose shard differs between the two counts, so that the keys differ.
        let runs: Vec<MovingRun> = (0..40u32)
            .map(|i| MovingRun { season: 2026, score: i, player: format!("p_{i}") })
            .filter(|r| r.primary_key().partition.encode().unwrap() != old_pk(r))
            .take(3)
            .collect();
        for run in &runs[..2] {
            let mut item = run.to_item().unwrap();
            item.insert("pk".into(), AttributeValue::S(old_pk(run)));
            client.put_item().table_name(TABLE).set_item(Some(item)).send().await.unwrap();
        }
        let (unmoved, doomed, missing) = (&runs[0], &runs[1], &runs[2]);

        let found = get_stored::<MovingRun>(&client, TABLE, &unmoved.primary_key()).await.unwrap().unwrap();
        assert_eq!((&found.entity, found.partition_version, &found.key.0), (unmoved, 1, &old_pk(unmoved)));
        assert_eq!(
            get_item::<MovingRun>(&client, TABLE, &unmoved.primary_key()).await.unwrap().as_ref(),
            Some(unmoved)
        );

        update_item(&client, TABLE, unmoved).await.unwrap();
        let found = get_stored::<MovingRun>(&client, TABLE, &unmoved.primary_key()).await.unwrap().unwrap();
        assert!(found.is_current(), "{found:?}");
        assert!(raw(old_pk(unmoved), unmoved).await.is_none(), "the older shard's item is gone");

        delete_item(&client, TABLE, doomed).await.unwrap();
        assert!(raw(old_pk(doomed), doomed).await.is_none());
        assert_eq!(get_item::<MovingRun>(&client, TABLE, &doomed.primary_key()).await.unwrap(), None);

        assert_eq!(get_item::<MovingRun>(&client, TABLE, &missing.primary_key()).await.unwrap(), None);
        let e = update_item(&client, TABLE, missing).await.unwrap_err();
        assert!(matches!(e.kind(), ItemErrorKind::Missing), "{e}");
    });
}
