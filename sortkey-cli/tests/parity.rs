//! The command reads every key the library writes, against a moto server (feature `moto`): the
//! layouts a lock may hold without a width (timestamps of every unit, RFC 3339), every segment
//! type (decimals, UUIDs, ULIDs), RFC 3339 values with any number of fraction digits, and
//! comparisons past an end of a field's range refused as the empty range; then layout texts
//! made at random (tests/src/texts.rs), each read by `sortkey layouts`, `browse` and `query`
//! exactly as by the library.

#![cfg(feature = "moto")]

mod common;

use std::path::PathBuf;

use assert_cmd::Command;
use aws_sdk_dynamodb::types::AttributeValue;
use common::{sortkey, table};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::Value;
use sortkey_core::{DynBody, DynLayout, DynType, DynValue, KeyRole, LockFile};
use sortkey_test_server::{client, runtime, server_or_skip};
use sortkey_tests::texts::{self, Ask, AskEnd};

const LOCK: &str = "Stamp = STAMP#{at:timestamp unit=ms}#{id:text}\n\
                    Aud = AUD#{at:timestamp unit=us format=rfc3339}#{id:text}\n\
                    Run = RUN#{score:u64 width=10 desc}#{player:text}\n\
                    Small = S#{a:u8}#{id:text}\n\
                    Capped = C#{n:u32 max=500000}#{id:text}\n\
                    Dec = D#{price:decimal width=10 scale=2}#{id:text}\n\
                    Ids = I#{id:uuid}#{u:ulid}\n";

