//! The field types of issue 5 under the four properties of the README's "Format" and the query
//! law: unit enums (`#[derive(KeySegment)]`), nested keys, `Option<T>`, timestamps
//! (`SystemTime`, chrono, time; Unix time and RFC 3339), `Uuid` and `Ulid`, and borrowed text.
//!
//! Every property is checked against a model written out here (the order of the fields, the
//! byte order of enum names, `None` first), not against the encoder. The query law harness is
//! the one of `query_law.rs`, repeated so that each file stands alone.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::time::{Duration, SystemTime};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sortkey_core::chrono::{DateTime, Utc};
use sortkey_core::time::OffsetDateTime;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;
use sortkey_core::{DecodeError, DecodeKey, EncodeErrorKind, KeyCondition, KeySegment, QueryError, SortKey};
use sortkey_tests::law::{Call, Comparison, End, LawKey, check_law};
use sortkey_tests::{Domain, config, ends, key_like, mutation, text};

const CASES: u32 = 1000;

// ---- the key types.

/// An order's status. `ship` is a prefix of `shipped`, so their order in a non-final position
/// depends on the separator sorting below `p`; declaration order differs from name order.
#[derive(KeySegment, Debug, Clone, Copy, PartialEq, Eq)]
#[key(rename_all = "kebab-case")]
enum Status {
    Shipped,
    #[key(rename = "ship")]
    Ship,
    InTransit,
    Pending,
    #[key(rename = "Z~é")]
    Odd,
}

const STATUSES: [Status; 5] = [Status::Shipped, Status::Ship, Status::InTransit, Status::Pending, Status::Odd];

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Shipped => "shipped",
            Status::Ship => "ship",
            Status::InTransit => "in-transit",
            Status::Pending => "pending",
            Status::Odd => "Z~é",
        }
    }
}

/// A last-position enum with names a `|` key could not have before another field.
#[derive(KeySegment, Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    #[key(rename = "gold")]
    Gold,
    #[key(rename = "Gold")]
    GoldUpper,
    #[key(rename = "g")]
    G,
}

const TIERS: [Tier; 3] = [Tier::Gold, Tier::GoldUpper, Tier::G];

impl Tier {
    fn name(self) -> &'static str {
        match self {
            Tier::Gold => "gold",
            Tier::GoldUpper => "Gold",
            Tier::G => "g",
        }
    }
}

/// Orders: an enum, a descending millisecond timestamp, an optional non-final text, a ULID.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORD")]
struct Order {
    status: Status,
    #[key(unit = "ms", desc)]
    at: SystemTime,
    note: Option<String>,
    id: Ulid,
}

/// A key nested in others: a descending number and a text, which is final only when the
/// nested key's field is.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "IN")]
struct Inner {
    #[key(width = 2, desc)]
    a: u8,
    name: String,
}

/// Nested keys before other fields, inside an `Option`, and last.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "N")]
struct Nest {
    inner: Inner,
    opt: Option<Inner>,
    tail: Option<String>,
    last: Inner,
}

/// Separator `|`: RFC 3339 in two units, Unix microseconds at a narrow width, optional
/// timestamps, a UUID and a final enum.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "T", separator = '|')]
struct Times {
    #[key(format = "rfc3339", unit = "ms")]
    r: DateTime<Utc>,
    #[key(unit = "us", width = 17)]
    o: OffsetDateTime,
    s: Option<SystemTime>,
    #[key(format = "rfc3339", unit = "ns")]
    n: Option<SystemTime>,
    u: Uuid,
    tier: Tier,
}

/// Borrowed text, plain, in an `Option` and as `Cow`: decoding allocates nothing.
#[derive(SortKey, Debug, Clone, PartialEq)]
struct Bor<'a> {
    #[key(width = 3)]
    n: u16,
    a: Option<&'a str>,
    b: Cow<'a, str>,
    last: &'a str,
}

// ---- generators.

/// 9999-12-31T23:59:59.999999999Z.
const MAX_NANOS: u128 = 253_402_300_799_999_999_999;

