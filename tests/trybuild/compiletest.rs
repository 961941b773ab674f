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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    for category in compile_fail_categories() {
        t.compile_fail(format!("ui/{category}/*.rs"));
    }
}

/// A mistake is one error as the compiler counts it, not only as it shows it: rustc prints once
/// the errors that share a message and a span, but counts each (`aborting due to 9 previous
/// errors`), and `--message-format json`, which editors read, carries every copy. trybuild
/// compares the printed text, so this builds every compile-fail case again with cargo's JSON:
/// each counts as many errors as its `.stderr` shows.
#[test]
fn every_case_counts_the_errors_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("error-count");
    std::fs::create_dir_all(&dir).unwrap();
    // Each case a binary of one crate, named after its category and file.
    let mut cases: BTreeMap<String, (PathBuf, usize)> = BTreeMap::new();
    for category in compile_fail_categories() {
        for entry in std::fs::read_dir(root.join("ui").join(&category)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let stderr = std::fs::read_to_string(path.with_extension("stderr")).unwrap();
            let shown = stderr.lines().filter(|l| l.starts_with("error[") || l.starts_with("error:")).count();
            let name = format!("{category}__{}", path.file_stem().unwrap().to_string_lossy());
            cases.insert(name, (path, shown));
        }
    }
    // The dependencies, build directory, flags and target of trybuild's own build of the cases
    // (trybuild 1.0's src/cargo.rs and src/rustflags.rs), so that this build finds the
    // dependencies built: alone it built them again, half of this binary's time.
    let features = r#"["serde", "chrono", "time", "uuid", "ulid", "rust_decimal"]"#;
    let mut manifest = format!(
        "[package]\nname = \"sortkey-error-count\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nserde_json = \"1\"\nsortkey-core = {{ path = {:?}, features = {features} }}\n",
        root.join("../../sortkey-core").canonicalize().unwrap()
    );
    for (name, (path, _)) in &cases {
        manifest.push_str(&format!("\n[[bin]]\nname = {name:?}\npath = {path:?}\n"));
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("../../Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let host = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into())).arg("-vV").output().unwrap();
    let host = String::from_utf8_lossy(&host.stdout);
    let host = host.lines().find_map(|l| l.strip_prefix("host: ")).expect("rustc -vV names the host").to_owned();
    let rustflags = r#"["--cfg", "trybuild", "--verbose", "-A", "dead_code", "--diagnostic-width=140"]"#;
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--bins", "--keep-going", "--quiet", "--message-format", "json", "--target", &host])
        .arg(format!("--config=build.rustflags={rustflags}"))
        .arg(format!("--config=target.{host}.rustflags={rustflags}"))
        .current_dir(&dir)
        .env_remove("RUSTFLAGS")
        .env("CARGO_TARGET_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("../tests/trybuild"))
        .output()
        .unwrap();
    let mut counted: BTreeMap<String, usize> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let level = &message["message"]["level"];
        let text = message["message"]["message"].as_str().unwrap_or_default();
        if message["reason"] == "compiler-message" && level == "error" && !text.starts_with("aborting due to") {
            *counted.entry(message["target"]["name"].as_str().unwrap_or_default().to_owned()).or_default() += 1;
        }
    }
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(name, (_, shown))| {
            let n = counted.get(name).copied().unwrap_or(0);
            (n != *shown).then(|| format!("{name}: shows {shown} errors, counts {n}"))
        })
        .collect();
    let silent: Vec<&String> = cases.keys().filter(|name| !counted.contains_key(*name)).collect();
    assert!(silent.is_empty(), "no error from {silent:?}:\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(wrong.is_empty(), "cases whose errors the compiler counts more than once:\n{}", wrong.join("\n"));
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

/// Every file under `dir` (its folders too) whose extension is `ext`, read and joined.
fn text_under(dir: &Path, ext: &str) -> String {
    let mut text = String::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                text.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    text
}

/// The README and the book quote the compiler's messages in their tables of mistakes ("you wrote" | "the
/// compiler says"): each quoted message (between double backticks) is in a `.stderr` file of
/// the cases, word for word, so that the README says what the compiler says. A `...` in a quote
/// stands for a part left out: each part around it is checked.
#[test]
fn the_readme_quotes_the_compilers_messages() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The README and the book's pages (docs/src), where the tables are.
    let mut readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    readme.push_str(&text_under(&root.join("../../docs/src"), "md"));
    let stderr = text_under(&root.join("ui"), "stderr");
    let mut quotes = 0;
    let mut missing = Vec::new();
    for table in readme.split("| you wrote | the compiler says |").skip(1) {
        for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
            let said = row.rsplit(" | ").next().unwrap_or_default();
            for quote in said.split("`` ").skip(1).filter_map(|q| q.split(" ``").next()) {
                quotes += 1;
                let quote = quote.replace("\\|", "|");
                let quote = quote.strip_prefix("error[E0277]: ").unwrap_or(&quote);
                let quote = quote.strip_prefix("error[E0080]: ").unwrap_or(quote);
                if quote.split("...").map(str::trim).filter(|p| !p.is_empty()).any(|part| !stderr.contains(part)) {
                    missing.push(quote.to_owned());
                }
            }
        }
    }
    assert!(quotes >= 20, "the README's tables of mistakes quote {quotes} messages");
    assert!(missing.is_empty(), "quoted in the README but said by no case:\n{}", missing.join("\n"));
}
