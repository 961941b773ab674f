// An entity's key is calculated at every write: a random shard could not be found again.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "SEASON", season, shard(shards = 16, random)), sk(prefix = "RUN", score, player))]
struct Run {
    season: u16,
    score: u64,
    player: String,
}

fn main() {}