/// Nanoseconds since the epoch in `0..=MAX_NANOS`, biased to the ends, to 2000-02-29, to now
/// and to 10^17 us (the limit of `Times::o`), then cut to a multiple of `unit`.
fn nanos(unit: u128, max: u128) -> BoxedStrategy<u128> {
    let edges = vec![0, 1, 951_782_400_000_000_000, 1_719_100_800_000_000_000, max, max - 1, MAX_NANOS];
    let edges: Vec<u128> = edges.into_iter().filter(|&n| n <= max).collect();
    prop_oneof![2 => prop::sample::select(edges), 2 => 0..=max, 1 => 0..=2_000_000_000_000_000_000u128]
        .prop_map(move |n| n.min(max) / unit * unit)
        .boxed()
}

fn system_time(n: u128) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::new((n / 1_000_000_000) as u64, (n % 1_000_000_000) as u32)
}

fn nanos_of(t: SystemTime) -> u128 {
    t.duration_since(SystemTime::UNIX_EPOCH).expect("after 1970").as_nanos()
}

fn chrono_time(n: u128) -> DateTime<Utc> {
    DateTime::from_timestamp((n / 1_000_000_000) as i64, (n % 1_000_000_000) as u32).expect("in range")
}

fn time_time(n: u128) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(n as i128).expect("in range")
}

/// 128-bit ids biased to 0, 1 and the largest.
fn id128() -> BoxedStrategy<u128> {
    prop_oneof![1 => prop::sample::select(vec![0, 1, u128::MAX, u128::MAX - 1]), 3 => any::<u128>()].boxed()
}

fn texts(separator: char, last: bool) -> BoxedStrategy<String> {
    text(separator, last, Domain::Valid, 4)
}

fn order() -> BoxedStrategy<Order> {
    (prop::sample::select(STATUSES.to_vec()), nanos(1_000_000, MAX_NANOS), prop::option::of(texts('#', false)), id128())
        .prop_map(|(status, at, note, id)| Order { status, at: system_time(at), note, id: Ulid(id) })
        .boxed()
}

fn inner(last: bool) -> BoxedStrategy<Inner> {
    (prop::sample::select(vec![0u8, 1, 98, 99, 42]), texts('#', last)).prop_map(|(a, name)| Inner { a, name }).boxed()
}

fn nest() -> BoxedStrategy<Nest> {
    (inner(false), prop::option::of(inner(false)), prop::option::of(texts('#', false)), inner(true))
        .prop_map(|(inner, opt, tail, last)| Nest { inner, opt, tail, last })
        .boxed()
}

fn times() -> BoxedStrategy<Times> {
    let s = prop::option::of(nanos(1_000_000_000, MAX_NANOS).prop_map(system_time));
    let n = prop::option::of(nanos(1, MAX_NANOS).prop_map(system_time));
    let o = nanos(1_000, 100_000_000_000_000_000_000 - 1_000).prop_map(time_time);
    (nanos(1_000_000, MAX_NANOS).prop_map(chrono_time), o, s, n, id128(), prop::sample::select(TIERS.to_vec()))
        .prop_map(|(r, o, s, n, u, tier)| Times { r, o, s, n, u: Uuid::from_u128(u), tier })
        .boxed()
}

/// A borrowed key over leaked text, so that the strategy can hand it out.
fn bor() -> BoxedStrategy<Bor<'static>> {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    (0..1000u16, prop::option::of(texts('#', false)), texts('#', false), texts('#', true))
        .prop_map(move |(n, a, b, last)| Bor { n, a: a.map(leak), b: Cow::Borrowed(leak(b)), last: leak(last) })
        .boxed()
}

/// Two values, equal in their leading fields often, by drawing the second from the first.
fn pair<T: Clone + Debug + 'static>(values: BoxedStrategy<T>, mix: fn(&T, &T, u8) -> T) -> BoxedStrategy<(T, T)> {
    (values.clone(), values, any::<u8>()).prop_map(move |(a, b, k)| (a.clone(), mix(&a, &b, k))).boxed()
}

// ---- the models.

fn opt_cmp<T>(a: &Option<T>, b: &Option<T>, cmp: impl Fn(&T, &T) -> Ordering) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => cmp(a, b),
    }
}

fn bytes(a: &str, b: &str) -> Ordering {
    a.as_bytes().cmp(b.as_bytes())
}

fn inner_cmp(x: &Inner, y: &Inner) -> Ordering {
    y.a.cmp(&x.a).then_with(|| bytes(&x.name, &y.name))
}

