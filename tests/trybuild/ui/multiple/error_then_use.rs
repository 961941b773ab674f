// After a bad attribute, uses of the type (encode, decode, parse, query) add no errors of their own.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 0)]
    score: u64,
}

fn main() {
    let k = K { score: 1 };
    let _ = k.encode();
    let _ = K::decode("001");
    let _: Result<K, _> = "001".parse();
    let _ = K::query().score_range().gte(1);
    let _ = K::query().score(1).eq();
}
