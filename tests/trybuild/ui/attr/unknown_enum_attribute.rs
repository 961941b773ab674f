// An unknown attribute on a `KeySegment` enum lists the ones an enum takes.
use sortkey_core::KeySegment;

#[derive(KeySegment)]
#[key(rename_al = "snake_case")]
enum Tier {
    Gold,
}

fn main() {}
