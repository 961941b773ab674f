// An unknown attribute on a variant lists the one a variant takes.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
enum Tier {
    #[key(name = "gold")]
    Gold,
}

fn main() {}
