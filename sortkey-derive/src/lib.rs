//! `#[derive(SortKey)]` for `sortkey-core`. Use it through `sortkey_core::SortKey`.
fn _x() {}
