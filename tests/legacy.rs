//! Several layouts through one type: `#[key(legacy = OldKey)]` reads keys written in an older
//! layout (here a narrower score and no version), converts them, and says which layout matched;
//! ranges run once per live layout and merge in the current order, each item once.

use sortkey_core::{Entity, Legacy, SortKey, merge_layouts};
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};

/// The law of reads across layout versions over generated layout pairs (in this binary to link it
/// once).
#[path = "versions_law.rs"]
mod versions_law;

#[test]
fn both_layouts_read_as_the_current_type() {
    let old = RankKeyV1 { score: 1500, player: "p1".into() }.encode().unwrap();
    let new = RankKey { score: 1500, player: "p1".into() }.encode().unwrap();
    assert_ne!(old, new);
    let a = RankKey::decode_any(&old).unwrap();
    let b = RankKey::decode_any(&new).unwrap();
    assert_eq!(a.key, b.key);
    assert_eq!((a.version, b.version), (1, 0));
    assert!(!a.is_current() && b.is_current());
    assert_eq!(a.layout.to_string(), "RUN#{score:u64 width=10 desc}#{player:text}");
    assert_eq!(RankKey::LEGACY_LAYOUTS.len(), 1);
    // A key no layout reads is the current layout's error.
    let e = RankKey::decode_any("RUN#12#p").unwrap_err();
    assert!(e.to_string().contains("`RankKey`"), "{e}");
}

#[test]
fn a_range_runs_once_per_layout_and_merges_each_item_once() {
    // A partition half migrated: scores 10..20 in both layouts, one of them (15) in both.
    let mut table: Vec<String> = Vec::new();
    for score in 10..20u64 {
        let player = format!("p{score}");
        if score % 2 == 0 || score == 15 {
            table.push(RankKeyV1 { score, player: player.clone() }.encode().unwrap());
        }
        if score % 2 == 1 {
            table.push(RankKey { score, player }.encode().unwrap());
        }
    }
    table.sort();
    let conditions = [
        RankKey::query().score_range().between(12, 17).unwrap(),
        RankKeyV1::query().score_range().between(12, 17).unwrap(),
    ];
    let pages: Vec<Vec<_>> = conditions
        .iter()
        .map(|c| table.iter().filter(|k| c.matches(k)).map(|k| (RankKey::decode_any(k).unwrap(), ())).collect())
        .collect();
    let merged = merge_layouts(pages, true);
    let scores: Vec<u64> = merged.iter().map(|(k, ())| k.key.score).collect();
    assert_eq!(scores, [17, 16, 15, 14, 13, 12], "highest first, each once");
    let fifteen = merged.iter().find(|(k, ())| k.key.score == 15).unwrap();
    assert!(fifteen.0.is_current(), "the current copy wins");
    let backwards: Vec<u64> = merge_layouts(
        conditions
            .iter()
            .map(|c| table.iter().filter(|k| c.matches(k)).map(|k| (RankKey::decode_any(k).unwrap(), ())).collect())
            .collect(),
        false,
    )
    .iter()
    .map(|(k, ())| k.key.score)
    .collect();
    assert_eq!(backwards, [12, 13, 14, 15, 16, 17]);
}

