// `by` without `shards = N`.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(by = player)]
    shard: u16,
}

fn main() {}
