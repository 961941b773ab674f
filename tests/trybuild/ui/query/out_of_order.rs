// Fixing the second field before the first: stage 0 has no method for `timestamp`.
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
    let _ = RankKey::query().timestamp(1719100800).begins_with();
}
