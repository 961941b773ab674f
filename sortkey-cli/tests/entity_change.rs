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
    for needle in ["stop decoding", "legacy = OrderSkV1", "for table Orders"] {
        assert!(e.contains(needle), "{needle}: {e}");
    }
    // Its two commands, each whole: the count and the move.
    let printed = |then: &str| -> Vec<String> {
        let command = e.split('`').find(|c| c.starts_with("sortkey --lock") && c.ends_with(then));
        shlex::split(command.unwrap_or_else(|| panic!("no command ending {then}: {e}"))).unwrap()
    };
    let (count, lock_move) = (printed("--dry-run"), printed("--compare-attributes"));
    assert_eq!(&count[..3], ["sortkey", "--lock", lock.to_str().unwrap()], "{count:?}");

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
    let tail = ["--table", "Orders", "--to", "OrderSk", "--compare-attributes"].map(String::from);
    assert!(moves.ends_with(&tail), "{moves:?}");
    // The lock test's move is the audit's (the same words from `migrate` on), and its count runs
    // as printed, the server given by the environment as a user's shell gives it.
    assert!(lock_move.ends_with(&tail) && lock_move.len() == 4 + tail.len(), "{lock_move:?}");
    let out = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"))
        .args(&count[1..])
        .args(["-o", "json"])
        .env("AWS_ENDPOINT_URL", &server.endpoint)
        .envs([("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test"), ("AWS_REGION", "us-east-1")])
        .env_remove("AWS_PROFILE")
        .current_dir(&dir)
        .assert()
        .code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["in_new"].as_u64()), (Some(30), Some(0)), "{doc}");

    // 4. The move, exactly as printed (its output as JSON): a verdict of none left.
    let mut migrate = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    migrate.args(&moves[1..]).args(["-o", "json"]);
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

/// The tickets as first written: the index's sort key 6 digits wide.
mod index_before {
    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(
        pk(prefix = "PROJ", project),
        sk(prefix = "TICKET", ticket_no(width = 10)),
        index(gsi1(pk(prefix = "A", assignee), sk(ticket_no(width = 6))))
    )]
    pub(crate) struct Ticket {
        pub(crate) project: String,
        pub(crate) ticket_no: u32,
        pub(crate) assignee: String,
    }
}

/// The index's sort key widened to 10 digits, the old layout kept as its older version.
mod index_after {
    use sortkey_core::SortKey;

    #[derive(SortKey)]
    pub(crate) struct TicketGsi1SkV1 {
        #[key(width = 6)]
        ticket_no: u32,
    }

    impl From<TicketGsi1SkV1> for TicketGsi1Sk {
        fn from(old: TicketGsi1SkV1) -> Self {
            TicketGsi1Sk { ticket_no: old.ticket_no }
        }
    }

    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(
        pk(prefix = "PROJ", project),
        sk(prefix = "TICKET", ticket_no(width = 10)),
        index(gsi1(pk(prefix = "A", assignee), sk(legacy = TicketGsi1SkV1, ticket_no(width = 10))))
    )]
    pub(crate) struct Ticket {
        pub(crate) project: String,
        pub(crate) ticket_no: u32,
        pub(crate) assignee: String,
    }
}

