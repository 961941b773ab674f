// The table's partition is sharded, not an index's.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "SEASON", season),
    sk(prefix = "RUN", score, player),
    index(by_player(pk(player, shard(shards = 4, by = score)), sk(score)))
)]
struct Run {
    season: u16,
    score: u64,
    player: String,
}

fn main() {}
