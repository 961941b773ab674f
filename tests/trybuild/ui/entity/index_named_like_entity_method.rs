// An index whose generated method would be an `Entity` method (`primary` gives `primary_key`) is
// an error at the index: the inherent method would shadow the trait's.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(id), sk(at), index(primary(pk(state), sk(at))))]
struct Part {
    id: String,
    at: u64,
    state: String,
}

fn main() {
    let p = Part { id: "p".into(), at: 1, state: "NEW".into() };
    let _ = p.primary_key();
}
