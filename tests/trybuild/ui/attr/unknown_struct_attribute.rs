// A misspelled struct attribute (`prefx` for `prefix`) is rejected, not ignored.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefx = "RUN")]
struct K {
    score: u64,
}

fn main() {}
