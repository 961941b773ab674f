// Two variants whose query methods would have one name (`order_item`) are an error at the later.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "A")]
struct A {
    n: u8,
}

#[derive(SortKey)]
#[key(prefix = "B")]
struct B {
    n: u8,
}

#[allow(non_camel_case_types)]
#[derive(SortKey)]
enum Item {
    OrderItem(A),
    Order_item(B),
}

fn main() {}
