// `Duration` is no segment type: one error, at the field, with the list of segment types,
// whatever else uses the type (the query builder, decode).
use std::time::Duration;
use sortkey_core::SortKey;

#[derive(SortKey)]
struct Job {
    #[key(width = 4)]
    queue: u32,
    timeout: Duration,
}

fn main() {
    let _ = Job::query().queue(1).timeout_range().gt(Duration::from_secs(5));
    let _ = Job::decode("0001#5");
}