/// An index key's width changes: the audit of the index prints the move, which runs as printed
/// and rewrites every index key in place (the items keep their primary keys); the lock's table
/// lines find the index without `--index`; a `--to` of another attribute is refused by name.
#[test]
fn an_index_keys_width_changes_and_its_keys_are_rewritten_in_place() {
    let Some(server) = server_or_skip("an_index_keys_width_changes_and_its_keys_are_rewritten_in_place") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("sortkey-cli-index-change-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");
    let client = client(&server.endpoint);
    let before = TableDefinition::of::<index_before::Ticket>("Tickets");
    runtime().block_on(async {
        before.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for n in 0..12u32 {
            let t = index_before::Ticket { project: "p1".into(), ticket_no: n, assignee: format!("u{}", n % 3) };
            put_item(&client, "Tickets", &t, PutMode::Create).await.unwrap();
        }
    });
    std::fs::write(&lock, LockedKeys::new().table(&TableDefinition::of::<index_after::Ticket>("Tickets")).text())
        .unwrap();
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(text.contains("table Tickets gsi1sk: TicketGsi1Sk\n"), "{text}");

    // The service's typed index query, before the move: every index key old, none with a prefix
    // (so the partition is read whole), pages of 3 in the current order.
    runtime().block_on(async {
        let q = index_after::Ticket::gsi1(&index_after::TicketGsi1Pk { assignee: "u1".into() }).unwrap();
        let (mut read, mut start) = (Vec::new(), None);
        loop {
            let page = query_page(&client, "Tickets", &q, start.as_ref(), 3).await.unwrap();
            read.extend(page.entities.iter().map(|t| t.ticket_no));
            match page.next {
                Some(next) => start = Some(next),
                None => break,
            }
        }
        assert_eq!(read, [1, 4, 7, 10], "the tickets of u1, by their index key");
    });

    // Without --index, the lock's table lines say where the layout lives: its keys are found.
    let dry = ["migrate", "--table", "Tickets", "--to", "TicketGsi1Sk", "--dry-run", "-o", "json"];
    let out = sortkey(&server.endpoint, &lock, &dry).current_dir(&dir).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["complete"].as_bool()), (Some(12), Some(false)));

    // A --to that is no layout of the attribute read: refused, naming the attribute (a lock in
    // which the table's sort key has an older version too, so that only the attribute is wrong).
    let both = dir.join("both.lock");
    let versions = "TicketSk@v1 = TICKET#{ticket_no:u32 width=6}\nTicketSk > TicketSk@v1\n";
    std::fs::write(&both, format!("{text}{versions}")).unwrap();
    let wrong = ["migrate", "--table", "Tickets", "--index", "gsi1", "--to", "TicketSk", "--dry-run"];
    let out = sortkey(&server.endpoint, &both, &wrong).current_dir(&dir).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let named = ["attribute gsi1sk", "TicketGsi1Sk", "the lock puts `TicketSk` in sk"];
    assert!(named.iter().all(|n| stderr.contains(n)), "{stderr}");

    // The audit of the index prints the move; it runs as printed.
    let out = sortkey(&server.endpoint, &lock, &["audit", "--table", "Tickets", "--index", "gsi1", "-o", "json"])
        .assert()
        .code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let sk = doc["attributes"].as_array().unwrap().iter().find(|a| a["name"] == "gsi1sk").unwrap().clone();
    let moves: Vec<String> = serde_json::from_value(sk["moves"][0].clone()).unwrap();
    let tail = ["--table", "Tickets", "--index", "gsi1", "--to", "TicketGsi1Sk", "--compare-attributes"];
    assert!(moves.ends_with(&tail.map(String::from)), "{moves:?}");
    let mut migrate = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin("sortkey"));
    migrate.args(&moves[1..]).args(["-o", "json"]).current_dir(&dir).env_remove("AWS_PROFILE");
    let out = migrate.assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["verdict"]["complete"], true, "{doc}");
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["in_new"].as_u64()), (Some(0), Some(12)), "{doc}");

    // Every index key is in the new layout, on the same 12 items; the index reads them all.
    runtime().block_on(async {
        let scan = client.scan().table_name("Tickets").consistent_read(true).send().await.unwrap();
        let mut keys: Vec<(String, String)> = scan
            .items()
            .iter()
            .map(|i| (i["sk"].as_s().unwrap().clone(), i["gsi1sk"].as_s().unwrap().clone()))
            .collect();
        keys.sort();
        let want: Vec<(String, String)> = (0..12).map(|n| (format!("TICKET#{n:010}"), format!("{n:010}"))).collect();
        assert_eq!(keys, want);
        let mut read = Vec::new();
        for u in 0..3 {
            let q = index_after::Ticket::gsi1(&index_after::TicketGsi1Pk { assignee: format!("u{u}") }).unwrap();
            read.extend(query_page(&client, "Tickets", &q, None, 100).await.unwrap().entities);
        }
        assert_eq!(read.len(), 12);
    });
    sortkey(&server.endpoint, &lock, &["audit", "--table", "Tickets", "--index", "gsi1", "-o", "json"])
        .assert()
        .code(0);
}

