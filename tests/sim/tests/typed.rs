//! A service's typed code during the widening of its sort key, under simulation
//! (`sortkey_sim::scenarios::migration::typed`): a reader pages the runs above a drawn score
//! through `query_page` (one typed cursor across both layouts), a typed writer increments runs
//! by `get_stored` then `update_item` (which moves a run still under its older key), a raw writer
//! increments the same few runs, and leased backfill workers (killed and replaced) move them.
//! Through lost answers, throttles, stalls and clock jumps: every typed read holds exactly the
//! runs it selects, each once, in order; no acknowledged increment is lost; every run ends once
//! in the new layout. `SORTKEY_SIM_SEED=N` replays one seed, `SORTKEY_SIM_TRACE=1` prints its
//! trace.

use sortkey_sim::scenarios::migration;
use sortkey_sim::{Faults, Sim, run_seeds, seeds};

#[test]
fn a_services_typed_reads_and_writes_during_a_migration_lose_nothing_and_read_exactly() {
    let failed = run_seeds(&seeds(100), |seed| {
        let (outcome, trace) = Sim::run(seed, Faults::SOME, migration::typed);
        if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
            eprintln!("{}", trace.join("\n"));
        }
        outcome
    });
    if let Some((seed, broken)) = failed {
        panic!("seed {seed}: {broken}\nreplay: SORTKEY_SIM_SEED={seed} cargo test -p sortkey-sim --test typed");
    }
}
