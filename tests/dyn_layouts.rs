//! Layouts you can run, the text: every derived key type's layout parses back into a
//! `DynLayout` that prints the same text; a text the grammar does not allow is an error at its
//! byte, never a panic (random and mutated texts, as the decoders are fuzzed); a lock file reads
//! into its named layouts; what each field can hold is read from the text alone.

use std::time::SystemTime;

use proptest::prelude::*;
use sortkey_core::{DynLayout, LockFile, SortKey};
use sortkey_tests::leaderboard::RankKey;
use sortkey_tests::samples::{Caps, Custom, Item, Partition, Stamps, Times, layouts};

#[test]
fn every_derived_layout_parses_and_prints_back() {
    for (name, layout) in layouts() {
        let text = layout.to_string();
        let parsed = DynLayout::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n  {text}"));
        assert_eq!(parsed.to_string(), text, "{name}");
        // The derived layout, as a `DynLayout`, is what its text parses to.
        assert_eq!(DynLayout::from(&layout), parsed, "{name}");
    }
}

#[test]
fn what_is_parsed_is_the_schema() {
    use sortkey_core::{DynBody, DynType, KeyRole};
    let p = DynLayout::parse(&Partition::LAYOUT.to_string()).unwrap();
    assert_eq!((p.role, p.max_len), (KeyRole::Partition, 100));
    let t = DynLayout::parse(&Times::LAYOUT.to_string()).unwrap();
    assert_eq!((t.key.prefix.as_deref(), t.key.separator), (Some("T"), '|'));
    let DynBody::Fields(fields) = &t.key.body else { panic!("fields") };
    assert_eq!(fields[0].ty, DynType::Timestamp);
    assert!(fields[0].desc && fields[1].rfc3339);
    assert_eq!(fields[2].ty, DynType::Option(Box::new(DynType::Timestamp)));
    let item = DynLayout::parse(&Item::LAYOUT.to_string()).unwrap();
    assert!(matches!(&item.key.body, DynBody::Family(v) if v.len() == 3));
    let custom = DynLayout::parse(&Custom::LAYOUT.to_string()).unwrap();
    assert_eq!(custom.key.body, DynBody::Custom);
}

#[test]
fn a_text_outside_the_grammar_is_an_error_at_its_byte() {
    let cases = [
        ("RUN#{score:u65 width=10}", 11, "a type"),
        ("RUN#{score:u64 wdth=10}", 15, "an option"),
        ("RUN#{score:u64 width=10", 23, "`}`"),
        ("RUN#{score:u64 desc desc}", 20, "`desc` once"),
        ("{a:u8} trailing", 6, "the end of the layout"),
        ("family(A | B", 12, "`)`"),
        ("RUN#{a:u8}|{b:u8}", 10, "the separator `#` again"),
        ("", 0, "a prefix and a separator"),
    ];
    for (text, offset, expected) in cases {
        let e = DynLayout::parse(text).unwrap_err();
        assert_eq!(e.offset, offset, "{text}: {e}");
        assert!(e.expected.starts_with(expected), "{text}: {e}");
    }
    let e = DynLayout::parse("RUN#{score:u64 width=x}").unwrap_err();
    assert_eq!(e.to_string(), "layout text at byte 21: expected a width, in decimal digits, found `x}`");
}

#[test]
fn a_lock_file_reads_into_its_named_layouts() {
    let text: String = layouts().iter().map(|(n, l)| format!("{n} = {l}\n")).collect();
    let lock = LockFile::parse(&text).unwrap();
    assert_eq!(lock.entries.len(), layouts().len());
    assert_eq!(lock.get("RankKey").unwrap().to_string(), RankKey::LAYOUT.to_string());
    let e = LockFile::parse("RankKey = RUN#{score:u64 width=10 desc}\nBad = RUN#{x:u9}\n").unwrap_err();
    assert_eq!((e.line, e.error.offset), (2, 13));
    let e = LockFile::parse("no equals sign here\n").unwrap_err();
    assert_eq!(e.line, 1);
}

