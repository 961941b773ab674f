// A version field that is no unsigned integer is an error at the field.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(id), version = revision)]
struct Account {
    id: String,
    revision: String,
}

fn main() {}
