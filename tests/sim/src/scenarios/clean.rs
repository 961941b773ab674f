//! The widening run to its end by the typed backfill's own loop, `Backfill::run_until_clean`
//! (passes until one finds nothing to do), while four writers hammer two runs without a pause,
//! so that the moves of those runs lose their race pass after pass and are left `changed`.
//! What must hold: the verdict agrees with an independent count of the table (complete only when
//! no run is left under its older key: a pass that left runs changed is not clean); once the
//! writers stop, the loop completes; no increment is lost, every run once, in the new layout.

use sortkey_core::KeyNames;
use sortkey_core::dynamodb::Backfill;

use super::Outcome;
use super::migration::{Counted, ITEMS, Kind, SEGMENTS, check, item_of, items, seed, writer_on};
use super::typed::RunSk;
use crate::Sim;

/// Passes `run_until_clean` may make while the writers run, and after.
const PASSES: usize = 4;

/// One run of the scenario.
pub async fn run(sim: Sim) -> Outcome {
    let direct = sim.direct_client();
    seed(&direct, Kind::Typed).await;
    let writers: Vec<_> =
        (0..8).map(|_| tokio::task::spawn_local(writer_on(sim.clone(), Kind::Typed, 10, 1, 0))).collect();
    // The backfill's requests see no fault: run_until_clean has no checkpoint to resume from.
    let client = sim.client_without_faults();
    let backfill = Backfill::new(&client, "runs", KeyNames::DEFAULT).version_attribute("version").page_size(7);
    let honest = async |when: &str| -> Outcome {
        let verdict = (backfill.run_until_clean::<RunSk>(SEGMENTS, PASSES).await)
            .map_err(|e| format!("run_until_clean {when}: {e}"))?;
        let now = items(&direct).await;
        let old = now.iter().filter(|(pk, sk, _)| item_of(Kind::Typed, pk, sk).is_some_and(|(_, old)| old)).count();
        let passes: Vec<String> =
            verdict.passes.iter().map(|p| format!("{} moved, {} changed", p.rewritten, p.changed)).collect();
        sim.note(format!(
            "run_until_clean {when}: passes [{}], complete {}, {old} runs under their older key",
            passes.join("; "),
            verdict.complete
        ));
        if verdict.complete && old > 0 {
            return Err(format!(
                "run_until_clean {when} says complete after passes [{}], and {old} runs are still under their older key",
                passes.join("; ")
            ));
        }
        Ok(())
    };
    honest("beside the writers").await?;
    let mut counted = Counted::default();
    counted.acknowledged.resize(ITEMS as usize, 0);
    counted.ambiguous.resize(ITEMS as usize, 0);
    for w in writers {
        let c = w.await.map_err(|e| format!("a writer failed: {e}"))?;
        if let Some(lost) = c.lost {
            return Err(lost);
        }
        for i in 0..ITEMS as usize {
            counted.acknowledged[i] += c.acknowledged[i];
            counted.ambiguous[i] += c.ambiguous[i];
        }
    }
    honest("after the writers").await?;
    check(Kind::Typed, &counted, &items(&direct).await)
}