/// The texts the fuzzing mutates: every derived layout.
fn texts() -> Vec<String> {
    layouts().iter().map(|(_, l)| l.to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Mutated layouts (a byte range cut, replaced or repeated) and random text: the parser
    /// answers with a layout or an error inside the text, and what it parses prints back to a
    /// text that parses to the same layout.
    #[test]
    fn parse_never_panics(
        which in 0..15usize,
        cut in 0..200usize,
        len in 0..8usize,
        insert in prop::sample::select(vec!["", "{", "}", "|", " ", "#", "(", ")", "<", ">", "=", ":", "é", "family(", "key(", " max_len=", "partition "]),
        random in "\\PC{0,40}",
    ) {
        let texts = texts();
        let base = &texts[which % texts.len()];
        let mut bytes = base.as_bytes().to_vec();
        let at = cut.min(bytes.len());
        let end = (at + len).min(bytes.len());
        bytes.splice(at..end, insert.bytes());
        for text in [String::from_utf8_lossy(&bytes).into_owned(), random] {
            match DynLayout::parse(&text) {
                Ok(parsed) => {
                    let again = DynLayout::parse(&parsed.to_string());
                    prop_assert_eq!(again.as_ref(), Ok(&parsed), "{}", text);
                }
                Err(e) => prop_assert!(e.offset <= text.len(), "{}: {}", text, e),
            }
        }
    }
}

/// What each field can hold, read from the layout text alone, is exactly what the derived type
/// encodes: its largest (and least) value encodes, one more (one less) does not.
#[test]
fn the_capacity_of_a_field_is_what_its_type_encodes() {
    use sortkey_core::{Capacity, DynBody};
    let layout = DynLayout::parse(&Caps::LAYOUT.to_string()).unwrap();
    let DynBody::Fields(fields) = &layout.key.body else { panic!("fields") };
    let caps: Vec<Capacity> = fields.iter().map(|f| f.capacity().unwrap()).collect();
    let unsigned = |largest| Capacity::Unsigned { largest };
    let signed = |least, largest| Capacity::Signed { least, largest };
    assert_eq!(
        caps,
        [
            unsigned(255),
            unsigned(99),
            unsigned(5000),
            signed(-128, 127),
            signed(-99, 99),
            signed(i128::MIN, i128::MAX),
            unsigned(u128::MAX),
            signed(-9999, 9999),
        ]
    );
    let base = Caps::default();
    let ok = |k: Caps| k.encode().is_ok();
    assert!(ok(Caps { b: 99, ..base }) && !ok(Caps { b: 100, ..base }));
    assert!(ok(Caps { c: 5000, ..base }) && !ok(Caps { c: 5001, ..base }));
    assert!(ok(Caps { e: 99, ..base }) && !ok(Caps { e: 100, ..base }));
    assert!(ok(Caps { e: -99, ..base }) && !ok(Caps { e: -100, ..base }));
    assert!(ok(Caps { h: -9999, ..base }) && !ok(Caps { h: -10000, ..base }));
    assert!(ok(Caps { d: i8::MIN, f: i128::MIN, g: u128::MAX, ..base }));

    let stamps = DynLayout::parse(&Stamps::LAYOUT.to_string()).unwrap();
    let DynBody::Fields(fields) = &stamps.key.body else { panic!("fields") };
    let Some(Capacity::Timestamp { largest, last_instant, .. }) = fields[0].capacity() else { panic!("a timestamp") };
    assert_eq!((largest, last_instant.as_str()), (9_999_999_999_999, "2286-11-20T17:46:39.999Z"));
    let at = |ms: u64| SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    let key = |ms| Stamps { at: at(ms), plain: SystemTime::UNIX_EPOCH }.encode();
    assert!(key(9_999_999_999_999).is_ok() && key(10_000_000_000_000).is_err());
    let Some(Capacity::Timestamp { last_instant, .. }) = fields[1].capacity() else { panic!("a timestamp") };
    assert_eq!(last_instant, "9999-12-31T23:59:59Z");
    assert_eq!(fields.iter().filter_map(|f| f.capacity()).count(), 2);
}

/// The usage of a layout's fields over decoded keys: the largest and least value seen of every
/// numeric and timestamp field (nested keys and family variants by path), the headroom left
/// above (and below) them, and the merge of two partial usages.
#[test]
fn usage_reports_the_largest_values_seen_and_the_headroom_left() {
    use sortkey_core::{Capacity, DynValue, Headroom};
    use sortkey_tests::samples::{AddressKey, Audit, OrderKey};
    let caps = DynLayout::parse(&Caps::LAYOUT.to_string()).unwrap();
    let mut usage = caps.usage();
    let mut other = caps.usage();
    for (i, k) in [Caps { b: 9, c: 4500, e: -50, ..Caps::default() }, Caps { b: 42, c: 10, e: 7, ..Caps::default() }]
        .iter()
        .enumerate()
    {
        let value = caps.decode(&k.encode().unwrap()).unwrap();
        if i == 0 { usage.observe(&value) } else { other.observe(&value) }
    }
    usage.merge(&other);
    let field = |path: &str| usage.fields().iter().find(|f| f.path == path).unwrap().clone();
    let b = field("b");
    assert_eq!((b.seen, &b.largest, &b.least), (2, &Some(DynValue::Unsigned(42)), &Some(DynValue::Unsigned(9))));
    assert_eq!(b.headroom(), Some(Headroom { digits_left: 0, fraction_left: (99.0 - 42.0) / 99.0 }));
    // `c` is bounded by max = 5000, not by its 4 digits.
    assert_eq!(field("c").capacity, Capacity::Unsigned { largest: 5000 });
    assert_eq!(field("c").headroom().unwrap().fraction_left, 0.1);
    // A signed field's headroom is the closer end: -50 of -99 leaves less than 7 of 99.
    let e = field("e").headroom().unwrap();
    assert_eq!((e.digits_left, e.fraction_left), (0, 49.0 / 99.0));
    assert_eq!(usage.fields().len(), 8);

    let audit = DynLayout::parse(&Audit::LAYOUT.to_string()).unwrap();
    let mut usage = audit.usage();
    let paths: Vec<&str> = usage.fields().iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["item.ORDER.placed_at", "item.ADDR.n", "revision"]);
    let order = OrderKey { placed_at: 1_719_100_800, order_id: "o".into() };
    for item in [Item::Order(order), Item::Address(AddressKey { n: 3 }), Item::Profile] {
        usage.observe(&audit.decode(&Audit { item, revision: 5 }.encode().unwrap()).unwrap());
    }
    let seen: Vec<u64> = usage.fields().iter().map(|f| f.seen).collect();
    assert_eq!(seen, [1, 1, 3]);
    let placed = &usage.fields()[0];
    assert_eq!(placed.headroom().unwrap().digits_left, 0);
    assert_eq!(usage.fields()[1].headroom().unwrap().digits_left, 1);

    let times = DynLayout::parse(&Times::LAYOUT.to_string()).unwrap();
    let mut usage = times.usage();
    let at = SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_719_100_800_123);
    let text = sortkey_core::chrono::DateTime::from_timestamp(0, 0).unwrap();
    usage.observe(&times.decode(&Times { at, text, plain: None }.encode().unwrap()).unwrap());
    let fields = usage.fields();
    assert_eq!(fields[0].largest, Some(DynValue::Unsigned(1_719_100_800_123)));
    assert_eq!(fields[2].seen, 0, "None is no value");
    assert_eq!(fields[2].headroom(), None);
}

