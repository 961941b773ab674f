// A shard field is a `u16`.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 16, random)]
    shard: u8,
}

fn main() {}
