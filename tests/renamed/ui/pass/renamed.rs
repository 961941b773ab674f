// A key, a nested key and an enum, all through `crate = ::sk`: they compile and work.
use sk::{KeySegment, SortKey};

#[derive(KeySegment, Debug, Clone, Copy, PartialEq)]
#[key(crate = ::sk, rename_all = "lowercase")]
enum Tier {
    Gold,
    Silver,
}

#[derive(SortKey, Debug, PartialEq)]
#[key(crate = ::sk, prefix = "V")]
struct Version {
    #[key(width = 3)]
    major: u16,
}

#[derive(SortKey, Debug, PartialEq)]
#[key(crate = ::sk, prefix = "R")]
struct Run {
    tier: Tier,
    version: Version,
    #[key(width = 4, desc)]
    score: u32,
}

fn main() {
    let run = Run { tier: Tier::Gold, version: Version { major: 2 }, score: 7 };
    let key = run.encode().unwrap();
    assert_eq!(key, "R#gold#V#002#9992");
    assert_eq!(Run::decode(&key).unwrap(), run);
    let c = Run::query().tier(Tier::Silver).begins_with().unwrap();
    assert_eq!(c.values(), ["R#silver#"]);
}
