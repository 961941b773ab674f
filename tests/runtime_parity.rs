//! The runtime layouts read every key the derive writes, from texts the derive does not print
//! too: a timestamp without `width=` is its unit's default width, an RFC 3339 timestamp is read
//! at its own length by every decoder, a comparison past an end of a field's range is the empty
//! range (derived and runtime alike), and RFC 3339 values take any number of fraction digits
//! that the unit holds. Each case once through `DynLayout` and its plan; tests/table.rs has
//! them through the command.

use std::time::{Duration, SystemTime};

use sortkey_core::query::Comparison;
use sortkey_core::{Capacity, DynBody, DynLayout, DynValue, KeyCondition, QueryErrorKind};
use sortkey_tests::leaderboard::RankKey;

fn at(secs: u64, nanos: u32) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::new(secs, nanos)
}

fn key(at: SystemTime, id: &str) -> DynValue {
    DynValue::Key(vec![("at", DynValue::Timestamp(at)), ("id", DynValue::Text(id.into()))])
}

/// The layout's first field.
fn first_field(layout: &DynLayout) -> &sortkey_core::DynField {
    let DynBody::Fields(fields) = &layout.key.body else { panic!("a key of fields") };
    &fields[0]
}

#[test]
fn a_timestamp_without_a_width_is_its_unit_s_default_width() {
    let widths = [("s", 12), ("ms", 15), ("us", 18), ("ns", 21)];
    for (unit, width) in widths {
        let text = format!("STAMP#{{at:timestamp unit={unit}}}#{{id:text}}");
        let layout = DynLayout::parse(&text).unwrap();
        let written =
            DynLayout::parse(&format!("STAMP#{{at:timestamp width={width} unit={unit}}}#{{id:text}}")).unwrap();
        assert_eq!(layout, written, "{text}: the same keys as with width={width}");
        assert_eq!(layout.to_string(), text, "printed back as written");
        assert_eq!(first_field(&layout).effective_width(), width);
        // 2024-06-23T00:00:00 plus the smallest step of the unit.
        let step = match unit {
            "s" => at(1_719_100_800, 0),
            "ms" => at(1_719_100_800, 123_000_000),
            "us" => at(1_719_100_800, 123_456_000),
            _ => at(1_719_100_800, 123_456_789),
        };
        let value = key(step, "x");
        let encoded = layout.encode(&value).unwrap();
        assert_eq!(encoded.len(), "STAMP#".len() + width as usize + "#x".len(), "{encoded}");
        assert_eq!(layout.decode(&encoded).unwrap(), value);
        assert_eq!(layout.plan().decode(&encoded).unwrap(), value);
        assert_eq!(layout.plan().encode(&value).unwrap(), encoded);
        // A key of the seconds' width is no key of a finer unit.
        if unit != "s" {
            assert!(layout.decode("STAMP#001719100800#x").is_err(), "{text}");
            assert!(layout.plan().decode("STAMP#001719100800#x").is_err(), "{text}");
        }
    }
    let ms = DynLayout::parse("STAMP#{at:timestamp unit=ms}#{id:text}").unwrap();
    let Some(Capacity::Timestamp { largest, .. }) = first_field(&ms).capacity() else { panic!("a timestamp") };
    assert_eq!(largest, 253_402_300_799_999);
    // The nested key's fixed length follows the unit too.
    let nested = DynLayout::parse("N#{k:key({at:timestamp unit=ms})}#{id:text}").unwrap();
    assert_eq!(first_field(&nested).effective_width(), 15);
}

#[test]
fn an_rfc3339_timestamp_is_read_at_its_own_length() {
    let layout = DynLayout::parse("AUD#{at:timestamp unit=us format=rfc3339}#{id:text}").unwrap();
    let key_text = "AUD#2024-06-23T00:00:00.123456Z#a1";
    let value = key(at(1_719_100_800, 123_456_000), "a1");
    assert_eq!(layout.decode(key_text).unwrap(), value);
    assert_eq!(layout.plan().decode(key_text).unwrap(), value);
    assert_eq!(layout.encode(&value).unwrap(), key_text);
    let derived = DynLayout::parse("AUD#{at:timestamp width=27 unit=us format=rfc3339}#{id:text}").unwrap();
    assert_eq!(layout, derived);
    // A width that is not the text's length would describe keys that are not there.
    let e = DynLayout::parse("AUD#{at:timestamp width=12 unit=us format=rfc3339}#{id:text}").unwrap_err();
    assert_eq!(e.offset, "AUD#{at:timestamp ".len(), "{e}");
    assert!(e.expected.contains("`width=27`"), "{e}");
}

