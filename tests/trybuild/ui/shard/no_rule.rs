// A shard count without its rule: how would a write choose the shard?
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 16)]
    shard: u16,
}

fn main() {}
