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
