// A sort attribute of a multi-attribute index named `condition` would clash with the builder's
// `condition()`, which ends the query at every stage: an error at the field, and nothing else.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(id), sk(at), index(by_state(multi, pk(state), sk(year, condition))))]
struct Part {
    id: String,
    at: u64,
    state: String,
    year: u16,
    condition: String,
}

fn main() {
    let p = Part { id: "p".into(), at: 1, state: "NEW".into(), year: 2026, condition: "good".into() };
    let _ = p.key_attributes();
    let _ = p.primary_key();
}