/// What the properties need of a key type besides its derive.
trait Model: SortKey + Clone + Debug + PartialEq + Sized {
    const N: usize;
    /// Field `i` against field `i`, in the field's own ascending order.
    fn cmp_field(&self, other: &Self, i: usize) -> Ordering;
    /// Whether field `i` is `desc`.
    fn desc(_i: usize) -> bool {
        false
    }
    /// Field names decode errors may name: the type's and its nested keys'.
    const NAMES: &'static [&'static str];
    fn decode_owned(key: &str) -> Result<Self, DecodeError>;
    /// Field by field, `desc` reversed.
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (0..Self::N)
            .map(|i| if Self::desc(i) { other.cmp_field(self, i) } else { self.cmp_field(other, i) })
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }
}

impl Model for Order {
    const N: usize = 4;
    const NAMES: &'static [&'static str] = &["status", "at", "note", "id"];
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => bytes(self.status.name(), o.status.name()),
            1 => self.at.cmp(&o.at),
            2 => opt_cmp(&self.note, &o.note, |a, b| bytes(a, b)),
            _ => self.id.cmp(&o.id),
        }
    }
    fn desc(i: usize) -> bool {
        i == 1
    }
    fn decode_owned(key: &str) -> Result<Self, DecodeError> {
        Self::decode(key)
    }
}

impl Model for Nest {
    const N: usize = 4;
    const NAMES: &'static [&'static str] = &["inner", "opt", "tail", "last", "a", "name"];
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => inner_cmp(&self.inner, &o.inner),
            1 => opt_cmp(&self.opt, &o.opt, inner_cmp),
            2 => opt_cmp(&self.tail, &o.tail, |a, b| bytes(a, b)),
            _ => inner_cmp(&self.last, &o.last),
        }
    }
    fn decode_owned(key: &str) -> Result<Self, DecodeError> {
        Self::decode(key)
    }
}

impl Model for Times {
    const N: usize = 6;
    const NAMES: &'static [&'static str] = &["r", "o", "s", "n", "u", "tier"];
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => self.r.cmp(&o.r),
            1 => self.o.cmp(&o.o),
            2 => self.s.cmp(&o.s),
            3 => self.n.cmp(&o.n),
            4 => self.u.cmp(&o.u),
            _ => bytes(self.tier.name(), o.tier.name()),
        }
    }
    fn decode_owned(key: &str) -> Result<Self, DecodeError> {
        Self::decode(key)
    }
}

impl Model for Bor<'static> {
    const N: usize = 4;
    const NAMES: &'static [&'static str] = &["n", "a", "b", "last"];
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => self.n.cmp(&o.n),
            1 => opt_cmp(&self.a, &o.a, |a, b| bytes(a, b)),
            2 => bytes(&self.b, &o.b),
            _ => bytes(self.last, o.last),
        }
    }
    fn decode_owned(key: &str) -> Result<Self, DecodeError> {
        let key: &'static str = Box::leak(key.to_owned().into_boxed_str());
        Bor::decode_borrowed(key)
    }
}

// ---- the properties.

fn round_trip<T: Model>(x: &T) -> Result<(), TestCaseError> {
    let key = x.encode()?;
    prop_assert_eq!(&T::decode_owned(&key)?, x, "key {:?}", key);
    if let Some(len) = T::ENCODED_LEN {
        prop_assert_eq!(key.len(), len);
    }
    Ok(())
}

fn order_law<T: Model>(x: &T, y: &T) -> Result<(), TestCaseError> {
    let (kx, ky) = (x.encode()?, y.encode()?);
    prop_assert_eq!(x.reference_cmp(y), kx.as_bytes().cmp(ky.as_bytes()), "{:?} vs {:?}: {:?} vs {:?}", x, y, kx, ky);
    Ok(())
}

/// A string that decodes is the key of its value; one that does not gets an error inside it
/// that names a real field. A panic fails the property.
fn canonical<T: Model>(key: &str) -> Result<(), TestCaseError> {
    match T::decode_owned(key) {
        Ok(v) => prop_assert_eq!(v.encode()?, key, "decoded as {:?}", v),
        Err(e) => {
            prop_assert!(e.offset() <= key.len(), "{}", e);
            prop_assert!(e.field().is_none_or(|f| T::NAMES.contains(&f)), "{} names no field", e);
        }
    }
    Ok(())
}

