// A misspelt option of an index is one error, with a did-you-mean; the index is still read.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(customer_id), sk(order_id), index(gsi1(nmae = "by-status", pk(status), sk(order_id))))]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {
    let o = Order { customer_id: 1, order_id: "o".into(), status: "NEW".into() };
    let _ = o.gsi1_key();
}
