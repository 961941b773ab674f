// A field of a user type that does not implement `KeySegment`.
use sortkey_core::SortKey;

struct PlayerId(u64);

#[derive(SortKey)]
struct K {
    score: u64,
    player: PlayerId,
}

fn main() {}
