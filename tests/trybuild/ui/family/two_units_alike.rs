// Two unit variants with one first segment: the later one is refused, naming both.
use sortkey_core::SortKey;

#[derive(SortKey)]
enum CustomerItem {
    #[key(prefix = "ORDER")]
    Order,
    #[key(prefix = "ORDERS")]
    Orders,
    #[key(prefix = "ORDER#ITEM")]
    OrderItem,
}

fn main() {}
