// RFC 3339 text has the length its unit gives it.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Event {
    #[key(format = "rfc3339", width = 24)]
    at: std::time::SystemTime,
}

fn main() {}
