//! The book (docs/src) holds together: every page is in its summary and every page of the
//! summary exists; every page is a doctest (tests/src/lib.rs lists them all); every link between
//! the pages, to the repository's files and to a heading, leads somewhere. `mdbook build docs`
//! makes the site; this is what CI checks without building mdBook.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sortkey_tests::docs::{documents, root, summary};

/// Every `.md` file under `dir`, relative to it.
fn pages_on_disk(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                if rel != "SUMMARY.md" {
                    out.insert(rel);
                }
            }
        }
    }
    out
}

#[test]
fn every_page_is_in_the_summary_and_is_a_doctest() {
    let listed: BTreeSet<String> = summary().into_iter().collect();
    let on_disk = pages_on_disk(&root().join("docs/src"));
    let unlisted: Vec<_> = on_disk.difference(&listed).collect();
    let missing: Vec<_> = listed.difference(&on_disk).collect();
    assert!(unlisted.is_empty(), "pages missing from docs/src/SUMMARY.md: {unlisted:?}");
    assert!(missing.is_empty(), "SUMMARY.md lists pages that do not exist: {missing:?}");
    let lib = std::fs::read_to_string(root().join("tests/src/lib.rs")).unwrap();
    let untested: Vec<_> = listed.iter().filter(|page| !lib.contains(&format!("= \"{page}\","))).collect();
    assert!(untested.is_empty(), "pages that are no doctest (tests/src/lib.rs, mod book): {untested:?}");
}

/// A heading's anchor as mdBook and GitHub write it: lower case, letters, digits, `-` and `_`
/// kept, spaces as `-`, everything else dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of a page's inline links `[text](target)` (outside code blocks).
fn links(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for rest in line.split("](").skip(1) {
            if let Some(target) = rest.split(')').next().filter(|t| !t.contains(' ')) {
                out.push(target.to_owned());
            }
        }
    }
    out
}

#[test]
fn every_link_of_the_readme_and_the_book_leads_somewhere() {
    let mut broken = Vec::new();
    for (path, text) in documents() {
        let dir = Path::new(&path).parent().map(Path::to_path_buf).unwrap_or_default();
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let file: PathBuf = if file.is_empty() { PathBuf::from(&path) } else { dir.join(file) };
            let on_disk = root().join(&file);
            if !on_disk.exists() {
                broken.push(format!("{path}: {target} (no {})", file.display()));
                continue;
            }
            if let Some(fragment) = fragment.filter(|_| on_disk.extension().is_some_and(|e| e == "md")) {
                let heads = anchors(&std::fs::read_to_string(&on_disk).unwrap());
                if !heads.contains(fragment) {
                    broken.push(format!("{path}: {target} (no heading `{fragment}` there)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "links that lead nowhere:\n{}", broken.join("\n"));
}

/// The words of a shell command line as `sh` reads them, for the lines the book writes: words
/// between spaces, a word in single quotes taken as written.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// Every `{{#include FILE}}` of a page names a file that exists (mdBook includes it when it
/// builds the site); one of the command's test cases (`sortkey-cli/tests/cmd/NAME.stdout` or
/// `.stderr`) follows the `$ sortkey ...` line of that very case, and a transcript on a server
/// (`sortkey-cli/tests/snapshots/NAME.txt`) starts with the command line its test ran, so that
/// every transcript the book shows is one the tests compare the command's output with.
#[test]
fn every_included_transcript_is_the_output_of_the_command_above_it() {
    let mut wrong = Vec::new();
    let mut transcripts = 0;
    for (path, text) in documents() {
        let dir = Path::new(&path).parent().map(Path::to_path_buf).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(file) = line.trim().strip_prefix("{{#include ").and_then(|r| r.strip_suffix("}}")) else {
                continue;
            };
            let file = file.split(':').next().unwrap_or_default();
            let on_disk = root().join(dir.join(file));
            if !on_disk.exists() {
                wrong.push(format!("{path}: {{{{#include {file}}}}} names no file"));
                continue;
            }
            // A transcript on a server (sortkey-cli/tests/table.rs's `transcript`) holds its own
            // command line, the one the test ran, above what the command printed.
            if file.contains("sortkey-cli/tests/snapshots/") && file.ends_with(".txt") {
                transcripts += 1;
                let text = std::fs::read_to_string(&on_disk).unwrap();
                if !text.starts_with("$ sortkey ") {
                    wrong.push(format!("{path}: {file} is no transcript (its first line is no `$ sortkey` line)"));
                }
                continue;
            }
            let Some(case) = file.rsplit_once("tests/cmd/").map(|(_, name)| name) else { continue };
            let Some(stem) = case.strip_suffix(".stdout").or_else(|| case.strip_suffix(".stderr")) else {
                continue;
            };
            transcripts += 1;
            let toml = std::fs::read_to_string(root().join(format!("sortkey-cli/tests/cmd/{stem}.toml"))).unwrap();
            let args = toml.lines().find_map(|l| l.strip_prefix("args = ")).expect("a case's args");
            let args: Vec<String> = serde_json::from_str(args).expect("the case's args as a list of strings");
            let shown = i.checked_sub(1).and_then(|j| lines[j].strip_prefix("$ sortkey ")).map(words);
            if shown.as_ref() != Some(&args) {
                wrong.push(format!("{path}: {stem} runs `sortkey {}`, the line above shows {shown:?}", args.join(" ")));
            }
        }
    }
    assert!(transcripts >= 15, "the book includes {transcripts} of the command's transcripts");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
