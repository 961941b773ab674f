//! Merged reads of a sharded partition under simulation (`sortkey_sim::scenarios::sharded`):
//! three readers at once, limits and directions drawn from the seed, through lost answers and
//! throttles; each reads every item once, in order. `SORTKEY_SIM_SEED=N` runs one seed.

use sortkey_sim::scenarios::sharded;
use sortkey_sim::{Faults, Sim, seeds};

#[test]
fn merged_reads_through_faults_read_every_item_once_in_order() {
    for seed in seeds(24) {
        let (outcome, _) = Sim::run(seed, Faults::SOME, sharded::run);
        if let Err(broken) = outcome {
            panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sharded");
        }
    }
}
