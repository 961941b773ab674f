// `begins_with` on a field's range exists only for text fields; a number is queried with a range.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(width = 4)]
    score: u16,
    name: String,
}

fn main() {
    let _ = K::query().score_range().begins_with("15");
}
