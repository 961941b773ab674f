//! A shard-count move under simulation (`sortkey_sim::scenarios::migration::reshard`): a season
//! moved from 4 shards to 16 by leased backfill workers (killed and replaced), each run's new
//! shard calculated from its player, beside writers, while readers read the season merged over
//! both counts; through lost answers, throttles, stalls and clock jumps. Every read returns every
//! run once, in order (a move copies before it deletes: a run missed by the page's reads is in its
//! new shard by their end, and read there again), and nothing is lost. `SORTKEY_SIM_SEED=N` replays one seed,
//! `SORTKEY_SIM_TRACE=1` prints each run's trace.

use sortkey_sim::scenarios::migration;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn a_shard_count_move_with_writers_and_readers_loses_nothing_and_reads_every_run_once() {
    let failed = run_seeds(&seeds(60), |seed| Sim::run(seed, Faults::SOME, migration::reshard).0);
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test sim reshard::");
    }
}
