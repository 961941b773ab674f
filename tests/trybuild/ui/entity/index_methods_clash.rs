// Two indexes whose generated methods clash (`abc_key` of index `abc`, the query of index
// `abc_key`) and two whose key types would share a name (`by_state` and `by__state`):
// an error at the later index each.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(id),
    sk(at),
    index(abc(pk(state), sk(at)), abc_key(pk(state), sk(id)), by_state(pk(state), sk(at)), by__state(pk(id), sk(at))),
)]
struct Part {
    id: String,
    at: u64,
    state: String,
}

fn main() {}
