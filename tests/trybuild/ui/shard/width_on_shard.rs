// A shard field's width is its count's: a `width` beside `shards` is refused.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(partition, prefix = "SEASON")]
struct SeasonPk {
    season: u16,
    #[key(shards = 16, by = player, width = 3)]
    shard: u16,
}

fn main() {}
