// `shards` on a key that is no partition key: a shard spreads a partition, so it belongs to one.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "RUN")]
struct RunKey {
    score: u64,
    #[key(shards = 16, by = player)]
    shard: u16,
}

fn main() {}
