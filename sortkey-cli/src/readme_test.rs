//! The JSON documents of the README and the book against the report types: each example is read into the type its
//! `format` names and written back, and must come back unchanged (a member the type lacks, or
//! one it has and the example lacks, fails).

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::audit::partial::{PartialDocument, PartialFormat};
use crate::audit::report::{AuditDocument, AuditFormat};
use crate::browse::{BrowseDocument, BrowseFormat};
use crate::layouts::{LayoutsDocument, LayoutsFormat};
use crate::migrate::status::{StatusDocument, StatusFormat};
use crate::migrate::verdict::{MigrateDocument, MigrateFormat};
use crate::query::{QueryDocument, QueryFormat};
use crate::rank::{RankCheckDocument, RankCheckFormat, RankDocument, RankFormat};
use crate::tables::{TablesDocument, TablesFormat};

/// The ```json blocks of the README and of the book's pages (docs/src: the JSON reference and
/// the command's pages).
fn json_blocks() -> Vec<Value> {
    let mut readme = include_str!("../../README.md").to_owned();
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/src") {
            let path = entry.expect("a page").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                readme.push_str(&std::fs::read_to_string(&path).expect("a page"));
            }
        }
    }
    readme
        .split("```json\n")
        .skip(1)
        .map(|block| {
            let text = block.split("\n```").next().unwrap_or_default();
            serde_json::from_str(text).unwrap_or_else(|e| panic!("a README json block does not parse: {e}\n{text}"))
        })
        .collect()
}

/// `example` read as a `T` and written back.
fn round_trip<T: DeserializeOwned + Serialize>(example: &Value) -> Value {
    let typed: T = serde_json::from_value(example.clone())
        .unwrap_or_else(|e| panic!("the README's {} does not read as its type: {e}", example["format"]));
    serde_json::to_value(&typed).unwrap()
}

#[test]
fn the_readme_shows_every_document_as_its_type_writes_it() {
    let mut seen = Vec::new();
    let blocks = json_blocks();
    for example in blocks.iter().filter(|b| b["format"].as_str().is_some_and(|f| f.starts_with("sortkey "))) {
        let format = example["format"].as_str().unwrap_or_default();
        let written = match format {
            AuditFormat::TEXT => round_trip::<AuditDocument>(example),
            PartialFormat::TEXT => round_trip::<PartialDocument>(example),
            LayoutsFormat::TEXT => round_trip::<LayoutsDocument>(example),
            BrowseFormat::TEXT => round_trip::<BrowseDocument>(example),
            QueryFormat::TEXT => round_trip::<QueryDocument>(example),
            MigrateFormat::TEXT => round_trip::<MigrateDocument>(example),
            StatusFormat::TEXT => round_trip::<StatusDocument>(example),
            TablesFormat::TEXT => round_trip::<TablesDocument>(example),
            RankFormat::TEXT => round_trip::<RankDocument>(example),
            RankCheckFormat::TEXT => round_trip::<RankCheckDocument>(example),
            other => panic!("the README shows a document of format `{other}`, which no type has"),
        };
        assert_eq!(&written, example, "the README's `{format}` is not what its type writes");
        seen.push(format);
    }
    let all = [
        AuditFormat::TEXT,
        PartialFormat::TEXT,
        LayoutsFormat::TEXT,
        BrowseFormat::TEXT,
        QueryFormat::TEXT,
        MigrateFormat::TEXT,
        StatusFormat::TEXT,
        TablesFormat::TEXT,
        RankFormat::TEXT,
        RankCheckFormat::TEXT,
    ];
    for format in all {
        assert!(seen.contains(&format), "the README shows no `{format}` document");
    }
}
