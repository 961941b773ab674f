// A bad attribute on an enum through a renamed runtime is one error, and a key using the enum
// adds none.
use sk::{KeySegment, SortKey};

#[derive(KeySegment, Clone, Copy)]
#[key(crate = ::sk, rename_all = "shouting")]
enum Tier {
    Gold,
}

#[derive(SortKey)]
#[key(crate = ::sk)]
struct Run {
    tier: Tier,
}

fn main() {
    let _ = Run { tier: Tier::Gold }.encode();
}