/// The lock records which layouts are older versions of which, from `legacy`: under the name of
/// the key that has the older layout (or `Key@v1` when none of the keys checked has it), and a
/// lock whose versions disagree with the types fails as a changed layout does.
#[test]
fn the_lock_records_older_layouts_as_versions() {
    use sortkey_core::{LayoutDifference, LockErrorKind, LockFile, check_lock_file, lock_text};
    let keys = [("RankKey", RankKey::LAYOUT), ("RankKeyV1", RankKeyV1::LAYOUT)];
    let text = lock_text(&keys);
    assert_eq!(
        text,
        "RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
         RankKeyV1 = RUN#{score:u64 width=10 desc}#{player:text}\n\
         RankKey > RankKeyV1\n"
    );
    assert_eq!(RankKey::LAYOUT.legacy(), [&RankKeyV1::LAYOUT]);
    // The older type not among the keys: the lock names its layout after the key.
    let alone = lock_text(&[("RankKey", RankKey::LAYOUT)]);
    assert!(
        alone.ends_with("RankKey@v1 = RUN#{score:u64 width=10 desc}#{player:text}\nRankKey > RankKey@v1\n"),
        "{alone}"
    );

    let lock = LockFile::parse(&text).unwrap();
    assert_eq!(lock.versions.len(), 1);
    let live: Vec<&str> = lock.live("RankKeyV1").iter().map(|(n, _)| *n).collect();
    assert_eq!(live, ["RankKey", "RankKeyV1"], "the current layout first, whichever is named");
    assert_eq!(lock.text(), text, "the lock prints back as it was read");

    let path = std::env::temp_dir().join(format!("sortkey-legacy-{}.lock", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    check_lock_file(&path, &keys).unwrap();
    // The same layouts without the version line: the versions differ.
    std::fs::write(&path, text.replace("RankKey > RankKeyV1\n", "")).unwrap();
    let e = check_lock_file(&path, &keys).unwrap_err();
    let LockErrorKind::Differs(differences) = &e.kind else { panic!("{e}") };
    assert!(
        matches!(&differences[..], [LayoutDifference::Versions { name, derived, locked }]
            if name == "RankKey" && derived == &["RankKeyV1"] && locked.is_empty()),
        "{e}"
    );
    assert!(
        e.to_string().contains("`RankKey`: its older layouts are RankKeyV1 (legacy = ...), but the lock records none"),
        "{e}"
    );
    std::fs::remove_file(&path).unwrap();

    // Version lines that name no layout, one twice, layouts of two roles, or two layouts that
    // write every key alike (the same text, or a width written and the same width left out) are
    // refused.
    let entries = "A = A#{a:u8}\nB = B#{b:u8}\nP = partition P#{p:u8}\nA2 = A#{a:u8}\nA3 = A#{a:u8 width=3}\n";
    for (line, expected) in [
        ("A > A2", "line 6, byte 4: expected a layout that differs from `A`, whose text `A2` has too"),
        ("A3 > B > A", "line 6, byte 9: expected a layout that differs from `A3`"),
        ("A > C", "line 6, byte 4: expected the name of a layout of the lock"),
        ("A > B\nB > A", "line 7, byte 0: expected a layout in one version line at most"),
        ("A > P", "line 6, byte 4: expected a layout of the same role as `A`"),
        (
            "A B",
            "line 6, byte 0: expected `name = layout`, `Current > Older`, `table TABLE ATTRIBUTE: Name` or `rank Name.field levels=N`",
        ),
    ] {
        let e = LockFile::parse(&format!("{entries}{line}\n")).unwrap_err().to_string();
        assert!(e.starts_with(expected), "{line}: {e}");
    }
}

/// One condition on the fields, on every live layout: for every key of an older layout whose value
/// the current layout holds, the older layout's condition matches it exactly when the current
/// layout's matches the same value's current key, bounds beyond the older layout's range clipped
/// (or the layout left out when none of its keys can match).
#[test]
fn one_condition_selects_the_same_values_in_every_version() {
    use sortkey_core::query::Comparison;
    use sortkey_core::{DynValue, FieldCondition};
    let u = DynValue::Unsigned;
    let edges = [0u64, 1, 1499, 1500, 1501, 99_999_999, 5_000_000_000, 9_999_999_999, 10_000_000_000, 999_999_999_999];
    let mut conditions =
        vec![FieldCondition::new(), FieldCondition::new().fix("score", u(1500)).text_begins_with("player", "p")];
    for &v in &edges {
        for cmp in [Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge] {
            conditions.push(FieldCondition::new().compare("score", cmp, u(v.into())));
        }
        conditions.push(FieldCondition::new().fix("score", u(v.into())));
        for &w in &edges {
            conditions.push(FieldCondition::new().between("score", u(v.into()), u(w.into())));
        }
    }
    let values: Vec<u64> = edges.iter().flat_map(|&v| [v, v.saturating_sub(1), v + 1]).collect();
    for condition in &conditions {
        let [current, older] = &condition.on_versions::<RankKey>().unwrap()[..] else { panic!("two layouts") };
        // An empty range (below zero, low above high): no layout has a condition.
        let Some(current) = current else {
            assert_eq!(older, &None, "{condition:?}");
            continue;
        };
        for &score in &values {
            let Ok(now) = (RankKey { score, player: "p1".into() }).encode() else { continue };
            let Ok(old) = (RankKeyV1 { score, player: "p1".into() }).encode() else { continue };
            let expected = current.matches(&now);
            let found = older.as_ref().is_some_and(|c| c.matches(&old));
            assert_eq!(found, expected, "{condition:?} on score {score}: {older:?}");
        }
    }
}

/// Keys of an older version are an audit finding: how many, in how many partitions, and in how
/// many of those beside keys of the current layout; the same counts from parts merged, and from
/// a partial audit resumed with its partitions.
#[test]
fn the_audit_counts_old_keys_by_partition() {
    use sortkey_core::{KeyAudit, LockFile, lock_text};
    let lock = LockFile::parse(&lock_text(&[("RankKey", RankKey::LAYOUT), ("RankKeyV1", RankKeyV1::LAYOUT)])).unwrap();
    let keys: Vec<(String, String)> = (0..30u64)
        .map(|i| {
            let partition = format!("SEASON#{}", i % 3);
            let key = match i % 5 {
                // Partition SEASON#0 gets both layouts; SEASON#1 old keys only (i % 5 == 1 and i % 3 == 1).
                0 if i % 3 != 1 => RankKey { score: i, player: format!("p{i}") }.encode().unwrap(),
                _ if i % 3 == 2 => RankKey { score: i, player: format!("p{i}") }.encode().unwrap(),
                _ => RankKeyV1 { score: i, player: format!("p{i}") }.encode().unwrap(),
            };
            (partition, key)
        })
        .collect();
    let audit = |part: &[(String, String)]| {
        let mut a = KeyAudit::new(lock.entries.clone()).with_versions(&lock.versions);
        part.iter().for_each(|(p, k)| a.observe_in(k, Some(p)));
        a
    };
    let whole = audit(&keys);
    let report = whole.report();
    let [old] = &report.old_keys[..] else { panic!("{:?}", report.old_keys) };
    assert_eq!((old.layout.as_str(), old.current.as_str()), ("RankKeyV1", "RankKey"));
    let expected_old = keys.iter().filter(|(_, k)| RankKeyV1::decode(k).is_ok()).count() as u64;
    assert_eq!(old.keys, expected_old);
    assert_eq!((old.partitions, old.partitions_with_current), (2, 1), "SEASON#0 mixed, SEASON#1 old only");
    assert_eq!(old.partition_samples, ["SEASON#0", "SEASON#1"]);
    assert!(report.has_findings());
    // Parts merged (every other key: partitions spread over both), and a part resumed.
    let (even, odd): (Vec<_>, Vec<_>) = keys.iter().cloned().enumerate().partition(|(i, _)| i % 2 == 0);
    let strip = |v: Vec<(usize, (String, String))>| v.into_iter().map(|(_, k)| k).collect::<Vec<_>>();
    let (even, odd) = (strip(even), strip(odd));
    let mut merged = audit(&even);
    merged.merge_audit(&audit(&odd)).unwrap();
    assert_eq!(merged.report(), report);
    let first = audit(&even);
    let mut resumed = KeyAudit::resume_with_partitions(
        lock.entries.clone(),
        &lock.versions,
        &first.report(),
        &first.version_partitions(),
    )
    .unwrap();
    odd.iter().for_each(|(p, k)| resumed.observe_in(k, Some(p)));
    assert_eq!(resumed.report(), report);
}

/// The sort key an order entity wrote before its order number grew from 8 digits to 10.
#[derive(SortKey)]
#[key(prefix = "ORDER")]
struct OrderSkV1 {
    #[key(width = 8)]
    order_no: u32,
}

impl From<OrderSkV1> for OrderSk {
    fn from(old: OrderSkV1) -> Self {
        OrderSk { order_no: old.order_no }
    }
}

/// The same change in the index's sort key.
#[derive(SortKey)]
struct OrderByStatusSkV1 {
    #[key(width = 8)]
    order_no: u32,
}

impl From<OrderByStatusSkV1> for OrderByStatusSk {
    fn from(old: OrderByStatusSkV1) -> Self {
        OrderByStatusSk { order_no: old.order_no }
    }
}

#[derive(Entity)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", legacy = OrderSkV1, order_no(width = 10)),
    index(by_status(pk(prefix = "S", status), sk(legacy = OrderByStatusSkV1, order_no(width = 10))))
)]
struct Order {
    customer_id: String,
    order_no: u32,
    status: String,
}

