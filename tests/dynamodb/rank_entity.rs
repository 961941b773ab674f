//! A ranked entity through the server: `#[entity(rank(score, levels = 3))]` on a season's runs
//! over 4 shards, written with the library's own `put_item` (create and overwrite),
//! `update_item`, `move_item` (a new score; a run moved to another season) and `delete_item`,
//! refusals included; after every step the counters equal the items (`check_counters`) and
//! every rank read equals a sorted list's answer.

use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::dynamodb::{
    ItemErrorKind, PutMode, RankBoard, check_counters, delete_item, move_item, put_item, query_merged, rank, rank_page,
    update_item,
};
use sortkey_core::{Entity, Sharded, SortKey};
use sortkey_tests::server::{client, runtime, server_or_skip};

/// A run of a season, ranked by score within the season (all four shards together).
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 4), shard(shards = 4, by = player)),
    sk(prefix = "RUN", score(width = 6, desc), player),
    rank(score, levels = 3)
)]
struct Run {
    season: u16,
    score: u32,
    player: String,
    note: String,
}

fn run(season: u16, score: u32, player: u32) -> Run {
    Run { season, score, player: format!("p_{player:03}"), note: String::new() }
}

/// The board of `season`: every shard of its partition.
fn board(season: u16) -> RankBoard {
    let partition = run(season, 0, 0).primary_key().partition;
    RankBoard::of_entity::<Run>("RankedRuns", partition.every_shard().unwrap()).unwrap()
}

/// Every counter equals its items, and the rank of each probe equals the sorted list's.
async fn holds(client: &aws_sdk_dynamodb::Client, season: u16, runs: &[Run], step: &str) {
    let board = board(season);
    let differences = check_counters(client, &board).await.unwrap();
    assert_eq!(differences, vec![], "{step}: the counters of season {season} differ from its items");
    let mut keys: Vec<String> =
        runs.iter().filter(|r| r.season == season).map(|r| r.primary_key().sort.encode().unwrap()).collect();
    keys.sort();
    for probe in [0u32, 150, 500, 999, 50_000] {
        let key = run(season, probe, 0).primary_key().sort.encode().unwrap();
        let read = rank(client, &board, &key, true).await.unwrap();
        let before = keys.iter().filter(|k| **k < key).count() as u64;
        assert_eq!(read.rank, before + 1, "{step}: the rank of {key} in season {season}");
        assert_eq!(read.requests, 4 + 2, "{step}: N + 2 requests over 4 shards");
    }
}

#[test]
fn a_ranked_entitys_writes_keep_its_counters_equal_to_its_items() {
    let Some(server) = server_or_skip("a_ranked_entitys_writes_keep_its_counters_equal_to_its_items") else { return };
    let client = client(&server.endpoint);
    runtime().block_on(async {
        sortkey_tests::server::create_table(&client, "RankedRuns").await;
        let mut runs: Vec<Run> = (0..40u32).map(|p| run(1, [150, 500, 999, 7][p as usize % 4] + p % 3, p)).collect();
        for r in &runs {
            put_item(&client, "RankedRuns", r, PutMode::Create).await.unwrap();
        }
        holds(&client, 1, &runs, "40 creates").await;

        // A second create of a run is refused and counts nothing.
        let again = put_item(&client, "RankedRuns", &runs[3], PutMode::Create).await.unwrap_err();
        assert_eq!(again.kind(), &ItemErrorKind::AlreadyExists, "{again}");
        // An overwrite of a stored run keeps the counts; an overwrite that creates adds one.
        let mut noted = runs[5].clone();
        noted.note = "replayed".into();
        put_item(&client, "RankedRuns", &noted, PutMode::Overwrite).await.unwrap();
        runs[5] = noted;
        let fresh = run(1, 321, 100);
        put_item(&client, "RankedRuns", &fresh, PutMode::Overwrite).await.unwrap();
        runs.push(fresh);
        // An update keeps its key, so its counts.
        let mut updated = runs[6].clone();
        updated.note = "checked".into();
        update_item(&client, "RankedRuns", &updated).await.unwrap();
        runs[6] = updated;
        holds(&client, 1, &runs, "a refused create, two overwrites, an update").await;

        // New scores (moves within a shard), and one run moved to season 2 (another partition).
        for i in (0..40).step_by(3) {
            let mut better = runs[i].clone();
            better.score += 1_000 * (i as u32 % 5 + 1);
            move_item(&client, "RankedRuns", &runs[i], &better).await.unwrap();
            runs[i] = better;
        }
        let mut next = runs[1].clone();
        next.season = 2;
        move_item(&client, "RankedRuns", &runs[1], &next).await.unwrap();
        runs[1] = next;
        // A move from a value that is no longer stored changes nothing.
        let stale = run(1, 999_999, 999);
        let refused = move_item(&client, "RankedRuns", &stale, &run(1, 5, 999)).await.unwrap_err();
        assert_eq!(refused.kind(), &ItemErrorKind::Changed, "{refused}");
        holds(&client, 1, &runs, "14 new scores and a run moved away").await;
        holds(&client, 2, &runs, "a run moved in").await;

        // Deletes, and a delete of a run that is gone.
        let deleted: Vec<Run> = runs.iter().skip(20).step_by(4).cloned().collect();
        for r in &deleted {
            delete_item(&client, "RankedRuns", r).await.unwrap();
        }
        runs.retain(|r| !deleted.contains(r));
        let missing = delete_item(&client, "RankedRuns", &deleted[0]).await.unwrap_err();
        assert_eq!(missing.kind(), &ItemErrorKind::Missing, "{missing}");
        holds(&client, 1, &runs, "deletes").await;

        // The board around the middle run, then the players ranked next by a merged read of the
        // season's shards from the page's cursor.
        let board = board(1);
        let mut ordered: Vec<(String, Run)> = runs
            .iter()
            .filter(|r| r.season == 1)
            .map(|r| (r.primary_key().sort.encode().unwrap(), r.clone()))
            .collect();
        ordered.sort_by(|a, b| a.0.cmp(&b.0));
        let middle = ordered.len() / 2;
        let page = rank_page(&client, &board, &ordered[middle].0, true, 3).await.unwrap();
        assert_eq!(page.rank.rank, middle as u64 + 1);
        let cursor = page.next(&board).expect("runs below the middle");
        let season = Run::query(&RunPk { season: 1, shard: 0 }).unwrap();
        let next = query_merged(&client, "RankedRuns", &season, true, 4, Some(&cursor)).await.unwrap();
        let got: Vec<Run> = next.entities.into_iter().map(|(_, r)| r).collect();
        let want: Vec<Run> = ordered.iter().skip(middle + 3).take(4).map(|(_, r)| r.clone()).collect();
        assert_eq!(got, want, "the three from the middle run on, then the next four");
    });
}

