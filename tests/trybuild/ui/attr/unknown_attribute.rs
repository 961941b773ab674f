// A misspelled field attribute (`widht` for `width`) is rejected, not ignored.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(widht = 10)]
    score: u64,
}

fn main() {}
