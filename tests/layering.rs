//! The modules of the three crates depend one way: no `use crate::…` (or `super::…` between files of
//! one directory) closes a cycle. Read from the sources, test modules left out, so that a new
//! import that would tie two modules together fails here with the cycle it closes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, as (module path such as `impls/int`, source without its tests).
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("readable source directory") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src").with_extension("");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let name = rel.strip_suffix("/mod").unwrap_or(&rel).to_owned();
            // The crate root declares every module: it is above them all.
            if name == "lib" || name == "main" {
                continue;
            }
            let text = fs::read_to_string(&path).expect("readable source file");
            // The tests of a module may use anything; its code may not.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_owned();
            out.insert(name, code);
        }
    }
    out
}

/// The modules `code` of module `from` refers to: `crate::a::b` is the longest of `a/b`, `a`
/// that is a module, `super::x` is the sibling `x` when it is one.
fn edges(from: &str, code: &str, names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let parent = from.rsplit_once('/').map(|(p, _)| p);
    for (prefix, base) in [("crate::", None), ("super::", parent)] {
        if prefix == "super::" && base.is_none() {
            continue;
        }
        for (i, _) in code.match_indices(prefix) {
            let rest = &code[i + prefix.len()..];
            let path: Vec<&str> = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or_default()
                .split("::")
                .filter(|s| !s.is_empty())
                .collect();
            let candidates = (1..=path.len()).rev().map(|n| {
                let tail = path[..n].join("/");
                match base {
                    Some(b) => format!("{b}/{tail}"),
                    None => tail,
                }
            });
            if let Some(to) = candidates.into_iter().find(|c| names.contains(c))
                && to != from
                && !from.starts_with(&format!("{to}/"))
            {
                out.push(to);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A cycle in the graph, if there is one, as the list of modules around it.
fn find_cycle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, Vec<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|n| n == node).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(node.to_owned(), 1);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, state, path) {
                return Some(cycle);
            }
        }
        path.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

fn check(crate_dir: &str) -> BTreeMap<String, Vec<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(crate_dir).join("src");
    let modules = modules(&src);
    let names: Vec<String> = modules.keys().cloned().collect();
    let graph: BTreeMap<String, Vec<String>> =
        modules.iter().map(|(name, code)| (name.clone(), edges(name, code, &names))).collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!("{crate_dir}: modules depend on each other in a cycle: {}\ngraph: {graph:#?}", cycle.join(" -> "));
    }
    graph
}

/// The runtime's layers, one folder each (and `error.rs` first), as its `lib.rs` documents
/// them: a module uses only modules of its own layer or of the layers before it.
const RUNTIME_LAYERS: &[&str] =
    &["planted", "error", "encoding", "query", "table", "migrate", "dynamic", "dynamodb", "private"];

#[test]
fn runtime_modules_depend_one_way() {
    let graph = check("sortkey-core");
    let layer = |m: &str| RUNTIME_LAYERS.iter().position(|l| m.split('/').next() == Some(l));
    for (module, deps) in &graph {
        let Some(own) = layer(module) else {
            panic!("sortkey-core: module `{module}` is in no layer: put it in a layer's folder (RUNTIME_LAYERS)");
        };
        for dep in deps {
            let theirs = layer(dep).unwrap_or(usize::MAX);
            assert!(
                theirs <= own,
                "sortkey-core: `{module}` (layer `{}`) uses `{dep}`, of a later layer; expected only its own layer \
                 or earlier ones, as lib.rs documents",
                RUNTIME_LAYERS[own]
            );
        }
    }
    // The planted bugs' switch (feature `planted-bugs`, tests only) depends on nothing.
    assert_eq!(graph["planted"], Vec::<String>::new());
    // Within the encoding, the lower modules know nothing of the ones above them.
    assert_eq!(graph["error"], Vec::<String>::new());
    assert_eq!(graph["encoding/digits"], Vec::<String>::new());
    let within = |m: &str, allowed: &[&str]| graph[m].iter().all(|d| allowed.contains(&d.as_str()));
    assert!(
        within("encoding/segment", &["error", "encoding/spec", "encoding/cursor", "encoding/layout"]),
        "{graph:#?}"
    );
    // A layout describes segments and keys (and a partition key's shards); it knows neither trait.
    assert!(within("encoding/layout", &["encoding/spec", "encoding/role", "encoding/shard"]), "{graph:#?}");
    // The shard rule is data and arithmetic: the `Sharded` trait is with the key traits.
    assert_eq!(graph["encoding/shard"], Vec::<String>::new());
}

