//! The migration under simulation (`sortkey_sim::scenarios::migration`; with a service's typed code
//! beside it and an index key rewritten in place, the two tests at the end, in this binary to
//! link it once): sort keys widened by
//! leased backfill workers, killed and replaced, beside writers, through lost answers,
//! throttles, stalls and clock jumps drawn from the seed. Every seed of a fixed budget must keep
//! every invariant; `SORTKEY_SIM_SEED=N` runs one seed, `SORTKEY_SIM_SEEDS=N` that many, and
//! `SORTKEY_SIM_TRACE=1` prints each run's trace.

use sortkey_sim::scenarios::{clean, index, migration};
use sortkey_sim::{Faults, Sim, run_seeds, seeds, shrink};

#[test]
fn a_migration_with_writers_kills_and_faults_loses_nothing() {
    let failed = run_seeds(&seeds(200), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, migration::run);
        if !trace.iter().any(|l| l.contains("killed")) {
            return Err("no worker was killed".to_owned());
        }
        outcome
    });
    if let Some((seed, broken)) = failed {
        // The same seed at smaller sizes: the shortest run that still fails, to replay.
        let size = migration::Size::from_env();
        let shrunk = shrink(&size.smaller(), |size| {
            let (outcome, trace) = Sim::run(seed, Faults::SOME, |sim| migration::run_sized(sim, size));
            (outcome, trace.len())
        });
        let replay = match shrunk {
            Some((size, broken, length)) => format!(
                "shrunk to {length} requests ({broken}): SORTKEY_SIM_SEED={seed} SORTKEY_SIM_SIZE={size} cargo test -p sortkey-sim --test sim migration::"
            ),
            None => format!("SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim migration::"),
        };
        panic!("seed {seed}: {broken}\nreplay: {replay}");
    }
}

/// A service's typed code during the widening of its sort key, under simulation
/// (`sortkey_sim::scenarios::migration::typed`): a reader pages the runs above a drawn score
/// through `query_page` (one typed cursor across both layouts), a typed writer increments runs
/// by `get_stored` then `update_item` (which moves a run still under its older key), a raw writer
/// increments the same few runs, and leased backfill workers (killed and replaced) move them.
/// Through lost answers, throttles, stalls and clock jumps: every typed read holds exactly the
/// runs it selects, each once, in order; no acknowledged increment is lost; every run ends once
/// in the new layout. `SORTKEY_SIM_SEED=N` replays one seed, `SORTKEY_SIM_TRACE=1` prints its
/// trace.
#[test]
fn a_services_typed_reads_and_writes_during_a_migration_lose_nothing_and_read_exactly() {
    let failed = run_seeds(&seeds(100), |seed| Sim::run(seed, Faults::SOME, migration::typed).0);
    if let Some((seed, broken)) = failed {
        panic!(
            "seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim migration::"
        );
    }
}

/// An index's sort key migrated in place under simulation (`sortkey_sim::scenarios::index`): each
/// run's `gsi1sk` widened by leased backfill workers in place (killed and replaced) while a writer
/// changes scores and writes index keys as the new code does, through lost answers, throttles,
/// stalls and clock jumps: no acknowledged write lost, no stale index key, each run once, the
/// verdict true after every pass. `SORTKEY_SIM_SEED=N` replays one seed, `SORTKEY_SIM_TRACE=1`
/// prints its trace.
#[test]
fn an_index_key_migrated_in_place_beside_a_writer_loses_nothing_and_leaves_no_stale_key() {
    let failed = run_seeds(&seeds(100), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, index::run);
        if !trace.iter().any(|l| l.contains("killed")) {
            return Err("no worker was killed".to_owned());
        }
        outcome
    });
    if let Some((seed, broken)) = failed {
        panic!(
            "seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim migration::"
        );
    }
}

/// The typed backfill's own loop, `run_until_clean`, beside writers that keep its moves of two
/// runs losing (`sortkey_sim::scenarios::clean`): it says complete only when no run is left under
/// its older key, and completes once they stop; nothing lost. Some seeds must leave runs
/// `changed` in a pass, or the verdict's rule for them is not exercised.
#[test]
fn run_until_clean_beside_hammering_writers_says_complete_only_when_it_is() {
    let exercised = std::sync::atomic::AtomicUsize::new(0);
    let failed = run_seeds(&seeds(100), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, clean::run);
        // A pass noted as "0 moved, N changed" with N > 0.
        let moved_nothing_left_changed = |l: &String| {
            let Some(passes) = l.split_once("passes [").and_then(|(_, rest)| rest.split_once(']')) else {
                return false;
            };
            passes.0.split("; ").any(|p| p.starts_with("0 moved, ") && !p.ends_with(" 0 changed"))
        };
        if trace.iter().any(moved_nothing_left_changed) {
            exercised.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        outcome
    });
    if let Some((seed, broken)) = failed {
        panic!(
            "seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim migration::"
        );
    }
    let exercised = exercised.into_inner();
    assert!(exercised > 0 || seeds(100).len() < 100, "no seed had a pass that moved nothing and left runs changed");
}
