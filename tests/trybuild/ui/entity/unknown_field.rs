// A key that names a field the entity does not have: the error is at the name, listing the fields.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "CUST", custmer_id), sk(prefix = "ORDER", order_id))]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {}
