use sortkey_core::SortKey;

// A key longer than 1024 bytes can only be a partition key: ranges on it are refused.
#[derive(SortKey)]
#[key(prefix = "P", max_len = 2048)]
struct PartitionKey {
    tenant: String,
    #[key(width = 4)]
    shard: u16,
}

fn main() {
    // Equality is fine.
    let _ = PartitionKey::query().tenant("acme").shard(7).eq();
    // A range is not.
    let _ = PartitionKey::query().tenant("acme").shard_gt(7);
}
