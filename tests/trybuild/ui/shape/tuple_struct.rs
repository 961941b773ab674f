// A tuple struct: segments need field names for errors and queries.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K(u64, String);

fn main() {}