/// `legacy` on an entity's keys: each generated key type reads its older layout through
/// `decode_any`, and the lock records the versions under the key types' names.
#[test]
fn an_entitys_keys_read_their_older_layouts_and_lock_them_as_versions() {
    let read = OrderSk::decode_any("ORDER#00001002").unwrap();
    assert_eq!((read.key, read.version), (OrderSk { order_no: 1002 }, 1));
    assert_eq!(OrderSk::decode_any("ORDER#0000001002").unwrap().version, 0);
    assert!(OrderSk::decode("ORDER#00001002").is_err(), "decode reads the current layout alone");
    let read = OrderByStatusSk::decode_any("00001002").unwrap();
    assert_eq!((read.key, read.version), (OrderByStatusSk { order_no: 1002 }, 1));
    let order = Order { customer_id: "c1".into(), order_no: 1002, status: "NEW".into() };
    assert_eq!(order.primary_key().sort.encode().unwrap(), "ORDER#0000001002", "written in the current layout");

    let lock = sortkey_core::lock_text(&[("OrderSk", OrderSk::LAYOUT), ("OrderByStatusSk", OrderByStatusSk::LAYOUT)]);
    assert!(
        lock.contains("OrderSk > OrderSk@v1\n") && lock.contains("OrderByStatusSk > OrderByStatusSk@v1\n"),
        "{lock}"
    );
    assert!(lock.contains("OrderSk@v1 = ORDER#{order_no:u32 width=8}\n"), "{lock}");
}

