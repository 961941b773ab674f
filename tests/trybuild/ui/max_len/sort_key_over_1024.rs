// A sort key may have at most 1024 bytes; a longer key must be declared a partition key.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "P", max_len = 1500)]
struct K {
    tenant: String,
}

fn main() {}
