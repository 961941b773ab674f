//! The migration under simulation (`sortkey_sim::scenarios::migration`): sort keys widened by
//! leased backfill workers, killed and replaced, beside writers, through lost answers,
//! throttles, stalls and clock jumps drawn from the seed. Every seed of a fixed budget must keep
//! every invariant; `SORTKEY_SIM_SEED=N` runs one seed, `SORTKEY_SIM_SEEDS=N` that many, and
//! `SORTKEY_SIM_TRACE=1` prints each run's trace.

use sortkey_sim::scenarios::migration;
use sortkey_sim::{Faults, Sim, seeds};

#[test]
fn a_migration_with_writers_kills_and_faults_loses_nothing() {
    for seed in seeds(16) {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, migration::run);
        if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
            eprintln!("{}", trace.join("\n"));
        }
        assert!(trace.iter().any(|l| l.contains("killed")), "seed {seed}: a worker was killed");
        if let Err(broken) = outcome {
            panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test migration");
        }
    }
}