/// The lock the audit tests classify keys by: a key type and a family.
const AUDITED: &str = "RankKey = RUN#{score:u64 width=12 desc}#{player:text}\n\
                       Item = family(PROFILE | ORDER#{placed:u64 width=10 desc}#{id:text})\n";

/// The audit of a key attribute: each key counted under the layout that reads it; a key that a
/// layout reads with one field of another digit count is a mixed width (not an unread key);
/// the others grouped by the kind of error of the layout that read furthest; empty keys and
/// keys over the limit counted; the usage of each layout's fields kept.
#[test]
fn an_audit_classifies_every_key_by_the_layout_that_reads_it() {
    use sortkey_core::{DecodeErrorKind, KeyAudit};
    let lock = LockFile::parse(AUDITED).unwrap();
    let mut audit = KeyAudit::new(lock.entries.clone());
    let keys = [
        "RUN#999999998499#p_1",
        "RUN#999999999999#p_2",
        "RUN#9999998499#p_old",
        "RUN#9999999999#p_old2",
        "ORDER#8280899199#o-1",
        "ORDER#828089919#o-2",
        "PROFILE",
        "RUN#99999999849x#p",
        "NOPE#1",
        "",
    ];
    for key in keys {
        audit.observe(key);
    }
    let long = format!("RUN#999999998499#{}", "x".repeat(1100));
    audit.observe(&long);
    let report = audit.report();
    assert_eq!(report.keys, 11);
    let counts: Vec<(&str, u64)> = report.layouts.iter().map(|l| (l.name.as_str(), l.count)).collect();
    assert_eq!(counts, [("RankKey", 2), ("Item", 2)], "a key over the limit is only counted as such");
    let mixed: Vec<(&str, &str, u32, u32, u64)> =
        report.mixed_widths.iter().map(|m| (m.layout.as_str(), m.field.as_str(), m.width, m.seen, m.count)).collect();
    assert_eq!(mixed, [("RankKey", "score", 12, 10, 2), ("Item", "ORDER.placed", 10, 9, 1)]);
    assert_eq!(report.mixed_widths[0].samples, ["RUN#9999998499#p_old", "RUN#9999999999#p_old2"]);
    let unread: Vec<(DecodeErrorKind, u64)> = report.unread.iter().map(|u| (u.kind, u.count)).collect();
    // "NOPE#1": every layout stops at byte 0; the first of the lock names the error.
    assert_eq!(unread, [(DecodeErrorKind::NotADigit, 1), (DecodeErrorKind::WrongPrefix, 1)]);
    assert_eq!(report.unread[0].samples[0].layout, "RankKey");
    assert_eq!((report.empty, report.too_long), (1, 1));
    assert!(report.has_findings());
    // The usage of RankKey's score: 1500 and 0 seen.
    let score = &report.layouts[0].fields[0];
    assert_eq!((score.path.as_str(), score.seen), ("score", 2));
    assert_eq!(score.largest, Some(sortkey_core::DynValue::Unsigned(1500)));

    // One key's mismatch, as a row flag: found without being counted.
    let m = audit.width_mismatch("RUN#9999998499#p_old").expect("a mixed width");
    assert_eq!((m.layout, m.field.as_str(), m.width, m.seen), (0, "score", 12, 10));
    assert_eq!(audit.width_mismatch("NOPE#1"), None);
    assert_eq!(audit.report(), report, "asking counts nothing");

    let mut clean = KeyAudit::new(lock.entries);
    clean.observe("RUN#999999998499#p_1");
    assert!(!clean.report().has_findings());
}

