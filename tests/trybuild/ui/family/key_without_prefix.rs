// A key type without a literal prefix cannot be a variant: its keys could begin like any other's.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct NoPrefix {
    id: String,
}

#[derive(SortKey)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Bare(NoPrefix),
}

fn main() {}
