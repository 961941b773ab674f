//! An entity's sort key changes width, walked end to end as a service does it, against moto
//! (feature `moto`): the lock test fails and says what to do; `legacy` is declared; the lock
//! records the versions; `sortkey audit` counts the stored keys of the older layout and prints the
//! move; `sortkey migrate --to` moves them; its verdict says none is left; the entity reads every
//! item back under its new key.

#![cfg(feature = "moto")]

mod common;

use common::sortkey;
use sortkey_core::dynamodb::{PutMode, put_item, query_page};
use sortkey_core::{LockedKeys, TableDefinition};
use sortkey_test_server::{client, runtime, server_or_skip};

/// The order as the service first wrote it: 8-digit order numbers.
mod before {
    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 8)), version = revision)]
    pub(crate) struct Order {
        pub(crate) customer_id: String,
        pub(crate) order_no: u32,
        pub(crate) total_cents: u64,
        pub(crate) revision: u64,
    }
}

/// The width changed, nothing else: what the lock test catches.
mod widened {
    #[derive(sortkey_core::Entity)]
    #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 10)), version = revision)]
    pub(crate) struct Order {
        pub(crate) customer_id: String,
        pub(crate) order_no: u32,
        pub(crate) revision: u64,
    }
}

/// The width changed, and the old layout kept as an older version.
mod after {
    use sortkey_core::SortKey;

    /// The sort key the stored orders were written with.
    #[derive(SortKey)]
    #[key(prefix = "ORDER")]
    pub(crate) struct OrderSkV1 {
        #[key(width = 8)]
        order_no: u32,
    }

    impl From<OrderSkV1> for OrderSk {
        fn from(old: OrderSkV1) -> Self {
            OrderSk { order_no: old.order_no }
        }
    }

    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(
        pk(prefix = "CUST", customer_id),
        sk(prefix = "ORDER", legacy = OrderSkV1, order_no(width = 10)),
        version = revision
    )]
    pub(crate) struct Order {
        pub(crate) customer_id: String,
        pub(crate) order_no: u32,
        pub(crate) total_cents: u64,
        pub(crate) revision: u64,
    }
}

#[test]
fn an_entitys_sort_key_width_changes_from_the_lock_failure_to_the_verdict() {
    let Some(server) = server_or_skip("an_entitys_sort_key_width_changes_from_the_lock_failure_to_the_verdict") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sortkey-cli-entity-change-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");

    // The service as it was: its lock, and orders stored with 8-digit numbers.
    let table = TableDefinition::of::<before::Order>("Orders");
    std::fs::write(&lock, LockedKeys::new().table(&table).text()).unwrap();
    LockedKeys::new().table(&table).check(&lock).unwrap();
    let client = client(&server.endpoint);
    runtime().block_on(async {
        table.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for n in 0..30u32 {
            let order =
                before::Order { customer_id: format!("c{}", n % 3), order_no: 1000 + n, total_cents: 100, revision: 0 };
            put_item(&client, "Orders", &order, PutMode::Create).await.unwrap();
        }
    });

    // 1. The width changes: the lock test fails, and says what stored keys need.
    let e = LockedKeys::new().table(&TableDefinition::of::<widened::Order>("Orders")).check(&lock).unwrap_err();
    let e = e.to_string();
    assert!(e.contains("`OrderSk`: the key layout differs from its lock"), "{e}");
    for needle in ["stop decoding", "legacy = OrderSkV1", "sortkey audit", "sortkey migrate --to OrderSk"] {
        assert!(e.contains(needle), "{needle}: {e}");
    }

    // 2. legacy declared: the lock still fails (its versions are not recorded) until it is
    //    updated, and then records them.
    let after = TableDefinition::of::<after::Order>("Orders");
    let e = LockedKeys::new().table(&after).check(&lock).unwrap_err().to_string();
    assert!(e.contains("its older layouts are OrderSk@v1 (legacy = ...), but the lock records none"), "{e}");
    std::fs::write(&lock, LockedKeys::new().table(&after).text()).unwrap();
    LockedKeys::new().table(&after).check(&lock).unwrap();
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(text.contains("OrderSk@v1 = ORDER#{order_no:u32 width=8}\nOrderSk > OrderSk@v1\n"), "{text}");

    // 3. The audit counts the stored keys of the older layout and prints their move.
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Orders", "-o", "json"]).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let sk = &doc["attributes"][1];
    assert_eq!(sk["old_keys"][0]["layout"], "OrderSk@v1", "{doc}");
    assert_eq!((sk["old_keys"][0]["keys"].as_u64(), sk["old_keys"][0]["partitions"].as_u64()), (Some(30), Some(3)));
    let moves: Vec<String> = serde_json::from_value(sk["moves"][0].clone()).unwrap();
    assert!(moves.ends_with(&["--table".into(), "Orders".into(), "--to".into(), "OrderSk".into()]), "{moves:?}");

    // 4. The move, as printed, with the version attribute the entity writes: a verdict of none left.
    let mut migrate = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    migrate.args(&moves[1..]).args(["--version-attribute", "revision", "-o", "json"]);
    // Its checkpoints in the test's own folder, where no earlier run left any.
    let out = migrate.current_dir(&dir).env_remove("AWS_PROFILE").assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["verdict"]["complete"], true, "{doc}");
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["in_new"].as_u64()), (Some(0), Some(30)), "{doc}");
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Orders", "-o", "json"]).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["attributes"][1]["old_keys"], serde_json::json!([]), "{doc}");

    // 5. The service reads every order under its new key, each once, as it was written.
    runtime().block_on(async {
        let mut read = Vec::new();
        for c in 0..3 {
            let query = after::Order::query(&after::OrderPk { customer_id: format!("c{c}") }).unwrap();
            let page = query_page(&client, "Orders", &query, None, 100).await.unwrap();
            read.extend(page.entities);
        }
        read.sort_by_key(|o| o.order_no);
        assert_eq!(read.iter().map(|o| o.order_no).collect::<Vec<_>>(), (1000..1030).collect::<Vec<_>>());
        assert!(read.iter().all(|o| (o.total_cents, o.revision) == (100, 1)), "the items moved unchanged: {read:?}");
    });
}