mod family_v1 {
    use sortkey_core::SortKey;

    #[derive(SortKey)]
    #[key(prefix = "ORDER")]
    pub(crate) struct OrderKeyV1 {
        #[key(width = 8)]
        pub(crate) order_no: u32,
    }

    /// The family before its orders' numbers grew.
    #[derive(SortKey)]
    pub(crate) enum CustomerItemV1 {
        #[key(prefix = "PROFILE")]
        Profile,
        Order(OrderKeyV1),
    }
}

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 10)]
    order_no: u32,
}

#[derive(SortKey, Debug, PartialEq)]
#[key(legacy = family_v1::CustomerItemV1)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
}

impl From<family_v1::CustomerItemV1> for CustomerItem {
    fn from(old: family_v1::CustomerItemV1) -> Self {
        match old {
            family_v1::CustomerItemV1::Profile => CustomerItem::Profile,
            family_v1::CustomerItemV1::Order(o) => CustomerItem::Order(OrderKey { order_no: o.order_no }),
        }
    }
}

/// `legacy` on a key family: the family reads its older layout (an enum of the variants' older
/// key types) through `decode_any`, and the lock records it as a version.
#[test]
fn a_family_reads_its_older_layout_and_locks_it_as_a_version() {
    let read = CustomerItem::decode_any("ORDER#00001002").unwrap();
    assert_eq!((read.key, read.version), (CustomerItem::Order(OrderKey { order_no: 1002 }), 1));
    let read = CustomerItem::decode_any("PROFILE").unwrap();
    assert_eq!((read.key, read.version), (CustomerItem::Profile, 0), "what both read is the current layout's");
    assert!(CustomerItem::decode_any("ORDER#12").is_err());
    let lock = sortkey_core::lock_text(&[("CustomerItem", CustomerItem::LAYOUT)]);
    assert!(lock.contains("CustomerItem > CustomerItem@v1\n"), "{lock}");
}

/// The score first, descending: the current layout of a key whose older layout put the player
/// first.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "RANK", legacy = ByPlayerV1)]
struct Ranked {
    #[key(width = 12, desc)]
    score: u64,
    player: String,
}

/// The older layout: the player first, the score ascending.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "BY")]
struct ByPlayerV1 {
    player: String,
    #[key(width = 10)]
    score: u64,
}

impl From<ByPlayerV1> for Ranked {
    fn from(old: ByPlayerV1) -> Self {
        Ranked { score: old.score, player: old.player }
    }
}

/// A condition on the score cannot be said of the older layout's keys (the player comes first):
/// `on_versions` refuses it, naming the older layout, rather than give a range that would miss
/// or wrongly include its keys; the lock's `LiveLayouts` reads such a layout whole instead.
#[test]
fn a_condition_an_older_layout_cannot_say_is_refused_by_name() {
    use sortkey_core::query::Comparison;
    use sortkey_core::{DynValue, FieldCondition};
    let condition = FieldCondition::new().compare("score", Comparison::Ge, DynValue::Unsigned(1500));
    let e = condition.on_versions::<Ranked>().unwrap_err();
    assert_eq!((e.key(), e.field()), ("Ranked", Some("score")));
    let sortkey_core::QueryErrorKind::OlderLayout { version, layout, reason } = e.kind() else { panic!("{e:?}") };
    assert_eq!((*version, layout.as_str()), (1, "BY#{player:text}#{score:u64 width=10}"));
    assert!(matches!(**reason, sortkey_core::QueryErrorKind::OutOfOrder { .. }), "{reason:?}");
    let text = e.to_string();
    assert!(text.starts_with("cannot query `Ranked`: field `score`: its older layout 1 (`BY#"), "{text}");
    assert!(text.contains("expected field `player` next") && text.contains("LiveLayouts"), "{text}");
    // What the current layout refuses stays its own refusal, under the type's name.
    let e = FieldCondition::new().compare("player", Comparison::Ge, DynValue::Text("p".into()));
    let e = e.on_versions::<Ranked>().unwrap_err();
    assert!(matches!(e.kind(), sortkey_core::QueryErrorKind::OutOfOrder { .. }), "{e:?}");
    assert!(e.to_string().starts_with("cannot query `Ranked`: field `player`: expected field `score`"), "{e}");
}
