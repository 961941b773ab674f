// A field named `begins_with` would clash with the `begins_with()` that ends a query at every
// stage of the builder: refused on the field.
use sortkey_core::SortKey;

#[derive(SortKey)]
#[key(prefix = "DOC")]
struct DocKey {
    #[key(width = 4)]
    year: u16,
    begins_with: String,
}

fn main() {
    let _ = DocKey::query().year(2024).begins_with();
}