/// A file `name` holding `text` in a directory of the test's own.
fn file(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sortkey-parity-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The JSON document a successful run prints.
fn json(mut cmd: impl std::borrow::BorrowMut<Command>) -> Value {
    let out = cmd.borrow_mut().assert().code(0);
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// The sort keys of a browse or query document, in its order.
fn sks(doc: &Value) -> Vec<String> {
    doc["items"].as_array().unwrap().iter().map(|i| i["sk"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn timestamps_without_a_width_rfc3339_and_every_segment_type_read_through_the_command() {
    let Some(server) = server_or_skip("timestamps_without_a_width") else { return };
    let lock_text = LockFile::parse(LOCK).unwrap();
    let encode = |layout: &str, value: &str| {
        let layout = lock_text.get(layout).unwrap();
        let value = serde_json::from_str::<Value>(value).unwrap();
        let value = serde::de::DeserializeSeed::deserialize(layout.value_seed(), value).unwrap();
        layout.encode(&value).unwrap()
    };
    let keys: Vec<(String, String)> = vec![
        ("STAMP".into(), encode("Stamp", r#"{"at": "2024-06-23T00:00:00.123Z", "id": "a"}"#)),
        ("STAMP".into(), encode("Stamp", r#"{"at": "2024-06-23T00:00:00.124Z", "id": "b"}"#)),
        ("AUD".into(), encode("Aud", r#"{"at": "2024-06-23T00:00:56.4Z", "id": "a"}"#)),
        ("AUD".into(), encode("Aud", r#"{"at": "2024-06-23T00:00:56.500001Z", "id": "b"}"#)),
        ("DEC".into(), encode("Dec", r#"{"price": "1.5", "id": "a"}"#)),
        ("DEC".into(), encode("Dec", r#"{"price": "19.99", "id": "b"}"#)),
        (
            "IDS".into(),
            encode("Ids", r#"{"id": "67e55044-10b1-426f-9247-bb680e5fe0c8", "u": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}"#),
        ),
    ];
    assert_eq!(keys[0].1, "STAMP#001719100800123#a");
    assert_eq!(keys[2].1, "AUD#2024-06-23T00:00:56.400000Z#a");
    runtime().block_on(table(&client(&server.endpoint), "Parity", &keys));
    let lock = file("rows", "layouts.lock", LOCK);

    // Every key is read by its layout, with the fields the library reads.
    for pk in ["STAMP", "AUD", "DEC", "IDS"] {
        let doc = json(sortkey(&server.endpoint, &lock, &["browse", "--table", "Parity", "--pk", pk, "-o", "json"]));
        let items = doc["items"].as_array().unwrap();
        assert!(!items.is_empty(), "{doc}");
        for item in items {
            assert!(item["layout"].is_string(), "{pk}: read by no layout: {item}");
        }
    }
    let doc = json(sortkey(&server.endpoint, &lock, &["browse", "--table", "Parity", "--pk", "AUD", "-o", "json"]));
    assert_eq!(doc["items"][1]["fields"]["at"], "2024-06-23T00:00:56.500001Z");

    // Queries with the values people type: milliseconds, RFC 3339 with a fraction of any length.
    let query = |layout: &str, pk: &str, condition: &str| {
        let args = ["query", "--layout", layout, "--pk", pk, "--table", "Parity", condition, "-o", "json"];
        sks(&json(sortkey(&server.endpoint, &lock, &args)))
    };
    assert_eq!(query("Stamp", "STAMP", "at=2024-06-23T00:00:00.123Z"), [keys[0].1.clone()]);
    assert_eq!(query("Stamp", "STAMP", "at>1719100800123"), [keys[1].1.clone()]);
    assert_eq!(query("Aud", "AUD", "at>=2024-06-23T00:00:56.5Z"), [keys[3].1.clone()]);
    assert_eq!(query("Dec", "DEC", "price>=1.6"), [keys[5].1.clone()]);
    assert_eq!(query("Ids", "IDS", "id=67e55044-10b1-426f-9247-bb680e5fe0c8"), [keys[6].1.clone()]);

    // A comparison past an end of the field's range is the empty range, with or without a table.
    for (layout, condition) in [
        ("Run", "score<0"),
        ("Small", "a>255"),
        ("Capped", "n>500000"),
        ("Stamp", "at<1970-01-01T00:00:00Z"),
        ("Aud", "at<1970-01-01T00:00:00Z"),
    ] {
        for table in [None, Some("Parity")] {
            let mut args = vec!["query", "--layout", layout, "--pk", "X", condition];
            args.extend(table.map(|t| ["--table", t]).into_iter().flatten());
            let out = sortkey(&server.endpoint, &lock, &args).assert().code(2);
            let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
            assert!(stderr.contains("the range is empty"), "{layout} {condition}: {stderr}");
        }
    }
    // A value finer than the unit is the field's value it falls in, truncated toward the past
    // as every reader writes it (SK-ENC-015): the same items as the whole millisecond.
    assert_eq!(query("Stamp", "STAMP", "at=2024-06-23T00:00:00.1234Z"), [keys[0].1.clone()]);

    // `sortkey layouts` shows the width the keys have.
    let doc = json(sortkey(&server.endpoint, &lock, &["layouts", "-o", "json"]));
    let stamp = &doc["layouts"][0]["fields"][0];
    assert_eq!(
        (stamp["width"].as_u64(), &stamp["capacity"]["largest"]),
        (Some(15), &Value::from(253_402_300_799_999u64))
    );
    assert_eq!(doc["layouts"][1]["fields"][0]["width"], 27);
}

/// A value as a person types it on the command line, when it has a form there that reads back
/// to it (floats and nested keys are left to the library's own tests).
fn typed(value: &DynValue) -> Option<String> {
    Some(match value {
        DynValue::Unsigned(v) => v.to_string(),
        DynValue::Signed(v) => v.to_string(),
        DynValue::Bool(v) => v.to_string(),
        DynValue::Char(c) => c.to_string(),
        // Text a condition reads back whole: no `.` (a range's `..`), no leading `=` (which
        // would make `<` into `<=`), no NUL (no argument holds one), not the word `null`.
        DynValue::Text(t) if !t.contains(['.', '\0']) && !t.starts_with('=') && t != "null" => t.clone(),
        DynValue::Timestamp(_) => serde_json::to_value(value).ok()?.as_str()?.to_owned(),
        DynValue::Uuid(t) | DynValue::Ulid(t) | DynValue::Decimal(t) | DynValue::Enum(t) => t.clone(),
        DynValue::Option(None) => "null".to_owned(),
        DynValue::Option(Some(inner)) if !matches!(**inner, DynValue::Option(_)) => typed(inner)?,
        _ => return None,
    })
}

/// The command line conditions of an ask, when every value it holds has a typed form.
fn conditions(layout: &DynLayout, ask: &Ask) -> Option<Vec<String>> {
    let DynBody::Fields(fields) = &layout.key.body else { return None };
    let mut out = Vec::new();
    for f in &fields[..ask.k] {
        out.push(format!("{}={}", f.name, typed(ask.fixed.field(f.name)?)?));
    }
    let next = fields.get(ask.k).map(|f| f.name);
    match (&ask.end, next) {
        (AskEnd::BeginsWith | AskEnd::Eq, _) => {}
        (AskEnd::Cmp(op, v), Some(name)) => {
            let op = match op {
                sortkey_core::query::Comparison::Lt => "<",
                sortkey_core::query::Comparison::Le => "<=",
                sortkey_core::query::Comparison::Gt => ">",
                sortkey_core::query::Comparison::Ge => ">=",
            };
            out.push(format!("{name}{op}{}", typed(v)?));
        }
        (AskEnd::Between(a, b), Some(name)) => out.push(format!("{name}={}..{}", typed(a)?, typed(b)?)),
        (AskEnd::Prefix(p), Some(name)) => out.push(format!("{name}^={p}")),
        _ => return None,
    }
    Some(out)
}

#[test]
fn generated_layouts_read_through_the_command_as_through_the_library() {
    let Some(server) = server_or_skip("generated_layouts_read_through_the_command") else { return };
    let mut runner = TestRunner::deterministic();
    let client = client(&server.endpoint);
    runtime().block_on(sortkey_test_server::create_table(&client, "Generated"));
    let (mut cases, mut queried) = (0, 0);
    while cases < 30 {
        let layout = texts::layout().new_tree(&mut runner).unwrap().current();
        let nested = matches!(&layout.key.body, DynBody::Fields(f) if f.iter().any(|f| matches!(f.ty.innermost(), DynType::Key(_))));
        if layout.role == KeyRole::Partition || nested {
            continue;
        }
        let pk = format!("L{cases}");
        cases += 1;
        let values = texts::values(&layout, 16).new_tree(&mut runner).unwrap().current();
        let mut written: Vec<(String, DynValue)> =
            values.into_iter().filter_map(|v| layout.encode(&v).ok().map(|k| (k, v))).collect();
        written.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        written.dedup_by(|a, b| a.0 == b.0);
        let items: Vec<(String, String)> = written.iter().map(|(k, _)| (pk.clone(), k.clone())).collect();
        runtime().block_on(async {
            for (pk, sk) in &items {
                let item = client.put_item().table_name("Generated").item("pk", AttributeValue::S(pk.clone()));
                item.item("sk", AttributeValue::S(sk.clone())).send().await.unwrap();
            }
        });
        let lock_text = format!("L = {layout}\n");
        let lock = file("generated", &format!("{pk}.lock"), &lock_text);
        // The layout as the command reads it, named as its errors name it.
        let layout = LockFile::parse(&lock_text).unwrap().get("L").unwrap().clone();

        // `sortkey layouts`: each field's width and capacity, as the library gives them.
        let doc = json(sortkey(&server.endpoint, &lock, &["layouts", "-o", "json"]));
        for ((path, field), shown) in layout.field_paths().iter().zip(doc["layouts"][0]["fields"].as_array().unwrap()) {
            assert_eq!(shown["path"], path.as_str(), "{layout}");
            let width = Some(field.effective_width()).filter(|&w| w > 0);
            assert_eq!(shown["width"].as_u64(), width.map(u64::from), "{layout}: {path}");
            assert_eq!(shown["capacity"], serde_json::to_value(field.capacity()).unwrap(), "{layout}: {path}");
        }

        // `sortkey browse`: every key, in DynamoDB's order, read as the library reads it.
        let limit = (written.len() + 1).to_string();
        let doc = json(sortkey(
            &server.endpoint,
            &lock,
            &["browse", "--table", "Generated", "--pk", &pk, "--limit", &limit, "-o", "json"],
        ));
        let shown = doc["items"].as_array().unwrap();
        assert_eq!(sks(&doc), written.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(), "{layout}");
        for (item, (key, _)) in shown.iter().zip(&written) {
            assert_eq!(item["layout"], "L", "{layout}: {key:?}: {item}");
            let decoded = serde_json::to_value(layout.decode(key).unwrap()).unwrap();
            for (path, value) in item["fields"].as_object().unwrap() {
                let mut at = &decoded;
                for part in path.split('.') {
                    at = &at[part];
                }
                assert_eq!(value, at, "{layout}: {key:?}: {path}");
            }
        }

        // `sortkey query`: the condition the library builds, and the keys it selects.
        let keys: Vec<DynValue> = written.iter().map(|(_, v)| v.clone()).collect();
        if keys.is_empty() {
            continue;
        }
        let asks = texts::asks(&layout, keys).new_tree(&mut runner).unwrap().current();
        let Some(args) = conditions(&layout, &asks) else { continue };
        let expected = asks.build(&layout);
        let mut cmd = sortkey(&server.endpoint, &lock, &["query", "--layout", "L", "--pk", &pk, "-o", "json"]);
        cmd.args(&args);
        match &expected {
            Ok(cond) => {
                let doc = json(&mut cmd);
                assert_eq!(doc["condition"], cond.to_string(), "{layout}: {args:?}");
                let doc = json(
                    sortkey(
                        &server.endpoint,
                        &lock,
                        &[
                            "query",
                            "--layout",
                            "L",
                            "--pk",
                            &pk,
                            "--table",
                            "Generated",
                            "--limit",
                            &limit,
                            "-o",
                            "json",
                        ],
                    )
                    .args(&args),
                );
                let selected: Vec<String> =
                    written.iter().filter(|(k, _)| cond.matches(k)).map(|(k, _)| k.clone()).collect();
                assert_eq!(sks(&doc), selected, "{layout}: {args:?}");
                queried += 1;
            }
            Err(e) => {
                let out = cmd.assert().code(2);
                let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
                assert!(stderr.contains(&e.to_string()), "{layout}: {args:?}: {stderr} / {e}");
            }
        }
    }
    assert!(queried >= 10, "only {queried} of the generated queries ran on the table");
}
