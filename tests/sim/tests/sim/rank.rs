//! Rank counters under simulation (`sortkey_sim::scenarios::rank`): two writers moving and
//! deleting runs through `write_ranked`, two rank readers, lost answers and throttles; after
//! every committed write the counters equal the items, and each rank read lies between the
//! ranks of the states it read through. `SORTKEY_SIM_SEED=N` runs one seed.

use sortkey_sim::scenarios::rank;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn rank_counters_equal_the_items_and_reads_stay_between_states() {
    let failed = run_seeds(&seeds(200), |seed| Sim::run(seed, Faults::SOME, rank::run).0);
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim rank::");
    }
}
