// `None` sorts first in both directions, so an `Option` cannot be `desc`.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Event {
    #[key(desc)]
    level: Option<u8>,
}

fn main() {}
