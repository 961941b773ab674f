// A second `crate = path` is refused at the second one.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(crate = ::sortkey_core, pk(customer_id), sk(order_id), crate = ::sortkey_core)]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {}
