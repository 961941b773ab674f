// `rank(...)` says how many leading digits its counters count by: without `levels` it is one error.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "SEASON", season), sk(prefix = "RUN", score(width = 6, desc), player), rank(score))]
struct Run {
    season: u16,
    score: u32,
    player: String,
}

fn main() {
    let r = Run { season: 1, score: 10, player: "p".into() };
    let _ = r.key_attributes();
}
