//! What the tests of the command against moto share: a table with keys, and the command itself
//! pointed at the server and a lock.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;

/// Creates table `name` (string `pk` and `sk`) and puts the (pk, sk) `keys`.
#[allow(dead_code, reason = "a test file whose tables hold entities creates its own")]
pub(crate) async fn table(client: &Client, name: &str, keys: &[(String, String)]) {
    sortkey_test_server::create_table(client, name).await;
    for (pk, sk) in keys {
        let item = client.put_item().table_name(name).item("pk", AttributeValue::S(pk.clone()));
        item.item("sk", AttributeValue::S(sk.clone())).send().await.unwrap();
    }
}

/// A writer's increment during a migration: `hits` and `version` of the item under the first of
/// its `keys` ((pk, sk), the new key first, then the old) that holds it, conditional on it being
/// there. Whether one landed (none: the item was between its two keys, or a request failed).
#[allow(dead_code, reason = "only the migrations' tests run a writer")]
pub(crate) async fn increment(client: &Client, table: &str, keys: [(String, String); 2]) -> bool {
    for (pk, sk) in keys {
        let update = client
            .update_item()
            .table_name(table)
            .key("pk", AttributeValue::S(pk))
            .key("sk", AttributeValue::S(sk))
            .update_expression("SET hits = hits + :one, version = version + :one")
            .condition_expression("attribute_exists(pk)")
            .expression_attribute_values(":one", AttributeValue::N("1".into()));
        if update.send().await.is_ok() {
            return true;
        }
    }
    false
}

/// `sortkey` against the server at `endpoint` with the lock `lock`, and `args`; no credentials
/// of the environment (the server takes any).
pub(crate) fn sortkey(endpoint: &str, lock: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("sortkey").unwrap();
    cmd.args(["--endpoint-url", endpoint, "--lock"]).arg(lock).args(args);
    cmd.env_remove("AWS_ACCESS_KEY_ID").env_remove("AWS_PROFILE");
    cmd
}

/// Runs `sortkey ARGS` with the test's server and lock and compares its transcript with
/// tests/snapshots/`name`, which the book includes as it is: the line `$ sortkey ARGS
/// --endpoint-url http://localhost:8000` as a user types it in the lock's folder, then what the
/// command printed, standard output then standard error. The test's own server and lock path are written as that endpoint and
/// `layouts.lock` in both, and each text of `replace` (a temporary folder) as its stand-in.
#[allow(dead_code, reason = "the tests whose output the book shows")]
pub(crate) fn transcript(
    name: &str,
    (endpoint, lock): (&str, &Path),
    args: &[&str],
    code: i32,
    replace: &[(&str, &str)],
) {
    let out = sortkey(endpoint, lock, args).assert().code(code);
    let line = shlex::try_join(args.iter().copied()).expect("arguments without a NUL");
    // What a terminal shows: standard output, then standard error (a refusal's one line).
    let printed = String::from_utf8_lossy(&out.get_output().stdout);
    let errors = String::from_utf8_lossy(&out.get_output().stderr);
    let mut text = format!("$ sortkey {line} --endpoint-url {endpoint}\n{printed}{errors}");
    let lock = lock.display().to_string();
    for (from, to) in
        replace.iter().copied().chain([(lock.as_str(), "layouts.lock"), (endpoint, "http://localhost:8000")])
    {
        text = text.replace(from, to);
    }
    snapshot(name, &text);
}

/// `text` against tests/snapshots/`name`; `UPDATE_SNAPSHOTS=1` writes it instead.
#[allow(dead_code, reason = "the tests whose output the book shows")]
pub(crate) fn snapshot(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(text, expected, "{name} changed; UPDATE_SNAPSHOTS=1 rewrites it after a deliberate change");
}
