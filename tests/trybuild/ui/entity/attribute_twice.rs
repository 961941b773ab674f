// Two keys written to one attribute: the later one is refused, naming the first.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", order_id),
    index(gsi1(pk(name = "pk", status), sk(order_id)))
)]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {}
