// A bad separator on the struct and a bad width on a field: both are reported.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(separator = 'a')]
struct K {
    #[key(width = 41)]
    score: u64,
    name: String,
}

fn main() {}
