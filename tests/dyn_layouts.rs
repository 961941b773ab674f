//! Layouts you can run, step 1: the text every derived key type prints parses back into a
//! `DynLayout` that prints the same text; a text the grammar does not allow is an error at its
//! byte, never a panic (random and mutated texts, as the decoders are fuzzed); a lock file reads
//! into its named layouts.

use std::borrow::Cow;
use std::time::SystemTime;

use proptest::prelude::*;
use sortkey_core::chrono::{DateTime, Utc};
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;
use sortkey_core::{DynLayout, KeySegment, Layout, LockFile, SortKey};
use sortkey_tests::leaderboard::{RankKey, RankKeyV1};

#[derive(KeySegment, Debug, Clone, Copy, PartialEq)]
#[key(rename_all = "kebab-case")]
enum Status {
    Pending,
    ShipPending,
}

#[derive(SortKey)]
#[key(prefix = "I")]
struct Ints {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: usize,
    g: i8,
    h: i16,
    i: i32,
    j: i64,
    k: i128,
    l: isize,
    #[key(width = 4, desc, max = 5000)]
    m: u32,
    #[key(width = 5, desc)]
    n: i32,
}

#[derive(SortKey)]
struct Texts<'a> {
    flag: bool,
    letter: char,
    name: &'a str,
    cow: Cow<'a, str>,
    last: String,
}

#[derive(SortKey)]
#[key(prefix = "T", separator = '|')]
struct Times {
    #[key(unit = "ms", desc)]
    at: SystemTime,
    #[key(format = "rfc3339", unit = "us")]
    text: DateTime<Utc>,
    plain: Option<SystemTime>,
}

#[derive(SortKey)]
#[key(prefix = "F")]
struct Floats {
    #[key(format = "hex")]
    hex: f64,
    small: f32,
    #[key(scale = 2)]
    price: Decimal,
    last: f64,
}

#[derive(SortKey)]
#[key(prefix = "ID")]
struct Ids {
    id: Uuid,
    ulid: Ulid,
    status: Status,
    maybe: Option<Status>,
}

#[derive(SortKey)]
#[key(prefix = "C")]
struct Inner {
    #[key(width = 3)]
    id: u16,
}

#[derive(SortKey)]
#[key(prefix = "OUT")]
struct Outer {
    inner: Inner,
    opt: Option<Inner>,
    tail: String,
}

#[derive(SortKey)]
#[key(prefix = "CUST", partition, max_len = 100)]
struct Partition {
    customer_id: i32,
}

#[derive(SortKey)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 10, desc)]
    placed_at: u64,
    order_id: String,
}

#[derive(SortKey)]
#[key(prefix = "ADDR")]
struct AddressKey {
    #[key(width = 2)]
    n: u8,
}

#[derive(SortKey)]
enum Item {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Address(AddressKey),
}

#[derive(SortKey)]
#[key(prefix = "AUDIT")]
struct Audit {
    item: Item,
    #[key(width = 3)]
    revision: u16,
}

/// A hand-written key: its layout says its prefix and separator only.
struct Custom;

impl SortKey for Custom {
    const PREFIX: Option<&'static str> = Some("CUSTOM");
    const SEPARATOR: char = '#';
    const ENCODED_LEN: Option<usize> = None;
    const MAX_LEN: usize = 1024;

    fn encode_into(&self, out: &mut String) -> Result<(), sortkey_core::EncodeError> {
        out.push_str("CUSTOM#x");
        Ok(())
    }
}

/// Every layout of this file's and the leaderboard's key types: every field type, option and
/// family shape.
fn layouts() -> Vec<(&'static str, Layout)> {
    vec![
        ("Ints", Ints::LAYOUT),
        ("Texts", Texts::LAYOUT),
        ("Times", Times::LAYOUT),
        ("Floats", Floats::LAYOUT),
        ("Ids", Ids::LAYOUT),
        ("Inner", Inner::LAYOUT),
        ("Outer", Outer::LAYOUT),
        ("Partition", Partition::LAYOUT),
        ("OrderKey", OrderKey::LAYOUT),
        ("AddressKey", AddressKey::LAYOUT),
        ("Item", Item::LAYOUT),
        ("Audit", Audit::LAYOUT),
        ("Custom", Custom::LAYOUT),
        ("RankKey", RankKey::LAYOUT),
        ("RankKeyV1", RankKeyV1::LAYOUT),
    ]
}

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

#[derive(SortKey, Clone, Copy, Default)]
#[key(prefix = "CAP")]
struct Caps {
    a: u8,
    #[key(width = 2)]
    b: u8,
    #[key(width = 4, max = 5000)]
    c: u32,
    d: i8,
    #[key(width = 3)]
    e: i16,
    f: i128,
    g: u128,
    #[key(width = 5)]
    h: i64,
}

