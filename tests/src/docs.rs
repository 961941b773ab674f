//! The project's documents as the tests read them: the README and the book's pages (docs/src),
//! in the order of the book's summary.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The book's pages as its SUMMARY.md lists them, as paths relative to docs/src.
pub fn summary() -> Vec<String> {
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).expect("docs/src/SUMMARY.md");
    summary
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|target| target.ends_with(".md"))
        .map(str::to_owned)
        .collect()
}

/// The README and then every page of the book, each as (its path from the root, its text).
pub fn documents() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut out = vec![("README.md".to_owned(), readme)];
    for page in summary() {
        let path = format!("docs/src/{page}");
        let text = std::fs::read_to_string(root().join(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        out.push((path, text));
    }
    out
}
