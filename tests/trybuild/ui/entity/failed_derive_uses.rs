// A failed derive still expands the entity as far as it was read (here without the misspelt
// field), so that its uses add no errors of their own: the one error is the unknown field.
use sortkey_core::{Entity, TableDefinition};

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", custmer_id),
    sk(prefix = "ORDER", order_id),
    index(gsi1(pk(prefix = "STATUS", status), sk(order_id)))
)]
struct Order {
    customer_id: u32,
    order_id: String,
    status: String,
}

fn main() {
    let order = Order { customer_id: 1, order_id: "o-1".into(), status: "NEW".into() };
    let _ = order.key_attributes();
    let _ = order.primary_key();
    let _ = order.gsi1_key();
    let _ = Order::gsi1(&OrderGsi1Pk { status: "NEW".into() });
    let _ = OrderSk { order_id: "o-1".into() };
    let _ = TableDefinition::of::<Order>("orders");
}
