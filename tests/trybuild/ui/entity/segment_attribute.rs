// A segment attribute is checked as on a key type, at its token.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "CUST", customer_id(width = 25)), sk(prefix = "ORDER", order_id(desc)))]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {}
