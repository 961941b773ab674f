// A misspelt option of a key's field is one error, with a did-you-mean, at the option: the key
// type is derived without it.
use sortkey_core::Entity;

#[derive(Entity)]
#[entity(pk(customer_id(widht = 8)), sk(order_id))]
struct Order {
    customer_id: u32,
    order_id: String,
}

fn main() {
    let o = Order { customer_id: 1, order_id: "o".into() };
    let _ = o.key_attributes();
}
