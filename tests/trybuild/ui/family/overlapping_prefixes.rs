// Two variants whose keys share a first segment: `begins_with("ORDER#")` would return both.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "ORDER")]
struct OrderKey {
    id: String,
}

#[derive(SortKey)]
#[key(prefix = "ORDER")]
struct OrderItemKey {
    line: String,
}

#[derive(SortKey)]
enum CustomerItem {
    Order(OrderKey),
    OrderItem(OrderItemKey),
    #[key(prefix = "ORDER#ITEM")]
    Legacy,
}

fn main() {}
