// Units are "s", "ms", "us" and "ns".
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Event {
    #[key(unit = "min")]
    at: std::time::SystemTime,
}

fn main() {}
