//! What the tests of the command against moto share: a table with keys, and the command itself
//! pointed at the server and a lock.

use std::path::Path;

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

/// `sortkey` against the server at `endpoint` with the lock `lock`, and `args`; no credentials
/// of the environment (the server takes any).
pub(crate) fn sortkey(endpoint: &str, lock: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("sortkey").unwrap();
    cmd.args(["--endpoint-url", endpoint, "--lock"]).arg(lock).args(args);
    cmd.env_remove("AWS_ACCESS_KEY_ID").env_remove("AWS_PROFILE");
    cmd
}
