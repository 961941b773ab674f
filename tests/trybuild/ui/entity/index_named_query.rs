// An index named `query` would generate the method every entity has for a partition of its
// table (`Part::query(&pk)`): an error at the index, which names the way out.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(id), sk(at), index(query(pk(state), sk(at))))]
struct Part {
    id: String,
    at: u64,
    state: String,
}

fn main() {
    let _ = Part::query(&PartPk { id: "p".into() });
}
