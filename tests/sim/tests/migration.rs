//! The migration under simulation (`sortkey_sim::scenarios::migration`): sort keys widened by
//! leased backfill workers, killed and replaced, beside writers, through lost answers,
//! throttles, stalls and clock jumps drawn from the seed. Every seed of a fixed budget must keep
//! every invariant; `SORTKEY_SIM_SEED=N` runs one seed, `SORTKEY_SIM_SEEDS=N` that many, and
//! `SORTKEY_SIM_TRACE=1` prints each run's trace.

use sortkey_sim::scenarios::migration;
use sortkey_sim::{Faults, Sim, run_seeds, seeds, shrink};

#[test]
fn a_migration_with_writers_kills_and_faults_loses_nothing() {
    let failed = run_seeds(&seeds(200), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, migration::run);
        if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
            eprintln!("{}", trace.join("\n"));
        }
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
                "shrunk to {length} requests ({broken}): SORTKEY_SIM_SEED={seed} SORTKEY_SIM_SIZE={size} cargo test -p sortkey-sim --test migration"
            ),
            None => format!("SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test migration"),
        };
        panic!("seed {seed}: {broken}\nreplay: {replay}");
    }
}
