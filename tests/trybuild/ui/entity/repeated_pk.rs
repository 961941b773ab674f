// A second `pk` is refused at the second one.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(customer_id), sk(order_id), pk(order_id))]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {}
