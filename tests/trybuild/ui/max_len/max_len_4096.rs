// `max_len = 4096`, over DynamoDB's 2048-byte partition key limit.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(max_len = 4096)]
struct K {
    score: u64,
}

fn main() {}