/// Audits of the parts of a set of keys, merged in order, report what one audit of them all
/// does: that is what lets segments (on many machines) be audited apart. A report of another
/// lock is refused.
#[test]
fn audits_of_parts_merge_into_the_audit_of_the_whole() {
    use sortkey_core::KeyAudit;
    let lock = LockFile::parse(AUDITED).unwrap();
    let keys: Vec<String> = (0..40u64)
        .flat_map(|i| {
            [
                format!("RUN#{:012}#p_{i}", 999_999_999_999 - i * 37),
                format!("RUN#{:010}#old_{i}", 9_999_999_999 - i),
                format!("ORDER#{:010}#o-{i}", 8_280_899_199 - i * 1000),
                format!("NOPE#{i}"),
                if i % 7 == 0 { String::new() } else { "PROFILE".to_owned() },
            ]
        })
        .collect();
    let mut whole = KeyAudit::new(lock.entries.clone());
    keys.iter().for_each(|k| whole.observe(k));
    for cut in [0, 1, 77, keys.len()] {
        let (mut first, mut second) = (KeyAudit::new(lock.entries.clone()), KeyAudit::new(lock.entries.clone()));
        keys[..cut].iter().for_each(|k| first.observe(k));
        keys[cut..].iter().for_each(|k| second.observe(k));
        first.merge(&second.report()).unwrap();
        assert_eq!(first.report(), whole.report(), "cut at {cut}");
    }
    // Any order of reading, and merges in any order, give the same report.
    let mut reversed = KeyAudit::new(lock.entries.clone());
    keys.iter().rev().for_each(|k| reversed.observe(k));
    assert_eq!(reversed.report(), whole.report(), "the keys read backwards");
    let (mut first, mut second) = (KeyAudit::new(lock.entries.clone()), KeyAudit::new(lock.entries.clone()));
    keys.iter().step_by(2).for_each(|k| second.observe(k));
    keys.iter().skip(1).step_by(2).for_each(|k| first.observe(k));
    first.merge(&second.report()).unwrap();
    assert_eq!(first.report(), whole.report(), "every other key, merged the other way round");
    // The report reads back from its JSON, and an audit resumed from it goes on as the whole.
    let json = serde_json::to_string(&whole.report()).unwrap();
    let read: sortkey_core::AuditReport = serde_json::from_str(&json).unwrap();
    assert_eq!(read, whole.report());
    let resumed = KeyAudit::resume(lock.entries.clone(), &read).unwrap();
    assert_eq!(serde_json::to_string(&resumed.report()).unwrap(), json);
    let other = KeyAudit::new(LockFile::parse("RankKey = RUN#{score:u64 width=12}\n").unwrap().entries);
    let error = whole.merge(&other.report()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "cannot merge an audit report of the layouts [RankKey] into an audit of [RankKey, Item]; expected reports \
         of the same lock"
    );
}

