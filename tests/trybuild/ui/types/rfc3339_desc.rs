// RFC 3339 text cannot be reversed; a descending timestamp is Unix time.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Event {
    #[key(format = "rfc3339", desc)]
    at: std::time::SystemTime,
}

fn main() {}
