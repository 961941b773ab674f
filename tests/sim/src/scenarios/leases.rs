//! The backfill's leases and checkpoints, held to what the server applied (`Sim::history`)
//! rather than to what the workers say they did. A segment's checkpoint item (`BACKFILL#name`,
//! `SEGMENT#...`) is written by two kinds of update: a take (`SET #owner = :me, lease_until =
//! :until`, conditional on the lease being free) and a save (`SET saved = :saved, lease_until =
//! :until`, conditional on the owner). Replayed in the order applied:
//!
//! - a take by another worker never succeeds while the holder's lease is live by the taker's own
//!   clock when the server applied it: no two workers hold one segment at once;
//! - a segment's saved totals never go back and a finished segment stays finished: a worker that
//!   takes a segment over continues from its saved cursor and totals, never from the start.

use sortkey_core::dynamodb::{Progress, SegmentCursor};

use super::Outcome;
use crate::Applied;

/// What the history says of one segment so far.
struct Segment {
    key: (String, String),
    holder: Option<(String, u64)>,
    saved: Option<(SegmentCursor, Progress)>,
}

/// Checks the leases and checkpoints of every backfill in `history` (a run's applied writes).
pub fn check(history: &[Applied]) -> Outcome {
    let mut segments: Vec<Segment> = Vec::new();
    for applied in history.iter().filter(|a| a.op == "UpdateItem") {
        let request = &applied.request;
        let text = |v: &serde_json::Value| v["S"].as_str().or_else(|| v["N"].as_str()).map(str::to_owned);
        let (Some(pk), Some(sk)) = (text(&request["Key"]["pk"]), text(&request["Key"]["sk"])) else { continue };
        if !pk.starts_with("BACKFILL#") {
            continue;
        }
        let values = &request["ExpressionAttributeValues"];
        let until = text(&values[":until"]).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        let at = segments.iter().position(|s| s.key == (pk.clone(), sk.clone())).unwrap_or_else(|| {
            segments.push(Segment { key: (pk.clone(), sk.clone()), holder: None, saved: None });
            segments.len() - 1
        });
        let segment = &mut segments[at];
        let update = request["UpdateExpression"].as_str().unwrap_or_default();
        if update.starts_with("SET #owner") {
            let taker = text(&values[":me"]).unwrap_or_default();
            if let Some((holder, live_until)) = &segment.holder
                && *holder != taker
                && *live_until >= applied.clock_ms
            {
                return Err(format!(
                    "{pk} {sk}: {taker} took the segment at {} ms (by its clock, {} ms into the run) while {holder}'s \
                     lease ran to {live_until}: two workers held it at once",
                    applied.clock_ms, applied.at_ms
                ));
            }
            segment.holder = Some((taker, until));
        } else if update.starts_with("SET saved") {
            let Some(saved) = text(&values[":saved"]) else { continue };
            let Ok(now) = serde_json::from_str::<serde_json::Value>(&saved) else {
                return Err(format!("{pk} {sk}: a save whose checkpoint is no JSON: {saved}"));
            };
            let cursor: Result<SegmentCursor, _> = serde_json::from_value(now["cursor"].clone());
            let progress: Result<Progress, _> = serde_json::from_value(now["progress"].clone());
            let (Ok(cursor), Ok(progress)) = (cursor, progress) else {
                return Err(format!("{pk} {sk}: a save the checkpoint cannot read: {saved}"));
            };
            if let Some((holder, _)) = &mut segment.holder {
                segment.holder = Some((holder.clone(), until));
            }
            if let Some((before, totals)) = &segment.saved {
                let counts =
                    |p: &Progress| [p.scanned, p.rewritten, p.current, p.superseded, p.changed, p.other, p.pages];
                let went_back = counts(&progress).iter().zip(counts(totals)).any(|(now, then)| *now < then);
                if went_back || (before.done && !cursor.done) {
                    let owner = segment.holder.as_ref().map_or("?", |(o, _)| o.as_str());
                    return Err(format!(
                        "{pk} {sk}: {owner} saved {progress:?} (done: {}) after {totals:?} (done: {}) was saved, {} ms \
                         into the run: a segment taken over restarted instead of going on from its saved cursor",
                        cursor.done, before.done, applied.at_ms
                    ));
                }
            }
            segment.saved = Some((cursor, progress));
        }
    }
    Ok(())
}
