// One shard field per key.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    #[key(shards = 4, random)]
    region: u16,
    #[key(shards = 16, by = player)]
    shard: u16,
}

fn main() {}
