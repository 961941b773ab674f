//! An index's sort key migrated in place under simulation (`sortkey_sim::scenarios::index`): each
//! run's `gsi1sk` widened by leased backfill workers in place (killed and replaced) while a writer
//! changes scores and writes index keys as the new code does, through lost answers, throttles,
//! stalls and clock jumps: no acknowledged write lost, no stale index key, each run once, the
//! verdict true after every pass. `SORTKEY_SIM_SEED=N` replays one seed, `SORTKEY_SIM_TRACE=1`
//! prints its trace.

use sortkey_sim::scenarios::index;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn an_index_key_migrated_in_place_beside_a_writer_loses_nothing_and_leaves_no_stale_key() {
    let failed = run_seeds(&seeds(100), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, index::run);
        if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
            eprintln!("{}", trace.join("\n"));
        }
        if !trace.iter().any(|l| l.contains("killed")) {
            return Err("no worker was killed".to_owned());
        }
        outcome
    });
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test index");
    }
}