#[derive(SortKey)]
struct Stamps {
    #[key(unit = "ms", width = 13)]
    at: SystemTime,
    plain: SystemTime,
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

/// A derived type's decode, its value left out: whether and how it refuses a string.
type Derived = fn(&str) -> Result<(), sortkey_core::DecodeError>;

/// Valid keys of the derived types above, each with the derived type's decode: what the
/// decode law mutates.
fn samples() -> Vec<(String, Layout, Derived)> {
    fn check<K: for<'k> sortkey_core::DecodeKey<'k> + SortKey>(s: &str) -> Result<(), sortkey_core::DecodeError> {
        K::decode(s).map(drop)
    }
    let at = |s: u64| SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(s);
    let ints = Ints {
        a: 7,
        b: 65535,
        c: 0,
        d: u64::MAX,
        e: 1,
        f: 2,
        g: -8,
        h: 300,
        i: -1,
        j: i64::MIN,
        k: 5,
        l: -2,
        m: 4999,
        n: -42,
    };
    let times =
        Times { at: at(1_719_100_800_123), text: DateTime::from_timestamp(1_719_100_800, 0).unwrap(), plain: None };
    let floats = Floats { hex: -1.5, small: 0.25, price: Decimal::new(12345, 2), last: f64::MAX };
    let ids = Ids { id: Uuid::nil(), ulid: Ulid::from(42u128), status: Status::ShipPending, maybe: None };
    let outer = Outer { inner: Inner { id: 7 }, opt: Some(Inner { id: 999 }), tail: "t#x".into() };
    let order = || OrderKey { placed_at: 1_719_100_800, order_id: "o-1".into() };
    let keys: Vec<(String, Layout, Derived)> = vec![
        (ints.encode().unwrap(), Ints::LAYOUT, check::<Ints>),
        (times.encode().unwrap(), Times::LAYOUT, check::<Times>),
        (floats.encode().unwrap(), Floats::LAYOUT, check::<Floats>),
        (ids.encode().unwrap(), Ids::LAYOUT, check::<Ids>),
        (Inner { id: 12 }.encode().unwrap(), Inner::LAYOUT, check::<Inner>),
        (outer.encode().unwrap(), Outer::LAYOUT, check::<Outer>),
        (Partition { customer_id: -5 }.encode().unwrap(), Partition::LAYOUT, check::<Partition>),
        (order().encode().unwrap(), OrderKey::LAYOUT, check::<OrderKey>),
        (AddressKey { n: 3 }.encode().unwrap(), AddressKey::LAYOUT, check::<AddressKey>),
        (Item::Order(order()).encode().unwrap(), Item::LAYOUT, check::<Item>),
        (Item::Profile.encode().unwrap(), Item::LAYOUT, check::<Item>),
        (
            Audit { item: Item::Address(AddressKey { n: 9 }), revision: 2 }.encode().unwrap(),
            Audit::LAYOUT,
            check::<Audit>,
        ),
        (Caps { c: 5000, e: -99, ..Caps::default() }.encode().unwrap(), Caps::LAYOUT, check::<Caps>),
        (Stamps { at: at(5), plain: at(9_000) }.encode().unwrap(), Stamps::LAYOUT, check::<Stamps>),
        (RankKey { score: 1500, player: "p_8842".into() }.encode().unwrap(), RankKey::LAYOUT, check::<RankKey>),
        (RankKeyV1 { score: 15, player: "p".into() }.encode().unwrap(), RankKeyV1::LAYOUT, check::<RankKeyV1>),
    ];
    keys
}

/// `DynLayout::decode` refuses a string exactly when the derived type does, with the same kind,
/// field and byte offset.
fn same_verdict(
    layout: &Layout,
    derived: fn(&str) -> Result<(), sortkey_core::DecodeError>,
    s: &str,
) -> Result<(), TestCaseError> {
    let dynamic = DynLayout::parse(&layout.to_string()).unwrap();
    match (derived(s), dynamic.decode(s)) {
        (Ok(()), Ok(_)) => Ok(()),
        (Err(a), Err(b)) => {
            prop_assert_eq!(
                (a.kind(), a.offset(), a.field()),
                (b.kind(), b.offset(), b.field()),
                "{:?}: {} / {}",
                s,
                a,
                b
            );
            Ok(())
        }
        (a, b) => Err(TestCaseError::fail(format!("{s:?} ({layout}): derived {a:?}, dynamic {b:?}"))),
    }
}

#[test]
fn every_valid_key_decodes_through_its_layout() {
    for (key, layout, derived) in samples() {
        same_verdict(&layout, derived, &key).unwrap();
        DynLayout::parse(&layout.to_string()).unwrap().decode(&key).unwrap();
    }
    let rank = DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap();
    let value = rank.decode("RUN#999999998499#p_8842").unwrap();
    use sortkey_core::DynValue;
    assert_eq!(
        value,
        DynValue::Key(vec![
            ("score".into(), DynValue::Unsigned(1500)),
            ("player".into(), DynValue::Text("p_8842".into()))
        ])
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Mutated keys (a digit more or less, a changed separator or prefix, a truncation, a
    /// flipped bit) are refused by the layout exactly as by the derived type.
    #[test]
    fn decode_law_on_mutated_keys(which in 0..16usize, mutation in sortkey_tests::mutation('#'), pipe in sortkey_tests::mutation('|')) {
        let samples = samples();
        let (key, layout, derived) = &samples[which % samples.len()];
        let mutation = if layout.separator() == '|' { pipe } else { mutation };
        if let Some(mutated) = mutation.apply(key) {
            same_verdict(layout, *derived, &mutated)?;
        }
    }

    /// Arbitrary key-like strings too.
    #[test]
    fn decode_law_on_key_like_strings(which in 0..16usize, s in sortkey_tests::key_like('#', "RUN", "RUN#[0-9]{10,13}#[a-z_0-9]{0,6}")) {
        let samples = samples();
        let (_, layout, derived) = &samples[which % samples.len()];
        same_verdict(layout, *derived, &s)?;
    }
}