/// A read of an index across its key's versions (`query --table --index`) shows every item:
/// items that share an index key are each a result, in the order of their primary keys, both
/// ways (the read merged them by key, and showed one of them).
#[test]
fn items_sharing_an_index_key_are_each_read_across_versions() {
    let Some(server) = server_or_skip("items_sharing_an_index_key_are_each_read_across_versions") else { return };
    let dir = std::env::temp_dir().join(format!("sortkey-cli-index-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("layouts.lock");
    let client = client(&server.endpoint);
    let definition = TableDefinition::of::<index_after::Ticket>("SharedKeys");
    runtime().block_on(async {
        definition.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for (project, ticket_no) in [("p1", 1), ("p2", 1), ("p1", 2), ("p3", 1)] {
            let t = index_after::Ticket { project: project.into(), ticket_no, assignee: "u1".into() };
            put_item(&client, "SharedKeys", &t, PutMode::Create).await.unwrap();
        }
    });
    std::fs::write(&lock, LockedKeys::new().table(&definition).text()).unwrap();
    let read = |reverse: bool| -> Vec<(String, String)> {
        let mut args = vec!["query", "--table", "SharedKeys", "--index", "gsi1", "--pk", "A#u1"];
        args.extend(["--layout", "TicketGsi1Sk", "-o", "json", "ticket_no>=1"]);
        if reverse {
            args.push("--reverse");
        }
        let out = sortkey(&server.endpoint, &lock, &args).assert().code(0);
        let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        let items = doc["items"].as_array().unwrap_or_else(|| panic!("{doc}"));
        assert_eq!(doc["versions"][0]["items"].as_u64(), Some(items.len() as u64), "{doc}");
        items.iter().map(|i| (i["sk"].as_str().unwrap().to_owned(), i["layout"].as_str().unwrap().to_owned())).collect()
    };
    let key = |n: u32| (format!("{n:010}"), "TicketGsi1Sk".to_owned());
    assert_eq!(read(false), [key(1), key(1), key(1), key(2)], "every item, ties included");
    assert_eq!(read(true), [key(2), key(1), key(1), key(1)], "read backward");
}

/// An index's partition key changes prefix (`A#u1` to `ASSIGNEE#u1`): `sortkey migrate` rewrites
/// each item's `gsi1pk` in place, found from the lock's table lines, and its verdict says none is
/// left; a sharded new layout is refused by name, before anything is read.
#[test]
fn an_index_partition_key_is_rewritten_in_place() {
    let Some(server) = server_or_skip("an_index_partition_key_is_rewritten_in_place") else { return };
    let dir = std::env::temp_dir().join(format!("sortkey-cli-index-pk-change-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let client = client(&server.endpoint);
    let before = TableDefinition::of::<index_before::Ticket>("TicketsByA");
    runtime().block_on(async {
        before.apply_to_create(client.create_table()).unwrap().send().await.unwrap();
        for n in 0..9u32 {
            let t = index_before::Ticket { project: "p1".into(), ticket_no: n, assignee: format!("u{}", n % 3) };
            put_item(&client, "TicketsByA", &t, PutMode::Create).await.unwrap();
        }
    });
    // The lock of the service after the change: the index's partition key's new prefix, the
    // old layout its older version.
    let text = LockedKeys::new().table(&before).text().replace(
        "TicketGsi1Pk = partition A#{assignee:text}\n",
        "TicketGsi1Pk = partition ASSIGNEE#{assignee:text}\nTicketGsi1Pk@v1 = partition A#{assignee:text}\n",
    ) + "TicketGsi1Pk > TicketGsi1Pk@v1\n";
    let lock = dir.join("layouts.lock");
    std::fs::write(&lock, &text).unwrap();
    assert!(text.contains("table TicketsByA gsi1pk: TicketGsi1Pk\n"), "{text}");

    let run = ["migrate", "--table", "TicketsByA", "--to", "TicketGsi1Pk", "--compare-attributes", "-o", "json"];
    // Before the move the verdict counts the old keys where they are, in gsi1pk.
    let dry = ["migrate", "--table", "TicketsByA", "--to", "TicketGsi1Pk", "--dry-run", "-o", "json"];
    let out = sortkey(&server.endpoint, &lock, &dry).current_dir(&dir).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["complete"].as_bool()), (Some(9), Some(false)));
    let out = sortkey(&server.endpoint, &lock, &run).current_dir(&dir).assert().code(0);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["verdict"]["complete"], true, "{doc}");
    assert_eq!((doc["verdict"]["in_old"].as_u64(), doc["verdict"]["in_new"].as_u64()), (Some(0), Some(9)), "{doc}");
    runtime().block_on(async {
        let scan = client.scan().table_name("TicketsByA").consistent_read(true).send().await.unwrap();
        let mut keys: Vec<(String, String)> = (scan.items().iter())
            .map(|i| (i["sk"].as_s().unwrap().clone(), i["gsi1pk"].as_s().unwrap().clone()))
            .collect();
        keys.sort();
        let want: Vec<(String, String)> =
            (0..9).map(|n| (format!("TICKET#{n:010}"), format!("ASSIGNEE#u{}", n % 3))).collect();
        assert_eq!(keys, want, "each item's index partition key rewritten, its primary key kept");
    });

    // A sharded new layout: refused by name.
    let sharded = text.replace(
        "TicketGsi1Pk = partition ASSIGNEE#{assignee:text}",
        "TicketGsi1Pk = partition ASSIGNEE#{assignee:text}#{shard:u16 shards=4 by=ticket_no}",
    );
    std::fs::write(&lock, sharded).unwrap();
    let out = sortkey(&server.endpoint, &lock, &run).current_dir(&dir).assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("index gsi1 of table TicketsByA: a sharded partition key of an index"), "{stderr}");
}
