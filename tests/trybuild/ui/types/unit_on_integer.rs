// `unit` applies to timestamps only.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Event {
    #[key(unit = "ms")]
    at: u64,
}

fn main() {}
