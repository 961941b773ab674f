//! A service's own typed code beside the widening of its sort key (`migration::typed`): the runs
//! as an entity whose sort key has `legacy`, read page by page through `query_page` and updated
//! through `get_stored` then `update_item`, while the backfill workers move the same items and a
//! raw writer increments them. What must hold, besides the migration's own invariants: every
//! typed read holds exactly the runs its condition selects, each once, in order; no increment a
//! typed or raw writer was told was written is lost.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::{ItemErrorKind, get_stored, query_page, update_item};
use sortkey_core::{Entity, ItemKey, SortKey};

use super::migration::Counted;
use crate::Sim;

/// The sort key the runs were written with: scores 10 digits wide.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
pub(super) struct RunSkV1 {
    #[key(width = 10, desc)]
    score: u64,
    player: String,
}

impl From<RunSkV1> for RunSk {
    fn from(old: RunSkV1) -> Self {
        RunSk { score: old.score, player: old.player }
    }
}

/// A run of the season, as the service declares it: the table's `RankKeyV1` and `RankKey`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SEASON", season(width = 1)),
    sk(prefix = "RUN", legacy = RunSkV1, score(width = 12, desc), player),
    version = version
)]
pub(super) struct Run {
    season: u8,
    score: u64,
    player: String,
    hits: u64,
    version: u64,
}

/// Run `i`'s score and player, as the scenario's keys write them.
pub(super) fn fields(i: u64) -> (u64, String) {
    (i * 1000, format!("p_{i}"))
}

/// The attributes of run `i` besides its keys, as the service's entity reads them.
pub(super) fn attributes(i: u64) -> Vec<(&'static str, aws_sdk_dynamodb::types::AttributeValue)> {
    use aws_sdk_dynamodb::types::AttributeValue;
    let (score, player) = fields(i);
    vec![
        ("season", AttributeValue::N("7".into())),
        ("score", AttributeValue::N(score.to_string())),
        ("player", AttributeValue::S(player)),
    ]
}

/// The typed writer: `steps` increments of runs drawn from the first `hot`, each read by its
/// current key (`get_stored`, which finds a run not yet moved under its older key) and written
/// by `update_item` (which moves such a run to its current key as updated, in one conditional
/// transaction). A refused write (the run changed, moved or was being moved) is made again from
/// a new read; one whose answer was lost is counted as maybe written.
pub(super) async fn writer(sim: Sim, steps: usize, hot: u64) -> Counted {
    let client = sim.client();
    let items = super::migration::ITEMS as usize;
    let mut counted = Counted { acknowledged: vec![0; items], ambiguous: vec![0; items], lost: None };
    let pk = RunPk { season: 7 };
    for _ in 0..steps {
        let i = sim.below(hot);
        let (score, player) = fields(i);
        let key = ItemKey::new(pk.clone(), RunSk { score, player });
        for _attempt in 0..50 {
            let Ok(Some(found)) = get_stored::<Run>(&client, "runs", &key).await else { continue };
            let next = Run { hits: found.entity.hits + 1, ..found.entity };
            match update_item(&client, "runs", &next).await {
                Ok(()) => {
                    counted.acknowledged[i as usize] += 1;
                    break;
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        ItemErrorKind::VersionConflict { .. } | ItemErrorKind::Missing | ItemErrorKind::Changed
                    ) => {}
                Err(e) if e.to_string().contains("Throttling") => {}
                Err(_) => {
                    counted.ambiguous[i as usize] += 1;
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(sim.below(20))).await;
    }
    counted
}

/// The typed reader, until `stop`: the runs of score at least a drawn threshold, through
/// `query_page` a drawn number a page with its typed cursor (a page whose request fails is read
/// again from the same cursor): every read must hold exactly those runs, each once, highest
/// first. Returns the reads made, or what broke.
pub(super) async fn reader(sim: Sim, stop: Arc<Mutex<bool>>) -> Result<usize, String> {
    let client = sim.client();
    let items = super::migration::ITEMS;
    let mut reads = 0;
    while !*stop.lock().unwrap_or_else(|p| p.into_inner()) {
        let threshold = sim.below(items) * 1000;
        let condition = RunSk::query().score_range().gte(threshold).map_err(|e| e.to_string())?;
        let query = Run::query(&RunPk { season: 7 }).map_err(|e| e.to_string())?.sort(condition);
        let limit = 1 + sim.below(12) as i32;
        let (mut players, mut start) = (Vec::new(), None);
        loop {
            let Ok(page) = query_page(&client, "runs", &query, start.as_ref(), limit).await else { continue };
            players.extend(page.entities.iter().filter_map(|r| r.player.strip_prefix("p_")?.parse::<u64>().ok()));
            match page.next {
                Some(next) => start = Some(next),
                None => break,
            }
        }
        let want: Vec<u64> = (0..items).filter(|i| i * 1000 >= threshold).rev().collect();
        if players != want {
            return Err(format!(
                "a typed paged read (score >= {threshold}, {limit} a page) returned players {players:?}, expected {want:?}"
            ));
        }
        reads += 1;
        tokio::time::sleep(Duration::from_millis(100 + sim.below(200))).await;
    }
    Ok(reads)
}
