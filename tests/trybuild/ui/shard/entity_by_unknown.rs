// `by` names no field of the entity: a did-you-mean among the sort key's fields.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "SEASON", season, shard(shards = 16, by = playr)), sk(prefix = "RUN", score, player))]
struct Run {
    season: u16,
    score: u64,
    player: String,
}

fn main() {}