/// The derive's layers, as its `lib.rs` documents them: a module uses only modules of its own
/// layer or of the layers before it.
const DERIVE_LAYERS: &[&[&str]] = &[
    &["keywords", "attr", "entity_attr", "messages", "types", "runtime", "generics"],
    &["model"],
    &["valid"],
    &["bodies", "checks", "templates"],
    &["nested", "query", "expand", "fallback", "segment"],
    &["family", "family_expand", "entity", "entity_expand"],
];

#[test]
fn derive_modules_depend_one_way() {
    let graph = check("sortkey-derive");
    let layer = |m: &str| DERIVE_LAYERS.iter().position(|l| l.contains(&m));
    for (module, deps) in &graph {
        // The golden expansion tests (and their expected files) may use anything.
        if module == "output_tests" || module.starts_with("output_tests/") {
            continue;
        }
        let Some(own) = layer(module) else {
            panic!("sortkey-derive: module `{module}` is in no layer: add it to DERIVE_LAYERS and lib.rs's list");
        };
        for dep in deps {
            let theirs = layer(dep).unwrap_or(usize::MAX);
            assert!(
                theirs <= own,
                "sortkey-derive: `{module}` (layer {}) uses `{dep}` (layer {}), a later layer; expected only its own \
                 layer or earlier ones, as lib.rs documents",
                own + 1,
                theirs.saturating_add(1)
            );
        }
    }
}

/// The command's layers: what a subcommand ends with, the display of untrusted text, what a user
/// asks (each subcommand's ask with its options, its validation and its command line); the shared
/// parts (output, the lock, the connection, a table's description, Scan pages, a sharded
/// partition's merged read) and the command line that main parses into an ask; the subcommands, one
/// module (or folder) each; `query`, which shows its items as `browse` does; the README's test
/// of the documents, which names them all. A module uses only its own layer or earlier ones, and
/// no subcommand uses another of its layer.
const COMMAND_LAYERS: &[&[&str]] = &[
    &["outcome", "display", "ask"],
    &["output", "lock", "connect", "table", "pages", "sharded", "session", "cli", "counters"],
    &["layouts", "browse", "audit", "migrate", "tables", "rank"],
    &["query", "serve"],
    &["readme_test"],
];

#[test]
fn command_modules_depend_one_way() {
    let graph = check("sortkey-cli");
    let top = |m: &str| m.split('/').next().unwrap_or_default().to_owned();
    let layer = |m: &str| COMMAND_LAYERS.iter().position(|l| l.contains(&top(m).as_str()));
    for (module, deps) in &graph {
        let Some(own) = layer(module) else {
            panic!("sortkey-cli: module `{module}` is in no layer: add it to COMMAND_LAYERS");
        };
        for dep in deps.iter().filter(|d| top(d) != top(module)) {
            let theirs = layer(dep).unwrap_or(usize::MAX);
            assert!(
                theirs < own || (theirs == own && own != 2),
                "sortkey-cli: `{module}` (layer {}) uses `{dep}` (layer {}); expected only earlier layers (a \
                 subcommand uses no other subcommand)",
                own + 1,
                theirs.saturating_add(1)
            );
        }
    }
}

#[test]
fn a_cycle_is_found() {
    let graph: BTreeMap<String, Vec<String>> = [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"])]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
        .collect();
    assert_eq!(find_cycle(&graph), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    let names = vec!["impls".to_owned(), "impls/int".to_owned(), "spec".to_owned(), "private/names".to_owned()];
    assert_eq!(edges("impls/time", "use crate::spec::Field; use super::int;", &names), ["impls/int", "spec"]);
    assert_eq!(edges("private/builder", "use super::names::x;", &names), ["private/names"]);
}

/// What only generated code calls lives in the versioned private module: no other file of the
/// runtime has a `#[doc(hidden)]` item, which a user could call and break on (lib.rs's one
/// declares the private module itself).
#[test]
fn hidden_items_are_in_the_private_module_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sortkey-core/src");
    let mut stack = vec![src.clone()];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("readable source directory") {
            let path = entry.expect("readable entry").path();
            let rel = path.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                if rel != "private" {
                    stack.push(path);
                }
                continue;
            }
            let text = fs::read_to_string(&path).expect("readable source file");
            for (i, _) in text.match_indices("#[doc(hidden)]") {
                let next = text[i..].lines().nth(1).unwrap_or_default().trim();
                if !(rel == "lib.rs" && next == "#[path = \"private/mod.rs\"]") {
                    found.push(format!("{rel}: {next}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "#[doc(hidden)] items outside the private module: {found:#?}");
}
