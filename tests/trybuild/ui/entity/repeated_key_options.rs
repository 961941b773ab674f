// A repeated `prefix` of a key and a repeated `name` of an index are each refused at the second.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", prefix = "C", customer_id),
    sk(order_id),
    index(gsi1(name = "by-status", pk(status), sk(order_id), name = "by-state")),
)]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {}
