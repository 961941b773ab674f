//! Layouts you can run, the values: a key read and written through its layout text alone
//! (`DynLayout::decode`, `DynLayout::encode`) is read and written exactly as the derived type
//! reads and writes it. For every sample type and random values: the same key or the same error
//! kind and field; decoding gives the value's fields; encoding a decoded key gives the key back;
//! strings the derived type refuses (mutated keys, key-like strings) are refused with the same
//! kind, field and byte offset.

use proptest::prelude::*;
use sortkey_core::{DecodeKey, DynLayout, DynValue, SortKey};
use sortkey_tests::leaderboard::RankKey;
use std::time::{Duration, SystemTime};

use sortkey_core::chrono::DateTime;
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;
use sortkey_tests::samples::*;
use sortkey_tests::{Domain, text};

/// `DynLayout::decode` refuses a string exactly when the derived type does, with the same kind,
/// field and byte offset.
fn same_verdict(layout: &sortkey_core::Layout, derived: Derived, s: &str) -> Result<(), TestCaseError> {
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
    assert_eq!(
        value,
        DynValue::Key(vec![("score", DynValue::Unsigned(1500)), ("player", DynValue::Text("p_8842".into()))])
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

/// The law of one value: the layout encodes it as the derived type does (the same key, or the
/// same error kind and field); the key decodes through the layout to the fields the derived
/// type decodes (which are the value's), and encodes back to itself. `derived` is the derived
/// type's decode of a key: whether it gave back `k`, and its value's fields.
fn same_encoding<K>(k: &K, derived: impl FnOnce(&str) -> (bool, DynValue)) -> Result<(), TestCaseError>
where
    K: SortKey + ToDyn + std::fmt::Debug,
{
    let layout = DynLayout::parse(&K::LAYOUT.to_string()).unwrap();
    // The same layout written by hand, every default width left out, writes the same keys.
    let terse = DynLayout::parse(&sortkey_tests::texts::terse(&layout)).unwrap();
    match (k.encode(), layout.encode(&k.to_dyn())) {
        (Ok(key), Ok(dynamic)) => {
            prop_assert_eq!(&dynamic, &key, "{:?}", k);
            prop_assert_eq!(terse.encode(&k.to_dyn()), Ok(key.clone()), "{}", terse);
            prop_assert_eq!(terse.decode(&key), layout.decode(&key), "{}", terse);
            let (same, fields) = derived(&key);
            prop_assert!(same, "{:?} does not decode to itself from {}", k, key);
            let decoded = layout.decode(&key).unwrap();
            prop_assert_eq!(&decoded, &fields, "{}", key);
            let again = layout.encode(&decoded);
            prop_assert_eq!(again.as_deref(), Ok(key.as_str()));
            let json = serde_json::to_string(&decoded).unwrap();
            let read = from_json(&layout, &json);
            prop_assert_eq!(read.as_ref(), Ok(&decoded), "{}", json);
        }
        (Err(a), Err(b)) => {
            prop_assert_eq!((a.kind(), a.field()), (b.kind(), b.field()), "{:?}: {} / {}", k, a, b);
            let c = terse.encode(&k.to_dyn()).unwrap_err();
            prop_assert_eq!((a.kind(), a.field()), (c.kind(), c.field()), "{}", terse);
        }
        (a, b) => prop_assert!(false, "{:?} ({}): derived {:?}, dynamic {:?}", k, K::LAYOUT, a, b),
    }
    Ok(())
}

/// A value of `layout` read from JSON.
fn from_json(layout: &DynLayout, json: &str) -> Result<DynValue, String> {
    use serde::de::DeserializeSeed;
    layout.value_seed().deserialize(&mut serde_json::Deserializer::from_str(json)).map_err(|e| e.to_string())
}

/// The law of a type that owns its fields.
fn law<K>(k: &K) -> Result<(), TestCaseError>
where
    K: SortKey + ToDyn + PartialEq + std::fmt::Debug + for<'k> DecodeKey<'k>,
{
    same_encoding(k, |key| {
        let back = K::decode(key).unwrap();
        (back == *k, back.to_dyn())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn encode_law_ints(k in ints(), c in caps()) {
        law(&k)?;
        law(&c)?;
    }

    #[test]
    fn encode_law_texts((flag, letter, name, cow, last) in texts()) {
        let k = Texts { flag, letter, name: &name, cow: cow.into(), last };
        same_encoding(&k, |key| {
            let back = Texts::decode_borrowed(key).unwrap();
            (back == k, back.to_dyn())
        })?;
    }

    #[test]
    fn encode_law_times_and_floats(t in times(), f in floats(), at in instant(1_000_000), plain in instant(1_000_000_000)) {
        law(&t)?;
        law(&f)?;
        law(&Stamps { at, plain })?;
    }

    #[test]
    fn encode_law_ids_and_nested(i in ids(), o in outers(), customer_id in any::<i32>()) {
        law(&i)?;
        law(&o)?;
        law(&Partition { customer_id })?;
    }

    #[test]
    fn encode_law_families(item in items(), revision in int(0..1200u16, vec![999, 1000]), score in any::<u64>(), player in text('#', true, Domain::Any, 4)) {
        law(&item)?;
        law(&Audit { item, revision })?;
        law(&RankKey { score, player })?;
    }
}

/// The fields of a value in any order write the same key as in the layout's order (a decode's
/// value takes the fast way, by place; any other by name).
#[test]
fn a_value_s_fields_in_any_order_write_the_same_key() {
    let rank = DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap();
    let in_order = rank.decode(&RankKey { score: 1500, player: "p_1".into() }.encode().unwrap()).unwrap();
    let DynValue::Key(fields) = &in_order else { panic!("a key's value: {in_order:?}") };
    let reversed = DynValue::Key(fields.iter().rev().cloned().collect());
    assert_eq!(rank.encode(&reversed).unwrap(), rank.encode(&in_order).unwrap());
    // Names that are not the layout's own copies (written by hand) are matched by their text.
    let by_hand = DynValue::Key(vec![("score", DynValue::Unsigned(1500)), ("player", DynValue::Text("p_1".into()))]);
    assert_eq!(rank.encode(&by_hand).unwrap(), rank.encode(&in_order).unwrap());
}

/// A value the layout does not describe is refused with `Mismatch`, naming the field, the
/// expected and what was found; nothing of it is written.
#[test]
fn a_value_the_layout_does_not_describe_is_a_mismatch() {
    use sortkey_core::EncodeErrorKind;
    let rank = DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap();
    let field = |name: &'static str, v: DynValue| (name, v);
    let cases = [
        (DynValue::Key(vec![field("score", DynValue::Unsigned(1))]), Some("player"), "one value for the field"),
        (
            DynValue::Key(vec![
                field("score", DynValue::Unsigned(1)),
                field("player", DynValue::Text("p".into())),
                field("extra", DynValue::Bool(true)),
            ]),
            None,
            "only the layout's fields score, player",
        ),
        (
            DynValue::Key(vec![field("score", DynValue::Signed(1)), field("player", DynValue::Text("p".into()))]),
            Some("score"),
            "a `u64` value",
        ),
        (
            DynValue::Key(vec![
                field("score", DynValue::Unsigned(1 << 64)),
                field("player", DynValue::Text("p".into())),
            ]),
            Some("score"),
            "a `u64` value",
        ),
        (DynValue::Text("RUN#1".into()), None, "a key's fields"),
        (
            // As many values as fields, but not the layout's: found by name, not by place.
            DynValue::Key(vec![field("score", DynValue::Unsigned(1)), field("points", DynValue::Text("p".into()))]),
            None,
            "only the layout's fields score, player",
        ),
        (
            DynValue::Key(vec![
                field("score", DynValue::Unsigned(1)),
                field("score", DynValue::Unsigned(2)),
                field("player", DynValue::Text("p".into())),
            ]),
            Some("score"),
            "one value for the field",
        ),
    ];
    for (value, name, expected) in cases {
        let mut out = String::from("kept");
        let e = rank.encode_into(&value, &mut out).unwrap_err();
        assert_eq!(out, "kept");
        assert_eq!(e.field(), name, "{e}");
        let EncodeErrorKind::Mismatch { expected: said, .. } = e.kind() else { panic!("{e}") };
        assert!(said.starts_with(expected), "{e}");
    }
    let item = DynLayout::parse(&Item::LAYOUT.to_string()).unwrap();
    let e = item.encode(&DynValue::Variant("ORDER".into(), None)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot encode `DynLayout`: expected one of the variants \"PROFILE\", \"ORDER\" with its key, \"ADDR\" with its \
         key, found a family variant (Variant(\"ORDER\", None))"
    );
    assert_eq!(item.encode(&DynValue::Variant("PROFILE".into(), None)).unwrap(), "PROFILE");
}

/// The JSON of a value: an object of field name to value, integers beyond 2^53 as strings,
/// infinities as text, options as `null` or the value, timestamps as RFC 3339, a family's unit
/// variant as its literal and a keyed one as an object of one entry.
#[test]
fn values_map_to_json_and_back() {
    let cases: Vec<(String, &str)> = vec![
        (
            Ints {
                a: 1,
                b: 2,
                c: 3,
                d: u64::MAX,
                e: 1 << 53,
                f: 0,
                g: -1,
                h: 0,
                i: 0,
                j: i64::MIN,
                k: 0,
                l: 0,
                m: 7,
                n: -7,
            }
            .encode()
            .unwrap(),
            r#"{"a":1,"b":2,"c":3,"d":"18446744073709551615","e":9007199254740992,"f":0,"g":-1,"h":0,"i":0,"j":"-9223372036854775808","k":0,"l":0,"m":7,"n":-7}"#,
        ),
        (
            Floats { hex: f64::NEG_INFINITY, small: 0.1, price: Decimal::new(-12345, 2), last: -0.0 }.encode().unwrap(),
            r#"{"hex":"-inf","small":0.1,"price":"-123.45","last":-0.0}"#,
        ),
        (
            Times {
                at: SystemTime::UNIX_EPOCH + Duration::from_millis(1_719_100_800_120),
                text: DateTime::from_timestamp(1_719_100_800, 5_000).unwrap(),
                plain: None,
            }
            .encode()
            .unwrap(),
            r#"{"at":"2024-06-23T00:00:00.120Z","text":"2024-06-23T00:00:00.000005Z","plain":null}"#,
        ),
        (
            Ids { id: Uuid::nil(), ulid: Ulid::from(1u128), status: Status::ShipPending, maybe: Some(Status::Pending) }
                .encode()
                .unwrap(),
            r#"{"id":"00000000-0000-0000-0000-000000000000","ulid":"00000000000000000000000001","status":"ship-pending","maybe":"pending"}"#,
        ),
        (Item::Profile.encode().unwrap(), r#""PROFILE""#),
        (Item::Address(AddressKey { n: 4 }).encode().unwrap(), r#"{"ADDR":{"n":4}}"#),
        (
            Outer { inner: Inner { id: 1 }, opt: Some(Inner { id: 2 }), tail: "t".into() }.encode().unwrap(),
            r#"{"inner":{"id":1},"opt":{"id":2},"tail":"t"}"#,
        ),
    ];
    let layouts = [Ints::LAYOUT, Floats::LAYOUT, Times::LAYOUT, Ids::LAYOUT, Item::LAYOUT, Item::LAYOUT, Outer::LAYOUT];
    for ((key, json), layout) in cases.iter().zip(layouts) {
        let layout = DynLayout::parse(&layout.to_string()).unwrap();
        let value = layout.decode(key).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), *json);
        assert_eq!(from_json(&layout, json).unwrap(), value, "{json}");
    }
    // Numbers as text, fields in any order, are read; what the layout does not describe is not.
    let rank = DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap();
    let value = from_json(&rank, r#"{"player":"p","score":"1500"}"#).unwrap();
    assert_eq!(rank.encode(&value).unwrap(), "RUN#999999998499#p");
    for (json, error) in [
        (r#"{"score":1}"#, "missing field `player`"),
        (r#"{"score":1,"player":"p","x":1}"#, "unknown field `x`"),
        (r#"{"score":"x","player":"p"}"#, "field `score`: expected a `u64` value"),
        (r#"{"score":-1,"player":"p"}"#, "field `score`: expected a `u64` value"),
        (r#""RUN#1""#, "expected an object of the fields"),
    ] {
        let e = from_json(&rank, json).unwrap_err();
        assert!(e.contains(error), "{json}: {e}");
    }
}

/// What the derived builder refuses at compile time is a `QueryError` on a layout read at run
/// time: a field out of order or unknown, a range on a partition key, a family's query without
/// its variant. A family's variants query as the derived family builder's do.
#[test]
fn layout_queries_refuse_what_the_derived_builder_cannot_express() {
    use sortkey_core::QueryErrorKind;
    use sortkey_core::query::Comparison;
    let rank = DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap();
    let one = DynValue::Unsigned(1);
    let kind = |r: Result<sortkey_core::KeyCondition, sortkey_core::QueryError>| r.unwrap_err().kind().clone();
    assert!(matches!(
        kind(rank.query().fix("player", &DynValue::Text("p".into())).begins_with()),
        QueryErrorKind::OutOfOrder { expected, .. } if expected.starts_with("field `score` next")
    ));
    assert!(matches!(kind(rank.query().compare("nope", Comparison::Gt, &one)), QueryErrorKind::OutOfOrder { .. }));
    assert!(matches!(kind(rank.query().fix("score", &one).eq()), QueryErrorKind::OutOfOrder { .. }));
    assert!(matches!(
        kind(rank.query().fix("score", &DynValue::Text("x".into())).begins_with()),
        QueryErrorKind::Encode(sortkey_core::EncodeErrorKind::Mismatch { .. })
    ));
    assert_eq!(
        rank.query().fix("score", &one).eq().unwrap_err().to_string(),
        "cannot query `DynLayout`: expected field `player`, found 1 of the fields fixed"
    );

    let partition = DynLayout::parse(&Partition::LAYOUT.to_string()).unwrap();
    let e = partition.query().compare("customer_id", Comparison::Gt, &DynValue::Signed(1)).unwrap_err();
    assert_eq!((e.kind(), e.field()), (&QueryErrorKind::NotASortKey, Some("customer_id")));
    assert_eq!(partition.query().begins_with().unwrap_err().kind(), &QueryErrorKind::NotASortKey);
    let eq = partition.query().fix("customer_id", &DynValue::Signed(-5)).eq().unwrap();
    assert_eq!(eq, Partition::query().customer_id(-5).eq().unwrap());

    let item = DynLayout::parse(&Item::LAYOUT.to_string()).unwrap();
    assert!(matches!(kind(item.query().begins_with()), QueryErrorKind::OutOfOrder { .. }));
    assert_eq!(item.query().variant("PROFILE").eq().unwrap(), Item::query().profile().eq().unwrap());
    assert_eq!(item.query().variant("PROFILE").begins_with().unwrap(), Item::query().profile().begins_with().unwrap());
    assert_eq!(item.query().variant("ORDER").begins_with().unwrap(), Item::query().order().begins_with().unwrap());
    let t = DynValue::Unsigned(1_719_100_800);
    assert_eq!(
        item.query().variant("ORDER").compare("placed_at", Comparison::Ge, &t).unwrap(),
        Item::query().order().placed_at_range().gte(1_719_100_800).unwrap()
    );
    assert!(matches!(kind(item.query().variant("NOPE").begins_with()), QueryErrorKind::OutOfOrder { .. }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The query law of the layout (tests/query_law.rs runs it on five more types): a random
    /// builder call gives the derived builder's condition or refusal, on timestamps of both
    /// formats, optional ones, floats in both forms, a decimal, UUID, ULID, enums, nested and
    /// optional nested keys, a nested family, text prefixes.
    #[test]
    fn query_law_times(call in calls::<Times>(), stamps in calls::<Stamps>()) {
        same_as_layout(&call, Times::build(&call))?;
        same_as_layout(&stamps, Stamps::build(&stamps))?;
    }

    #[test]
    fn query_law_floats_and_ids(floats in calls::<Floats>(), ids in calls::<Ids>()) {
        same_as_layout(&floats, Floats::build(&floats))?;
        same_as_layout(&ids, Ids::build(&ids))?;
    }

    #[test]
    fn query_law_nested(outer in calls::<Outer>(), audit in calls::<Audit>(), order in calls::<OrderKey>()) {
        same_as_layout(&outer, Outer::build(&outer))?;
        same_as_layout(&audit, Audit::build(&audit))?;
        same_as_layout(&order, OrderKey::build(&order))?;
    }
}
