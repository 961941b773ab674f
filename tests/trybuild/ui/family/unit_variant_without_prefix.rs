// A unit variant needs its literal key.
use sortkey_core::SortKey;

#[derive(SortKey)]
enum CustomerItem {
    Profile,
}

fn main() {}
