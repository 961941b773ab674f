// One misspelt entity option through a renamed runtime is one error: the entity still expands
// through `crate = ::sk` as far as it was read, and its uses add none.
use sk::Entity;

#[derive(Entity)]
#[entity(crate = ::sk, pk(prfix = "CUST", customer_id), sk(order_id), index(gsi1(pk(status), sk(order_id))))]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {
    let o = Order { customer_id: 1, order_id: "o".into(), status: "NEW".into() };
    let _ = o.key_attributes();
    let _ = o.primary_key();
    let _ = o.gsi1_key();
    let _ = OrderPk { customer_id: 1 };
}
