// `format` takes a string literal; a bare identifier is refused.
use std::time::SystemTime;
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(format = rfc3339)]
    at: SystemTime,
}

fn main() {}
