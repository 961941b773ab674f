// An entity's shard hashes a field of its sort key: `region` is a field, but not in `sk(...)`.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "SEASON", season, shard(shards = 16, by = region)), sk(prefix = "RUN", score, player))]
struct Run {
    season: u16,
    region: String,
    score: u64,
    player: String,
}

fn main() {}