/// The balance of sharded partitions follows the same law: the audits of parts, merged in any
/// order, through `merge` (a partial report), `merge_audit` (another file) or `resume`, count
/// each logical partition's items per shard as the audit of the whole does.
#[test]
fn shard_balances_of_parts_merge_into_the_whole() {
    use sortkey_core::KeyAudit;
    let lock = LockFile::parse(
        "SeasonPk = partition SEASON#{season:u16 width=4}#{shard:u16 width=1 shards=4 by=player}\n\
         OtherPk = partition CUST#{id:u32 width=6}\n",
    )
    .unwrap();
    let keys: Vec<String> = (0..100u32)
        .map(|i| match i % 5 {
            0 => format!("CUST#{i:06}"),
            1 => "SEASON#2027#3".to_owned(),
            _ => format!("SEASON#2026#{}", i % 4),
        })
        .collect();
    let mut whole = KeyAudit::new(lock.entries.clone());
    keys.iter().for_each(|k| whole.observe(k));
    let report = whole.report();
    let season = |p: &str| report.shards.iter().find(|b| b.partition == p).unwrap().items.clone();
    let count = |p: &str, shard: usize| keys.iter().filter(|k| k.as_str() == format!("{p}#{shard}")).count() as u64;
    assert_eq!(season("SEASON#2026"), (0..4).map(|s| count("SEASON#2026", s)).collect::<Vec<_>>());
    assert_eq!(season("SEASON#2027"), [0, 0, 0, 20]);
    assert_eq!(report.shards[0].partition, "SEASON#2027", "the most skewed first");
    assert!(report.shards[0].is_finding() && !report.shards[1].is_finding() && report.has_findings());
    for cut in [0, 1, 31, keys.len()] {
        let (mut first, mut second) = (KeyAudit::new(lock.entries.clone()), KeyAudit::new(lock.entries.clone()));
        keys[..cut].iter().for_each(|k| first.observe(k));
        keys[cut..].iter().for_each(|k| second.observe(k));
        let mut by_audit = KeyAudit::new(lock.entries.clone());
        by_audit.merge_audit(&first).unwrap();
        by_audit.merge_audit(&second).unwrap();
        assert_eq!(by_audit.report(), report, "merge_audit, cut at {cut}");
        second.merge(&first.report()).unwrap();
        assert_eq!(second.report(), report, "merge, cut at {cut}");
    }
    let json = serde_json::to_string(&report).unwrap();
    let resumed = KeyAudit::resume(lock.entries.clone(), &serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(resumed.report(), report, "a partial report read back");
}

/// A migration between two layouts of a lock, fields matched by name: an old key moves to the
/// key of the same value in the new layout (a wider width, `desc`, a new prefix, another order
/// of fields), a new one and another entity's stay; layouts whose fields differ, of different
/// roles, or that both read a key are refused, and so is a value too wide for the new layout.
#[test]
fn a_migration_moves_keys_by_field_name() {
    use sortkey_core::{DynMigration, MigrationErrorKind, Rekeyed};
    let lock = LockFile::parse(
        "Old = RUN#{score:u64 width=10 desc}#{player:text}\n\
         New = RANK#{player:text}#{score:u64 width=12}\n\
         Desc = RUN#{score:u64 width=10}#{player:text}\n\
         Fewer = RUN#{score:u64 width=12}\n\
         Pk = partition RUN#{score:u64 width=12}#{player:text}\n",
    )
    .unwrap();
    let entry = |name: &str| (name.to_owned(), lock.get(name).unwrap().clone());
    let migration = DynMigration::new(entry("Old"), entry("New")).unwrap();
    assert_eq!(migration.classify("RUN#9999998499#p_1").unwrap(), Rekeyed::Move("RANK#p_1#000000001500".into()));
    assert_eq!(migration.classify("RANK#p_1#000000001500").unwrap(), Rekeyed::Current);
    assert_eq!(migration.classify("PROFILE").unwrap(), Rekeyed::Other);

    let back = DynMigration::new(entry("New"), entry("Old")).unwrap();
    let error = back.classify("RANK#p_1#100000000000").unwrap_err();
    assert!(matches!(error.kind, MigrationErrorKind::DoesNotFit { .. }));
    assert!(error.to_string().starts_with("cannot move `RANK#p_1#100000000000` from `New` to `Old`: "), "{error}");

    let desc = DynMigration::new(entry("Old"), entry("Desc")).unwrap();
    assert_eq!(
        desc.classify("RUN#9999998499#p_1").unwrap_err().to_string(),
        "cannot migrate `Old` to `Desc`: the key `RUN#9999998499#p_1` reads in both, so a moved key cannot be told \
         from one to move; expected layouts no key reads in both (a new prefix, another width)"
    );
    assert_eq!(
        DynMigration::new(entry("Old"), entry("Fewer")).unwrap_err().to_string(),
        "cannot migrate `Old` to `Fewer` by field name: expected the same fields, found [player] only in `Old` and \
         [] only in `Fewer` (a moved key would lose a value or lack one)"
    );
    assert_eq!(DynMigration::new(entry("Old"), entry("Pk")).unwrap_err().kind, MigrationErrorKind::Roles);
}

/// A partition key's migration: a shard-count change (4 shards to 16) and a partition split
/// into shards (none to 16) move each item's partition key to the shard its sort key's `player`
/// segment gives (the entity's rule, `Shards::of`), its sort key unchanged; keys already in the
/// new layout and other keys stay; an item whose sort key has no `player` cannot move, and says
/// why; layouts of two roles are still refused.
#[test]
fn a_partition_key_migration_moves_each_item_to_the_shard_its_sort_key_gives() {
    use sortkey_core::{DynMigration, KeyRole, MigrationErrorKind, Rekeyed, ShardRule, Shards, VerdictAudit};
    let lock = LockFile::parse(
        "RunPk = partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}\n\
         RunPk@v1 = partition SEASON#{season:u16 width=4}#{shard:u16 width=1 shards=4 by=player}\n\
         Unsharded = partition SEASON#{season:u16 width=4}\n\
         RunSk = RUN#{score:u32 width=4 desc}#{player:text}\n\
         Order = ORDER#{id:u32 width=4}\n\
         RunPk > RunPk@v1\n",
    )
    .unwrap();
    let entry = |name: &str| (name.to_owned(), lock.get(name).unwrap().clone());
    let sorts = || lock.entries.iter().map(|(n, l)| (n.as_str(), l));
    let sixteen = Shards::new(16, ShardRule::By("player"));
    for old in ["RunPk@v1", "Unsharded"] {
        let migration = DynMigration::new(entry(old), entry("RunPk")).unwrap().reading_sort_keys(sorts());
        assert!(migration.moves_partition_keys());
        for i in 0..40 {
            let player = format!("p_{i}");
            let sk = format!("RUN#9000#{player}");
            let pk = match old {
                "Unsharded" => "SEASON#2026".to_owned(),
                _ => format!("SEASON#2026#{}", Shards::new(4, ShardRule::By("player")).of(player.as_bytes())),
            };
            let new = format!("SEASON#2026#{:02}", sixteen.of(player.as_bytes()));
            assert_eq!(
                migration.classify_item(Some(&pk), Some(&sk)).unwrap(),
                (Rekeyed::Move(sk.clone()), Some(new.clone()))
            );
            assert_eq!(migration.classify_item(Some(&new), Some(&sk)).unwrap(), (Rekeyed::Current, None));
        }
        assert_eq!(migration.classify_item(Some("ORDER#1"), Some("RUN#9000#p_1")).unwrap(), (Rekeyed::Other, None));
        assert_eq!(migration.classify_item(None, Some("RUN#9000#p_1")).unwrap(), (Rekeyed::Other, None));
        let pk = if old == "Unsharded" { "SEASON#2026" } else { "SEASON#2026#3" };
        let e = migration.classify_item(Some(pk), Some("PROFILE")).unwrap_err();
        assert!(matches!(&e.kind, MigrationErrorKind::NoShardField { field, .. } if *field == "player"), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot move the item of sort key `PROFILE` from `{old}` to `RunPk`: its new shard is calculated by \
                 the sort key's field `player`, expected a sort key layout with `player` that reads it; found none"
            )
        );
    }
    // The verdict counts and samples partition keys, audited against the partition layouts.
    let migration = DynMigration::new(entry("RunPk@v1"), entry("RunPk")).unwrap().reading_sort_keys(sorts());
    let partitions = lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Partition).cloned();
    let mut verdict = VerdictAudit::new(partitions);
    verdict.observe_item(&migration, Some("SEASON#2026#1"), Some("RUN#9000#p_1"));
    let home = format!("SEASON#2026#{:02}", sixteen.of(b"p_2"));
    verdict.observe_item(&migration, Some(&home), Some("RUN#9000#p_2"));
    let v = verdict.verdict();
    assert_eq!((v.read, v.in_old, v.in_new, v.complete), (2, 1, 1, false));
    // A key of the current layout under another shard than its sort key's is moved there too.
    let away = format!("SEASON#2026#{:02}", (sixteen.of(b"p_2") + 1) % 16);
    assert_eq!(
        migration.classify_item(Some(&away), Some("RUN#9000#p_2")).unwrap(),
        (Rekeyed::Move("RUN#9000#p_2".to_owned()), Some(home.clone()))
    );
    let to = format!("SEASON#2026#{:02}", sixteen.of(b"p_1"));
    assert_eq!((v.left_samples[0].from.as_str(), v.left_samples[0].to.as_str()), ("SEASON#2026#1", to.as_str()));
    assert_eq!(v.left_samples[0].sort.as_deref(), Some("RUN#9000#p_1"), "the sample names its item");
    // Several items of one old partition are several samples, each with its own new shard: the
    // least five by (partition key, sort key), the same whatever order the items come in.
    let items: Vec<(String, String)> = (0..40)
        .map(|i| {
            let player = format!("p_{i}");
            let pk = format!("SEASON#2026#{}", Shards::new(4, ShardRule::By("player")).of(player.as_bytes()));
            (pk, format!("RUN#9000#{player}"))
        })
        .collect();
    let samples = |order: &mut dyn Iterator<Item = &(String, String)>| {
        let mut verdict = VerdictAudit::new(lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Partition).cloned());
        for (pk, sk) in order {
            verdict.observe_item(&migration, Some(pk), Some(sk));
        }
        verdict.verdict().left_samples
    };
    let forward = samples(&mut items.iter());
    assert_eq!(forward, samples(&mut items.iter().rev()));
    let mut least = items.clone();
    least.sort();
    least.truncate(5);
    let got: Vec<(String, String, String)> =
        forward.iter().map(|s| (s.from.clone(), s.sort.clone().unwrap(), s.to.clone())).collect();
    let want: Vec<(String, String, String)> = least
        .into_iter()
        .map(|(pk, sk)| {
            let player = sk.rsplit('#').next().unwrap().to_owned();
            (pk, sk, format!("SEASON#2026#{:02}", sixteen.of(player.as_bytes())))
        })
        .collect();
    assert_eq!(got, want);
    let e = DynMigration::new(entry("RunSk"), entry("RunPk")).unwrap_err();
    assert_eq!(e.kind, MigrationErrorKind::Roles);
}