fn canonical_mutations<T: Model>(x: &T, edits: &[sortkey_tests::Mutation]) -> Result<(), TestCaseError> {
    let mut key = x.encode()?;
    for edit in edits {
        if let Some(next) = edit.apply(&key) {
            canonical::<T>(&next)?;
            key = next;
        }
    }
    Ok(())
}

macro_rules! properties {
    ($($module:ident: $t:ty = $gen:expr, mix $mix:expr, separator $sep:literal, prefix $prefix:literal, grammar $grammar:literal;)*) => {$(
        mod $module {
            use super::*;

            fn pairs() -> BoxedStrategy<($t, $t)> {
                pair($gen, $mix)
            }

            proptest! {
                #![proptest_config(config(CASES))]

                #[test]
                fn round_trip_holds(x in $gen) {
                    round_trip(&x)?;
                }

                #[test]
                fn byte_order_is_field_order((x, y) in pairs()) {
                    order_law(&x, &y)?;
                }

                #[test]
                fn mutated_keys_decode_canonically_or_not_at_all(
                    x in $gen,
                    edits in prop::collection::vec(mutation($sep), 1..4),
                ) {
                    canonical_mutations(&x, &edits)?;
                }

                #[test]
                fn arbitrary_strings_decode_canonically_or_not_at_all(s in key_like($sep, $prefix, $grammar)) {
                    canonical::<$t>(&s)?;
                }
            }
        }
    )*};
}

properties! {
    order_key: Order = order(), mix |a, b, k| match k % 4 {
        0 => b.clone(),
        1 => Order { status: a.status, ..b.clone() },
        2 => Order { status: a.status, at: a.at, ..b.clone() },
        _ => Order { id: b.id, ..a.clone() },
    }, separator '#', prefix "ORD",
        grammar "ORD#(shipped|ship|in-transit|pending|Z~é|x)#[0-9]{13,16}#(0|1[a-z$~]{0,3})#[0-9A-Z]{25,27}";
    nest_key: Nest = nest(), mix |a, b, k| match k % 4 {
        0 => b.clone(),
        1 => Nest { inner: a.inner.clone(), ..b.clone() },
        2 => Nest { inner: a.inner.clone(), opt: a.opt.clone(), ..b.clone() },
        _ => Nest { last: Inner { a: a.last.a, ..b.last.clone() }, ..a.clone() },
    }, separator '#', prefix "N",
        grammar "N#IN#[0-9]{2}#[a-z$]{0,2}#(0|1IN#[0-9]{2}#[a-z]{0,2})#(0|1[a-z]{0,2})#IN#[0-9]{2}#.{0,3}";
    times_key: Times = times(), mix |a, b, k| match k % 4 {
        0 => b.clone(),
        1 => Times { r: a.r, o: a.o, ..b.clone() },
        2 => Times { r: a.r, o: a.o, s: a.s, n: a.n, ..b.clone() },
        _ => Times { tier: b.tier, ..a.clone() },
    }, separator '|', prefix "T",
        grammar "T\\|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z\\|[0-9]{17}\\|(0|1[0-9]{12})\\|(0|1[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{9}Z)\\|[0-9a-fA-F-]{36}\\|(gold|Gold|g|G)";
    bor_key: Bor<'static> = bor(), mix |a, b, k| match k % 3 {
        0 => b.clone(),
        1 => Bor { n: a.n, a: a.a, ..b.clone() },
        _ => Bor { last: b.last, ..a.clone() },
    }, separator '#', prefix "",
        grammar "[0-9]{3}#(0|1[a-z$]{0,2})#[a-z$]{0,2}#.{0,3}";
}

// ---- properties of single types outside the valid domain.

