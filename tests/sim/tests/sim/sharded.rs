//! Merged reads of a sharded partition under simulation (`sortkey_sim::scenarios::sharded`):
//! three readers at once, limits and directions drawn from the seed, through lost answers and
//! throttles; each reads every item once, in order. `SORTKEY_SIM_SEED=N` runs one seed.

use sortkey_sim::scenarios::sharded;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn merged_reads_through_faults_read_every_item_once_in_order() {
    let failed = run_seeds(&seeds(200), |seed| Sim::run(seed, Faults::SOME, sharded::run).0);
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim sharded::");
    }
}