/// A layout reshaped (another width, `desc` on or off) is the layout its text would be, under
/// the same name, checked by the same rules; a path it lacks is an error naming both.
#[test]
fn a_reshaped_layout_is_the_layout_its_text_would_be() {
    use sortkey_core::{DynValue, ReshapeError};
    let lock = LockFile::parse("RankKey = RUN#{score:u64 width=10 desc}#{player:text}\n").unwrap();
    let layout = lock.get("RankKey").unwrap();
    let wider = layout.reshaped("score", 12, false).unwrap();
    assert_eq!(wider.to_string(), "RUN#{score:u64 width=12}#{player:text}");
    assert_eq!(wider.name, "RankKey");
    let value = layout.decode("RUN#9999998499#p_1").unwrap();
    assert_eq!(wider.encode(&value).unwrap(), "RUN#000000001500#p_1");
    assert_eq!(
        value,
        DynValue::Key(vec![("score", DynValue::Unsigned(1500)), ("player", DynValue::Text("p_1".into()))])
    );
    let e = layout.reshaped("points", 12, false).unwrap_err();
    assert!(matches!(&e, ReshapeError::NoField { layout: "RankKey", path } if path == "points"), "{e:?}");
    assert!(e.to_string().contains("`RankKey` has no field `points`"), "{e}");
    // Narrower: a value it cannot hold is the encoder's refusal, as for any layout.
    let narrow = layout.reshaped("score", 3, true).unwrap();
    assert!(narrow.encode(&value).unwrap_err().to_string().contains("1500"));
}

