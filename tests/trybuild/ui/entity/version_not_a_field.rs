// `version = ...` must name an integer field of the entity: a misspelt one is one error.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(id), version = revison)]
struct Account {
    id: String,
    revision: u64,
}

fn main() {
    let a = Account { id: "a".into(), revision: 0 };
    let _ = a.key_attributes();
}
