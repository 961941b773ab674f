// Type-dependent mistakes in two fields (`desc` on text, width on bool) are both reported.
use sortkey_core::SortKey;

#[derive(SortKey)]
struct K {
    #[key(desc)]
    a: String,
    #[key(width = 3)]
    b: bool,
}

fn main() {}
