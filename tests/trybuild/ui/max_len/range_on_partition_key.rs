use sortkey_core::SortKey;

// A partition key is compared with `=` only: ranges on it are refused.
#[derive(SortKey)]
#[key(prefix = "P", partition)]
struct PartitionKey {
    tenant: String,
    #[key(width = 4)]
    shard: u16,
}

fn main() {
    // Equality is fine.
    let _ = PartitionKey::query().tenant("acme").shard(7).eq();
    // A range is not.
    let _ = PartitionKey::query().tenant("acme").shard_range().gt(7);
}
