// Two indexes with one name: the later one is refused.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", order_id),
    index(gsi1(pk(status), sk(order_id)), gsi1(pk(order_id), sk(status)))
)]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {}
