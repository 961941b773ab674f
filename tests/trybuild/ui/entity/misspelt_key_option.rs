// A misspelt option of a key is one error, with a did-you-mean: the entity still expands as far
// as it was read, so its key types, `key_attributes` and its index methods add none.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(
    pk(prfix = "CUST", customer_id),
    sk(prefix = "ORDER", order_id),
    index(gsi1(pk(prefix = "STATUS", status), sk(order_id)))
)]
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
    let _ = Order::gsi1(&OrderGsi1Pk { status: "NEW".into() });
    let _ = OrderPk { customer_id: 1 };
}
