// More shards than a merged read should query.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 5000, random)]
    shard: u16,
}

fn main() {}