/// A number whose width the text does not write is its type's default width, as the derive
/// resolves it (20 digits for a `u64`, 11 for an `i32`): what its capacity says, what it writes
/// and reads.
#[test]
fn a_number_without_a_width_is_its_type_s_default_width() {
    use sortkey_core::DynValue;
    let layout = sortkey_core::DynLayout::parse("N#{n:u64}#{s:i32}").unwrap();
    let value = DynValue::Key(vec![("n", DynValue::Unsigned(1500)), ("s", DynValue::Signed(-7))]);
    let key = layout.encode(&value).unwrap();
    assert_eq!(key, format!("N#{:020}#-{}", 1500, "9999999992"));
    assert_eq!(layout.decode(&key).unwrap(), value);
    assert_eq!(
        layout
            .encode(&DynValue::Key(vec![("n", DynValue::Unsigned(u64::MAX.into())), ("s", DynValue::Signed(0))]))
            .unwrap()
            .len(),
        2 + 20 + 1 + 11
    );
    let n = &layout.field_paths()[0].1;
    assert_eq!(n.capacity().unwrap().to_string(), u64::MAX.to_string());
}

/// A layout's plan decodes and encodes as the layout does: the same values, keys and errors,
/// for keys of fields (nested keys, options, signed and text fields among them), families and
/// keys no layout reads; values out of order or wrong are the layout's to refuse.
#[test]
fn a_plan_reads_and_writes_as_its_layout() {
    use sortkey_core::DynValue;
    let lock = LockFile::parse(
        "RankKey = RUN#{score:u64 width=12 desc}#{at:i64 width=12}#{player:text}\n\
         Nested = N#{inner:key(A#{x:u16 width=5}#{y:option<u32> width=4})}#{tail:text}\n\
         Item = family(PROFILE | ORDER#{placed:u64 width=10 desc}#{id:text})\n\
         Bare = {n:u8 width=3}\n",
    )
    .unwrap();
    let keys = [
        "RUN#999999998499#-99999999957#p_1",
        "RUN#999999998499#000000000042#p_2",
        "RUN#99999999849#000000000042#p_2",
        "RUN#999999998499#000000000042",
        "N#A#00007#10012#t",
        "N#A#00007#0#t",
        "N#A#7#0#t",
        "PROFILE",
        "ORDER#8280899199#o-1",
        "ORDER#828089919#o-1",
        "007",
        "1000",
        "",
        "junk",
    ];
    let mut read = Vec::new();
    for (name, layout) in &lock.entries {
        let plan = layout.plan();
        for key in keys {
            let (by_layout, by_plan) = (layout.decode(key), plan.decode(key));
            assert_eq!(by_plan, by_layout, "{name} decoding {key:?}");
            if let Ok(value) = by_layout {
                read.push(key);
                assert_eq!(plan.encode(&value), layout.encode(&value), "{name} encoding {value:?}");
                if let DynValue::Key(fields) = &value {
                    let reversed = DynValue::Key(fields.iter().rev().cloned().collect());
                    assert_eq!(plan.encode(&reversed), layout.encode(&reversed), "{name} fields reversed");
                    let fewer = DynValue::Key(fields.iter().skip(1).cloned().collect());
                    assert_eq!(plan.encode(&fewer), layout.encode(&fewer), "{name} a field missing");
                }
            }
        }
        let wrong = DynValue::Key(vec![("score", DynValue::Signed(1))]);
        assert_eq!(plan.encode(&wrong), layout.encode(&wrong), "{name} a wrong value");
        let mut out = String::from("kept");
        let _ = plan.encode_into(&DynValue::Text("x".into()), &mut out);
        assert_eq!(out, "kept", "nothing written on an error");
    }
    read.sort_unstable();
    let expected = ["007", "N#A#00007#0#t", "N#A#00007#10012#t", "ORDER#8280899199#o-1", "PROFILE"];
    let mut expected: Vec<&str> = expected
        .into_iter()
        .chain(["RUN#999999998499#-99999999957#p_1", "RUN#999999998499#000000000042#p_2"])
        .collect();
    expected.sort_unstable();
    assert_eq!(read, expected, "the keys some layout reads");
}