proptest! {
    #![proptest_config(config(CASES))]

    /// Precision below the unit is cut toward the past: the key of `t` is the key of `t`
    /// truncated, and the order is kept (never reversed).
    #[test]
    fn timestamps_truncate_toward_the_past(a in nanos(1, MAX_NANOS), b in nanos(1, MAX_NANOS), id in id128()) {
        let key = |n: u128| Order { status: Status::Pending, at: system_time(n), note: None, id: Ulid(id) };
        let (ka, kb) = (key(a).encode()?, key(b).encode()?);
        prop_assert_eq!(&ka, &key(a / 1_000_000 * 1_000_000).encode()?);
        let back = Order::decode(&ka)?;
        prop_assert_eq!(nanos_of(back.at), a / 1_000_000 * 1_000_000);
        // `at` is desc: a later time never sorts first.
        if a <= b {
            prop_assert!(ka >= kb, "{} <= {} but {:?} < {:?}", a, b, ka, kb);
        }
    }

    /// Outside 1970..=9999, or beyond a narrow width, a timestamp is an error of its field.
    #[test]
    fn timestamps_out_of_range_are_errors(before in 1u64..=1 << 40, after in 0u128..1 << 60) {
        let t = Order { status: Status::Pending, at: SystemTime::UNIX_EPOCH - Duration::from_nanos(before), note: None, id: Ulid(0) };
        let e = t.encode().unwrap_err();
        prop_assert_eq!(e.field(), Some("at"));
        prop_assert!(matches!(e.kind(), EncodeErrorKind::OutOfRange { .. }), "{:?}", e);
        let late = system_time(MAX_NANOS + 1 + after);
        let e = Order { at: late, ..t.clone() }.encode().unwrap_err();
        prop_assert_eq!(e.field(), Some("at"));
        let x = Times {
            r: chrono_time(0), o: time_time(100_000_000_000_000_000_000 + after), s: None, n: None,
            u: Uuid::nil(), tier: Tier::G,
        };
        let e = x.encode().unwrap_err();
        prop_assert_eq!(e.field(), Some("o"));
        prop_assert!(matches!(e.kind(), EncodeErrorKind::TooWide { width: 17, .. }), "{:?}", e);
    }

    /// Decoding borrows every text field from the key.
    #[test]
    fn borrowed_fields_point_into_the_key(x in bor()) {
        let key = x.encode()?;
        let k = Bor::decode_borrowed(&key)?;
        let within = |s: &str| key.as_ptr() as usize <= s.as_ptr() as usize
            && s.as_ptr() as usize + s.len() <= key.as_ptr() as usize + key.len();
        prop_assert!(within(k.last) && within(&k.b) && k.a.is_none_or(within));
        prop_assert!(matches!(k.b, Cow::Borrowed(_)));
    }

    /// A non-final nested key's last text obeys the non-final rule; the error names its field.
    #[test]
    fn nested_non_final_text_is_checked(x in nest(), bad in sortkey_tests::forbidden_text('#')) {
        let e = Nest { inner: Inner { name: bad.clone(), ..x.inner.clone() }, ..x.clone() }.encode().unwrap_err();
        prop_assert_eq!((e.key(), e.field()), ("Inner", Some("name")));
        let ok = Nest { last: Inner { name: bad, ..x.last.clone() }, ..x };
        round_trip(&ok)?;
    }
}

// ---- fixed examples: the documented encodings.

#[test]
fn documented_encodings() {
    let t = system_time(1_719_100_800_123_456_789);
    let o = Order { status: Status::InTransit, at: t, note: None, id: Ulid(0) };
    assert_eq!(o.encode().unwrap(), "ORD#in-transit#998280899199876#0#00000000000000000000000000");
    let o = Order { note: Some("gift".into()), ..o };
    assert!(o.encode().unwrap().contains("#1gift#"));
    let n = Nest {
        inner: Inner { a: 3, name: "x".into() },
        opt: None,
        tail: Some(String::new()),
        last: Inner { a: 0, name: "a#b c".into() },
    };
    assert_eq!(n.encode().unwrap(), "N#IN#96#x#0#1#IN#99#a#b c");
    let x = Times {
        r: chrono_time(1_719_100_800_123_000_000),
        o: time_time(1_719_100_800_123_456_000),
        s: Some(system_time(1_719_100_800_000_000_000)),
        n: None,
        u: Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        tier: Tier::GoldUpper,
    };
    assert_eq!(
        x.encode().unwrap(),
        "T|2024-06-23T00:00:00.123Z|01719100800123456|1001719100800|0|67e55044-10b1-426f-9247-bb680e5fe0c8|Gold"
    );
    assert_eq!(Times::ENCODED_LEN, None, "options and enums vary in length");
    assert_eq!(<Inner as KeySegment>::CAPABILITIES.nested_separator(), Some('#'));
}