#[test]
fn a_comparison_past_an_end_of_the_range_is_the_empty_range() {
    let cases = [
        ("RUN#{score:u64 width=10 desc}#{player:text}", Comparison::Lt, DynValue::Unsigned(0)),
        ("RUN#{score:u64 width=10 desc}#{player:text}", Comparison::Gt, DynValue::Unsigned(9_999_999_999)),
        ("S#{a:u8}#{id:text}", Comparison::Gt, DynValue::Unsigned(255)),
        ("S#{a:u8}#{id:text}", Comparison::Lt, DynValue::Unsigned(0)),
        ("C#{n:u32 max=500000}#{id:text}", Comparison::Gt, DynValue::Unsigned(500_000)),
        ("I#{n:i8}#{id:text}", Comparison::Lt, DynValue::Signed(-128)),
        ("I#{n:i8}#{id:text}", Comparison::Gt, DynValue::Signed(127)),
        ("T#{at:timestamp unit=ms}#{id:text}", Comparison::Lt, DynValue::Timestamp(SystemTime::UNIX_EPOCH)),
        ("T#{at:timestamp format=rfc3339}#{id:text}", Comparison::Lt, DynValue::Timestamp(SystemTime::UNIX_EPOCH)),
        ("B#{b:bool}#{id:text}", Comparison::Gt, DynValue::Bool(true)),
        ("O#{o:option<u8>}#{id:text}", Comparison::Lt, DynValue::Option(None)),
        // The last field too.
        ("L#{n:u16}", Comparison::Gt, DynValue::Unsigned(65_535)),
        // A decimal's ends are those of its scaled integer: 999999999.99 at width 12, scale 2.
        ("P#{amount:decimal width=12 scale=2}#{id:text}", Comparison::Gt, DynValue::Decimal("999999999.99".into())),
        ("P#{amount:decimal width=12 scale=2}#{id:text}", Comparison::Lt, DynValue::Decimal("-999999999.99".into())),
        (
            "D#{amount:decimal width=12 scale=2 desc}#{id:text}",
            Comparison::Gt,
            DynValue::Decimal("999999999.99".into()),
        ),
    ];
    for (text, cmp, value) in cases {
        let layout = DynLayout::parse(text).unwrap();
        let name = first_field(&layout).name;
        let e = layout.query().compare(name, cmp, &value).unwrap_err();
        assert_eq!((e.kind(), e.field()), (&QueryErrorKind::EmptyRange, Some(name)), "{text} {cmp:?} {value:?}");
        // One step inside the end is a condition, which the other comparison at the end is too.
        let other = match cmp {
            Comparison::Lt => Comparison::Le,
            _ => Comparison::Ge,
        };
        assert!(layout.query().compare(name, other, &value).is_ok(), "{text} {other:?} {value:?}");
    }
    // The derived builder asks the same question.
    let e = RankKey::query().score_range().lt(0).unwrap_err();
    assert_eq!(e.kind(), &QueryErrorKind::EmptyRange);
    let largest = 999_999_999_999;
    assert_eq!(RankKey::query().score_range().gt(largest).unwrap_err().kind(), &QueryErrorKind::EmptyRange);
    assert_eq!(
        RankKey::query().score_range().lte(0).unwrap(),
        KeyCondition::Between("RUN#999999999999".into(), "RUN$".into())
    );
}

#[test]
fn rfc3339_values_take_the_fraction_digits_their_unit_holds() {
    let us = DynLayout::parse("AUD#{at:timestamp unit=us format=rfc3339}#{id:text}").unwrap();
    let field = first_field(&us);
    for (text, nanos) in [
        ("2024-06-23T00:00:56.5Z", 500_000_000),
        ("2024-06-23T00:00:56.25Z", 250_000_000),
        ("2024-06-23T00:00:56.1234Z", 123_400_000),
        ("2024-06-23T00:00:56.123456Z", 123_456_000),
        ("2024-06-23T00:00:56.123456000Z", 123_456_000),
        ("2024-06-23T00:00:56Z", 0),
    ] {
        assert_eq!(field.value_from_text(text).unwrap(), DynValue::Timestamp(at(1_719_100_856, nanos)), "{text}");
    }
    // Not RFC 3339 (ten fraction digits, none, no `Z`): refused.
    for text in ["2024-06-23T00:00:56.Z", "2024-06-23T00:00:56.1234567890Z", "2024-06-23T00:00:56.5"] {
        assert!(field.value_from_text(text).is_err(), "{text}");
    }
    // Finer than the unit: the field's value is the instant truncated toward the past, as every
    // reader writes it (SK-ENC-015, SK-ENC-016), in a key and in a condition alike.
    let key = |layout: &DynLayout, text: &str| {
        let value = first_field(layout).value_from_text(text).unwrap();
        layout.encode(&DynValue::Key(vec![("at", value), ("id", DynValue::Text("x".into()))])).unwrap()
    };
    assert_eq!(key(&us, "2024-06-23T00:00:56.1234567Z"), key(&us, "2024-06-23T00:00:56.123456Z"));
    let s = DynLayout::parse("T#{at:timestamp}#{id:text}").unwrap();
    assert_eq!(key(&s, "2024-06-23T00:00:56.5Z"), key(&s, "2024-06-23T00:00:56Z"));
    assert_eq!(key(&s, "2024-06-23T00:00:56.000Z"), key(&s, "2024-06-23T00:00:56Z"));
}

#[test]
fn a_nested_key_whose_text_shows_no_separator_has_the_outer_key_s() {
    // One field and no prefix: the nested key's text cannot show its separator, which the
    // derive requires to be the outer key's.
    let layout = DynLayout::parse("X&{k:key({n:enum(v|vjm)})}&{t:text}").unwrap();
    let DynBody::Fields(fields) = &layout.key.body else { panic!("fields") };
    let sortkey_core::DynType::Key(nested) = &fields[0].ty else { panic!("a nested key") };
    assert_eq!(nested.separator, '&');
    let value = DynValue::Key(vec![
        ("k", DynValue::Key(vec![("n", DynValue::Enum("v".into()))])),
        ("t", DynValue::Text("a&b".into())),
    ]);
    assert_eq!(layout.encode(&value).unwrap(), "X&v&a&b");
    assert_eq!(layout.decode("X&v&a&b").unwrap(), value);
    assert_eq!(layout.to_string(), "X&{k:key({n:enum(v|vjm)})}&{t:text}");
}
