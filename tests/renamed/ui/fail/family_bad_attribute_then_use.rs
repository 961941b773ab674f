// A misspelt attribute on a key family through a renamed runtime is one error: its fallback
// names the runtime through `crate = ::sk`, and uses of the family add none.
use sk::SortKey;

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(crate = ::sk, prefix = "ORDER")]
struct OrderKey {
    #[key(width = 4)]
    n: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(crate = ::sk)]
enum Item {
    #[key(prefx = "PROFILE")]
    Profile,
    Order(OrderKey),
}

fn main() {
    let _ = Item::Order(OrderKey { n: 7 }).encode();
    let _ = Item::decode("PROFILE");
}
