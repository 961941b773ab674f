// A shared partition key type that does not encode as the entity declares (width 9, not 8) is a
// compile error at the type, naming both.
use sortkey_core::{Entity, SortKey};

#[derive(SortKey)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 9)]
    customer_id: u32,
}

#[derive(Entity)]
#[entity(pk(type = CustomerPk, prefix = "CUST", customer_id(width = 8)), sk(order_id))]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {}