#[test]
fn decode_errors_name_the_field_and_say_expected_and_found() {
    let e = Order::decode("ORD#lost#998280899199876#0#00000000000000000000000000").unwrap_err();
    assert_eq!((e.field(), e.offset(), e.found()), (Some("status"), 4, "\"lost\""));
    assert!(e.expected().contains("\"ship\""), "{e}");
    let e = Order::decode("ORD#ship#998280899199876#2#00000000000000000000000000").unwrap_err();
    assert_eq!(e.field(), Some("note"));
    let e = Order::decode("ORD#ship#998280899199876#0#8ZZZZZZZZZZZZZZZZZZZZZZZZZ").unwrap_err();
    assert_eq!(e.field(), Some("id"));
    let key = "T|2024-02-30T00:00:00.123Z|01719100800123456|0|0|67e55044-10b1-426f-9247-bb680e5fe0c8|g";
    let e = Times::decode(key).unwrap_err();
    assert_eq!((e.field(), e.offset()), (Some("r"), 2));
    let e = Times::decode(&key.replace("02-30", "02-29").replace("67e5", "67E5")).unwrap_err();
    assert_eq!(e.field(), Some("u"));
    assert!(Times::decode(&key.replace("02-30", "02-29")).is_ok());
}

// ---- the query law (README, "Queries"), with the harness of query_law.rs.

/// A call whose templates are drawn from the keys (so that equalities happen) or fresh.
fn call<T: LawKey + 'static>(fresh: BoxedStrategy<T>, keys: Vec<T>) -> impl Strategy<Value = Call<T>> {
    let template = prop_oneof![3 => prop::sample::select(keys), 1 => fresh].boxed();
    let ops = prop::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    (0..=T::N, template.clone(), template.clone(), template, ops, 0..3usize).prop_map(|(k, fixed, a, b, op, kind)| {
        let end = match (k == T::N, kind) {
            (true, 0) => End::Eq,
            (true, _) | (false, 0) => End::BeginsWith,
            (false, 1) => End::Cmp(op, a),
            (false, _) => End::Between(a, b),
        };
        Call { k, fixed, end }
    })
}

fn case<T: LawKey + 'static>(fresh: BoxedStrategy<T>) -> impl Strategy<Value = (Vec<T>, Call<T>)> {
    prop::collection::vec(fresh.clone(), 1..30)
        .prop_flat_map(move |keys| (Just(keys.clone()), call(fresh.clone(), keys)))
}

impl LawKey for Order {
    const N: usize = <Self as Model>::N;
    const HAS_PREFIX: bool = true;
    fn cmp_field(&self, other: &Self, i: usize) -> Ordering {
        Model::cmp_field(self, other, i)
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Order::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.status, status_range),
            1 => ends!(q.status(f.status), c, |t| t.at, at_range),
            2 => ends!(q.status(f.status).at(f.at), c, |t| t.note.clone(), note_range),
            3 => ends!(q.status(f.status).at(f.at).note(f.note.clone()), c, |t| t.id, id_range),
            _ => {
                let q = q.status(f.status).at(f.at).note(f.note.clone()).id(f.id);
                if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
            }
        }
    }
}

impl LawKey for Nest {
    const N: usize = <Self as Model>::N;
    const HAS_PREFIX: bool = true;
    fn cmp_field(&self, other: &Self, i: usize) -> Ordering {
        Model::cmp_field(self, other, i)
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Nest::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.inner.clone(), inner_range),
            1 => ends!(q.inner(f.inner.clone()), c, |t| t.opt.clone(), opt_range),
            2 => ends!(q.inner(f.inner.clone()).opt(f.opt.clone()), c, |t| t.tail.clone(), tail_range),
            3 => ends!(
                q.inner(f.inner.clone()).opt(f.opt.clone()).tail(f.tail.clone()),
                c,
                |t| t.last.clone(),
                last_range
            ),
            _ => {
                let q = q.inner(f.inner.clone()).opt(f.opt.clone()).tail(f.tail.clone()).last(f.last.clone());
                if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
            }
        }
    }
}

