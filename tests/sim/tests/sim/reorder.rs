//! Sort keys whose fields change order under simulation (`sortkey_sim::scenarios::migration::
//! reorder`): `Ranked@v1` (`BY#{player}#{score}`) moved to `Ranked` (`RANK#{score desc}#{player}`)
//! by leased backfill workers (killed and replaced), beside writers, while a reader pages the runs
//! above a drawn score across both layouts: the old layout, of which no condition on the score can
//! be said, is read by the widest condition it can express and held to the condition through its
//! keys in the current layout. Through lost answers, throttles, stalls and clock jumps, no read
//! misses a run or returns one twice, and nothing is lost. `SORTKEY_SIM_SEED=N` replays one seed, `SORTKEY_SIM_TRACE=1` prints
//! its trace.

use sortkey_sim::scenarios::migration;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn a_reordering_with_writers_and_readers_loses_nothing_and_reads_every_run_once() {
    let failed = run_seeds(&seeds(100), |seed| Sim::run(seed, Faults::SOME, migration::reorder).0);
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim reorder::");
    }
}
