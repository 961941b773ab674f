// The older layouts of a partition key type of the user's own belong on that type, which every
// entity of the partition shares: `legacy` beside `type = ...` is an error at the older type.
use sortkey_core::{Entity, SortKey};

#[derive(SortKey)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    customer_id: String,
}

#[derive(SortKey)]
#[key(prefix = "C", partition)]
struct CustomerPkV1 {
    customer_id: String,
}

#[derive(Entity)]
#[entity(pk(type = CustomerPk, prefix = "CUST", legacy = CustomerPkV1, customer_id), sk(prefix = "ORDER", order_no))]
struct Order {
    customer_id: String,
    order_no: u32,
}

fn main() {}