impl LawKey for Times {
    const N: usize = <Self as Model>::N;
    const HAS_PREFIX: bool = true;
    fn cmp_field(&self, other: &Self, i: usize) -> Ordering {
        Model::cmp_field(self, other, i)
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Times::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.r, r_range),
            1 => ends!(q.r(f.r), c, |t| t.o, o_range),
            2 => ends!(q.r(f.r).o(f.o), c, |t| t.s, s_range),
            3 => ends!(q.r(f.r).o(f.o).s(f.s), c, |t| t.n, n_range),
            4 => ends!(q.r(f.r).o(f.o).s(f.s).n(f.n), c, |t| t.u, u_range),
            5 => ends!(q.r(f.r).o(f.o).s(f.s).n(f.n).u(f.u), c, |t| t.tier, tier_range),
            _ => {
                let q = q.r(f.r).o(f.o).s(f.s).n(f.n).u(f.u).tier(f.tier);
                if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn law_order((keys, call) in case(order())) {
        check_law(&call, &keys)?;
    }

    #[test]
    fn law_nest((keys, call) in case(nest())) {
        check_law(&call, &keys)?;
    }

    #[test]
    fn law_times((keys, call) in case(times())) {
        check_law(&call, &keys)?;
    }
}

/// The query of the orders example: shipped orders of the last 30 days, newest first.
#[test]
fn recent_shipped_orders_query() {
    let now = system_time(1_719_100_800_000_000_000);
    let since = now - Duration::from_secs(30 * 86_400);
    let c = Order::query().status(Status::Shipped).at_range().gte(since).unwrap();
    let key = |status, at| Order { status, at, note: None, id: Ulid(7) }.encode().unwrap();
    assert!(c.matches(&key(Status::Shipped, now)));
    assert!(c.matches(&key(Status::Shipped, since)));
    assert!(!c.matches(&key(Status::Shipped, since - Duration::from_millis(1))));
    assert!(!c.matches(&key(Status::Ship, now)), "`ship` is a prefix of `shipped` but another status");
}

/// The enum derive names nothing the user's scope can change.
mod hygiene {
    #![no_implicit_prelude]
    #![deny(warnings, unused_qualifications)]
    #![allow(dead_code)]

    struct Result;
    struct Option;
    struct Ok;
    struct String;
    mod core {}
    mod std {}
    mod sortkey_core {}

    #[derive(::sortkey_core::KeySegment, ::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
    #[key(rename_all = "SCREAMING_SNAKE_CASE")]
    pub(crate) enum Level {
        Low,
        VeryHigh,
    }

    #[derive(::sortkey_core::SortKey, ::core::fmt::Debug)]
    pub(crate) struct Leveled {
        pub(crate) level: Level,
        pub(crate) at: ::core::option::Option<::std::time::SystemTime>,
    }
}

#[test]
fn rename_all_and_hygiene() {
    let k = hygiene::Leveled { level: hygiene::Level::VeryHigh, at: None };
    assert_eq!(k.encode().unwrap(), "VERY_HIGH#0");
}

/// A timestamp type of the user's, in nanoseconds, that declares `SegmentOptions::Time` and so
/// takes `unit` as the built-in timestamps do, reading it from its `Field`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Nanos(u64);

impl KeySegment for Nanos {
    const WIDTH: sortkey_core::Width = sortkey_core::Width::Digits { default: 20, min: 1, max: 20, signed: false };
    const CAPABILITIES: sortkey_core::Capabilities =
        sortkey_core::Capabilities::PLAIN.with_options(sortkey_core::SegmentOptions::Time);

    fn encode_segment(&self, field: &sortkey_core::Field, out: &mut String) -> Result<(), sortkey_core::EncodeError> {
        let units = u128::from(self.0) / field.time_unit().nanos();
        out.push_str(&format!("{units:0width$}", width = field.width() as usize));
        Ok(())
    }
}

impl<'k> sortkey_core::DecodeSegment<'k> for Nanos {
    fn decode_segment(cursor: &mut sortkey_core::Cursor<'k>, field: &sortkey_core::Field) -> Result<Self, DecodeError> {
        let digits = cursor.take_digits(field.width() as usize, field)?;
        let units = digits.iter().fold(0u128, |n, d| n * 10 + u128::from(d - b'0'));
        Ok(Nanos((units * field.time_unit().nanos()) as u64))
    }
}

#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "TICK")]
struct Tick {
    #[key(unit = "ms", width = 13)]
    at: Nanos,
}

#[test]
fn a_segment_type_of_the_users_takes_unit_through_its_capabilities() {
    let t = Tick { at: Nanos(1_719_100_800_123_000_000) };
    assert_eq!(t.encode().unwrap(), "TICK#1719100800123");
    assert_eq!(Tick::decode("TICK#1719100800123").unwrap(), t);
    assert_eq!(<Nanos as KeySegment>::CAPABILITIES.options(), sortkey_core::SegmentOptions::Time);
}
