// `unit` takes a string literal.
use std::time::SystemTime;
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(unit = 1000)]
    at: SystemTime,
}

fn main() {}
