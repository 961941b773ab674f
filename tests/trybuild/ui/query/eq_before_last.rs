// `eq()` needs every field fixed; after one of three there is only `begins_with()` or a range.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

fn main() {
    let _ = RankKey::query().score(1500).eq();
}
