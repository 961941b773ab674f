// A unit struct without a prefix would encode to the empty string.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K;

fn main() {}
