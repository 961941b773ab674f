//! Compile-fail and compile-pass tests of `#[derive(SortKey)]` with trybuild.
//!
//! `ui/<category>/<case>.rs` shows one mistake each and `<case>.stderr` is what the compiler
//! must print for it; `ui/pass/*.rs` must compile and run. A new category directory under
//! `ui/` is picked up without changing this file.
//!
//! The `.stderr` files are pinned to the toolchain they were generated with, rustc 1.95.0
//! (`rustc --version`): compiler messages drift between releases, so on another toolchain
//! these tests may fail on wording alone. After a deliberate change to a message, or when
//! moving to a new toolchain, regenerate them with
//!
//! ```text
//! TRYBUILD=overwrite cargo test -p sortkey-tests-ui --test compiletest
//! ```
//!
//! and read every changed `.stderr`: each must name the field, say what was expected and
//! what was found, point at the offending token, and show one error per mistake.

use std::path::Path;

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    for category in compile_fail_categories() {
        t.compile_fail(format!("ui/{category}/*.rs"));
    }
}

/// Every directory under `ui/` except `pass`, sorted so the run order is stable.
fn compile_fail_categories() -> Vec<String> {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
    let mut categories: Vec<String> = std::fs::read_dir(&ui)
        .expect("tests/trybuild/ui exists")
        .map(|entry| entry.expect("readable tests/trybuild/ui entry"))
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "pass")
        .collect();
    categories.sort();
    assert!(!categories.is_empty(), "no compile-fail categories under {}", ui.display());
    categories
}
