// `by` and `random` together.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 16, by = player, random)]
    shard: u16,
}

fn main() {}
