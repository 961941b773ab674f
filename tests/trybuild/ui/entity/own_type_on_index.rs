// `type = ...` is for the primary partition key only.
use sortkey_core::{Entity, SortKey};

#[derive(SortKey)]
#[key(partition)]
struct StatusPk {
    status: String,
}

#[derive(Entity)]
#[entity(pk(id), index(gsi1(pk(type = StatusPk, status))))]
struct Order {
    id: String,
    status: String,
}

fn main() {}
