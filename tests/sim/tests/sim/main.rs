//! The simulation's tests, one binary: each scenario's seeds (`migration`, `reorder`, `reshard`,
//! `sharded`, `rank`), one seed replayed (`replay`), the planted bugs each found (`planted`), and the
//! in-memory DynamoDB held to moto (`differential`). One binary because the crate is optimized
//! in debug builds (.cargo/config.toml) and each test binary compiled its own optimized copy of
//! the scenarios' generic code: seven binaries took about 285 s of a clean build's compile time
//! here, one takes about a seventh of it. Run one module with a filter:
//! `cargo test -p sortkey-sim --test sim migration::`.

mod differential;
mod migration;
mod planted;
mod rank;
mod reorder;
mod replay;
mod reshard;
mod sharded;

/// mimalloc for the runs: every simulated request allocates for the SDK's request, the server's
/// JSON and the trace, and glibc's allocator took about a sixth of a run's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
