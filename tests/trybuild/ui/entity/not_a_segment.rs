// A key field whose type is no segment: the error is at the field's type.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", timeout))]
struct Order {
    customer_id: u32,
    timeout: std::time::Duration,
}

fn main() {}
