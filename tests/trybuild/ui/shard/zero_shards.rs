// A key of zero shards could hold no item.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 0, by = player)]
    shard: u16,
}

fn main() {}
