// Two indexes with one Rust name (their DynamoDB names apart) would define one method twice:
// the error is at the second name.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", order_id),
    index(
        gsi1(name = "by_status", pk(prefix = "STATUS", status), sk(order_id)),
        gsi1(name = "by_order", pk(prefix = "O", order_id), sk(status)),
    )
)]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {}
