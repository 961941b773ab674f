// A union cannot be a key.
use sortkey_core::SortKey;

#[derive(SortKey)]
union K {
    score: u64,
    id: u32,
}

fn main() {}