/// An entity whose ranked field does not fit its key is refused by name, and nothing is written.
#[test]
fn a_ranked_entity_on_a_key_that_cannot_be_ranked_is_refused() {
    #[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(pk(prefix = "S", season), sk(prefix = "R", name, player), rank(name, levels = 2))]
    struct Named {
        season: u16,
        name: String,
        player: String,
    }
    let e = RankBoard::of_entity::<Named>("T", vec!["S#1".into()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "item of entity `Named`: cannot rank `NamedSk` by `name`: expected an unsigned integer of fixed width, found Text"
    );
}

/// A run's sort key before the score was widened to 6 digits.
#[derive(sortkey_core::SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct MovedSkV1 {
    #[key(width = 4, desc)]
    score: u32,
    player: String,
}

impl From<MovedSkV1> for MovedSk {
    fn from(old: MovedSkV1) -> Self {
        MovedSk { score: old.score, player: old.player }
    }
}

/// A ranked entity in the middle of its sort key's migration.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "SEASON", season(width = 4)), sk(prefix = "RUN", legacy = MovedSkV1, score(width = 6, desc), player), rank(score, levels = 3))]
struct Moved {
    season: u16,
    score: u32,
    player: String,
    note: String,
}

/// A ranked entity whose sort key is being migrated: runs still under the older 4-digit key
/// are in no counter; the service's update of one moves it to the current key onto the
/// counters, its delete of one under the older key takes nothing off them, its creates count,
/// and the backfill (keeping the counters) moves the rest. After each step the counters equal
/// the current layout's items.
#[test]
fn a_ranked_entity_mid_migration_keeps_its_counters() {
    use sortkey_core::KeyNames;
    use sortkey_core::dynamodb::Backfill;
    let Some(server) = server_or_skip("a_ranked_entity_mid_migration_keeps_its_counters") else { return };
    let client = client(&server.endpoint);
    let moved =
        |score: u32, player: u32| Moved { season: 1, score, player: format!("p_{player:02}"), note: String::new() };
    let board = RankBoard::of_entity::<Moved>("MovedRuns", vec!["SEASON#0001".into()]).unwrap();
    runtime().block_on(async {
        sortkey_tests::server::create_table(&client, "MovedRuns").await;
        for p in 0..12u32 {
            let sk = MovedSkV1 { score: p * 700, player: format!("p_{p:02}") }.encode().unwrap();
            let put = client.put_item().table_name("MovedRuns").item("pk", AttributeValue::S("SEASON#0001".into()));
            let put = put.item("sk", AttributeValue::S(sk)).item("season", AttributeValue::N("1".into()));
            let put = put.item("score", AttributeValue::N((p * 700).to_string()));
            put.item("player", AttributeValue::S(format!("p_{p:02}")))
                .item("note", AttributeValue::S(String::new()))
                .send()
                .await
                .unwrap();
        }
        let clean = |step: &'static str| {
            let (client, board) = (&client, &board);
            async move { assert_eq!(check_counters(client, board).await.unwrap(), vec![], "{step}") }
        };
        // The service updates p_03: stored under its older key, it moves to the current one.
        let mut noted = moved(2_100, 3);
        noted.note = "seen".into();
        update_item(&client, "MovedRuns", &noted).await.unwrap();
        clean("an update that moved a run from its older key").await;
        // It deletes p_05, still under its older key: no counter counted it.
        delete_item(&client, "MovedRuns", &moved(3_500, 5)).await.unwrap();
        clean("a delete under the older key").await;
        put_item(&client, "MovedRuns", &moved(9_999, 40), PutMode::Create).await.unwrap();
        clean("a create").await;
        let backfill = Backfill::new(&client, "MovedRuns", KeyNames::DEFAULT).compare_attributes(&["note"]);
        let verdict = backfill.ranked(vec![board.ranked.clone()]).run_until_clean::<MovedSk>(1, 3).await.unwrap();
        assert!(verdict.complete, "{verdict}");
        clean("the backfill").await;
        // Every run but p_05 is on the board: 10 old ones, p_03 and p_40.
        let top = MovedSk { score: 999_999, player: String::new() }.encode().unwrap();
        let last = rank(&client, &board, top.trim_end_matches('#'), false).await.unwrap();
        assert_eq!(last.rank, 13, "a score above all, read from the lowest: behind the 12 runs on the board");
    });
}
