//! The format table of the README ("Format") as exact strings, and decode errors that name the
//! field, the byte offset, what was expected and what was found.

use sortkey_core::{DecodeError, DecodeErrorKind, EncodeErrorKind, SortKey};

/// The leaderboard key of the design.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

fn rank() -> RankKey {
    RankKey { score: 1500, timestamp: 1_719_100_800, player_id: "p_8842".into() }
}

#[derive(SortKey, Debug, PartialEq)]
struct Signed4 {
    #[key(width = 4)]
    v: i32,
}

#[derive(SortKey, Debug, PartialEq)]
struct Signed4Desc {
    #[key(width = 4, desc)]
    v: i32,
}

#[derive(SortKey, Debug, PartialEq)]
struct Flags {
    on: bool,
    #[key(desc)]
    first: bool,
}

/// Separator `|`, text in the middle and at the end, a `char`.
#[derive(SortKey, Debug, PartialEq)]
#[key(prefix = "EV", separator = '|')]
struct Event {
    #[key(width = 5)]
    day: u16,
    kind: String,
    grade: char,
    note: String,
}

#[derive(SortKey, Debug, PartialEq)]
struct Small {
    v: u8,
}

#[derive(SortKey, Debug, PartialEq)]
struct TwoBytes {
    a: u8,
    b: u8,
}

/// The same schema at two widths: a key written with the old one must not be read by the new.
#[derive(SortKey, Debug, PartialEq)]
struct TsV8 {
    #[key(width = 8)]
    ts: u64,
    id: String,
}

#[derive(SortKey, Debug, PartialEq)]
struct TsV10 {
    #[key(width = 10)]
    ts: u64,
    id: String,
}

#[test]
fn the_leaderboard_key() {
    assert_eq!(rank().encode().unwrap(), "RUN#9999998499#0000001719100800#p_8842");
    assert_eq!(RankKey::decode("RUN#9999998499#0000001719100800#p_8842").unwrap(), rank());
    assert_eq!("RUN#9999998499#0000001719100800#p_8842".parse::<RankKey>().unwrap(), rank());
    let mut buf = String::from("pk=");
    rank().encode_into(&mut buf).unwrap();
    assert_eq!(buf, "pk=RUN#9999998499#0000001719100800#p_8842");
}

#[test]
fn signed_uses_a_sign_position_and_nines_complement() {
    let enc = |v| Signed4 { v }.encode().unwrap();
    assert_eq!(
        [enc(-999), enc(-5), enc(-1), enc(0), enc(5), enc(999)],
        ["-000", "-994", "-998", "0000", "0005", "0999"]
    );
    assert_eq!(Signed4::decode("-994").unwrap(), Signed4 { v: -5 });
}

#[test]
fn desc_on_signed_encodes_the_negation() {
    let enc = |v| Signed4Desc { v }.encode().unwrap();
    assert_eq!([enc(999), enc(5), enc(0), enc(-5), enc(-999)], ["-000", "-994", "0000", "0005", "0999"]);
    assert_eq!(Signed4Desc::decode("0005").unwrap(), Signed4Desc { v: -5 });
}

#[test]
fn bool_is_one_digit_reversed_by_desc() {
    let enc = |on, first| Flags { on, first }.encode().unwrap();
    assert_eq!([enc(false, true), enc(true, false)], ["0#0", "1#1"]);
    assert_eq!(Flags::ENCODED_LEN, Some(3));
    assert_eq!(Flags::decode("1#0").unwrap(), Flags { on: true, first: true });
}

#[test]
fn a_custom_separator_joins_every_segment() {
    let e = Event { day: 42, kind: "é€".into(), grade: '~', note: "a|b #c".into() };
    assert_eq!(e.encode().unwrap(), "EV|00042|é€|~|a|b #c");
    assert_eq!(Event::decode("EV|00042|é€|~|a|b #c").unwrap(), e);
    assert_eq!(<Event as SortKey>::SEPARATOR, '|');
    assert_eq!(<Event as SortKey>::PREFIX, Some("EV"));
}

#[test]
fn a_high_separator_leaves_little_for_non_final_text() {
    // Outside the last segment only characters above `|` are text: not even `l`.
    let e = Event { day: 42, kind: "login".into(), grade: '~', note: String::new() };
    let err = e.encode().unwrap_err();
    assert_eq!(err.field(), Some("kind"));
    assert_eq!(err.kind(), &EncodeErrorKind::ForbiddenChar { ch: 'l', offset: 0, separator: '|' });
    let err = Event { kind: "~".into(), grade: '{', ..e }.encode().unwrap_err();
    assert_eq!(err.kind(), &EncodeErrorKind::ForbiddenChar { ch: '{', offset: 0, separator: '|' });
    assert_eq!(err.field(), Some("grade"));
}

/// Asserts the error's field, byte offset, and that expected and found mention the given text.
fn assert_error(
    err: &DecodeError,
    kind: DecodeErrorKind,
    field: Option<&str>,
    offset: usize,
    expected: &str,
    found: &str,
) {
    assert_eq!((err.kind(), err.field(), err.offset()), (kind, field, offset), "{err}");
    assert!(err.expected().contains(expected), "expected {:?} to mention {expected:?} ({err})", err.expected());
    assert!(err.found().contains(found), "found {:?} to mention {found:?} ({err})", err.found());
    assert_eq!(err.key(), err.to_string().split('`').nth(1).unwrap_or_default(), "the message names the type");
}

#[test]
fn decode_rejects_a_wrong_prefix() {
    let err = RankKey::decode("RUX#9999998499#0000001719100800#p_8842").unwrap_err();
    assert_error(&err, DecodeErrorKind::WrongPrefix, None, 0, "RUN#", "RUX");
    let err = RankKey::decode("RUN9999998499#0000001719100800#p_8842").unwrap_err();
    assert_error(&err, DecodeErrorKind::WrongPrefix, None, 0, "RUN#", "RUN9");
}

#[test]
fn decode_rejects_short_digits() {
    let err = RankKey::decode("RUN#99999984#0000001719100800#p_8842").unwrap_err();
    assert_error(&err, DecodeErrorKind::WrongWidth, Some("score"), 4, "10", "99999984#");
}

#[test]
fn decode_rejects_a_plus_sign() {
    let err = Signed4::decode("+005").unwrap_err();
    assert_error(&err, DecodeErrorKind::BadSign, Some("v"), 0, "-", "+");
}

#[test]
fn decode_rejects_negative_zero() {
    let err = Signed4::decode("-999").unwrap_err();
    assert_error(&err, DecodeErrorKind::NegativeZero, Some("v"), 0, "negative", "-999");
}

#[test]
fn decode_rejects_a_value_too_big_for_the_type() {
    let err = Small::decode("999").unwrap_err();
    assert_error(&err, DecodeErrorKind::OutOfRange, Some("v"), 0, "u8", "999");
    assert_eq!(Small::decode("255").unwrap(), Small { v: 255 });
    assert!(Small::decode("256").is_err());
}

#[test]
fn decode_rejects_trailing_input() {
    let err = Small::decode("007x").unwrap_err();
    assert_error(&err, DecodeErrorKind::TrailingInput, None, 3, "end", "x");
    let err = TwoBytes::decode("001#002#").unwrap_err();
    assert_error(&err, DecodeErrorKind::TrailingInput, None, 7, "end", "#");
}

#[test]
fn decode_rejects_a_missing_separator() {
    let err = TwoBytes::decode("001002").unwrap_err();
    // A digit after a field of digits: the key's `a` is wider than 3 digits.
    assert_error(&err, DecodeErrorKind::WrongWidth, Some("a"), 3, "#", "0");
    let err = TwoBytes::decode("001x002").unwrap_err();
    assert_error(&err, DecodeErrorKind::MissingSeparator, Some("a"), 3, "#", "x");
    let err = TwoBytes::decode("001").unwrap_err();
    assert_error(&err, DecodeErrorKind::MissingSeparator, Some("a"), 3, "#", "end");
}

#[test]
fn decode_rejects_a_key_of_an_older_width() {
    let old = TsV8 { ts: 1234, id: "abc".into() }.encode().unwrap();
    assert_eq!(old, "00001234#abc");
    let err = TsV10::decode(&old).unwrap_err();
    assert_error(&err, DecodeErrorKind::WrongWidth, Some("ts"), 0, "10", "00001234#");
    let new = TsV10 { ts: 1234, id: "abc".into() }.encode().unwrap();
    let err = TsV8::decode(&new).unwrap_err();
    assert_error(&err, DecodeErrorKind::WrongWidth, Some("ts"), 8, "#", "3");
}

#[test]
fn decode_rejects_non_ascii_digits_and_spaces() {
    let err = Small::decode("0٣7").unwrap_err();
    assert_error(&err, DecodeErrorKind::NotADigit, Some("v"), 0, "3", "٣");
    let err = Signed4::decode("0 05").unwrap_err();
    assert_error(&err, DecodeErrorKind::NotADigit, Some("v"), 1, "3", " ");
}

#[test]
fn decode_rejects_a_forbidden_character_in_non_final_text() {
    let err = Event::decode("EV|00042|é l|~|x").unwrap_err();
    assert_error(&err, DecodeErrorKind::InvalidText, Some("kind"), 11, "|", "' '");
    let err = Event::decode("EV|00042|é|~~|x").unwrap_err();
    assert_error(&err, DecodeErrorKind::InvalidText, Some("grade"), 12, "one character", "~~");
}

mod layouts {
    use sortkey_core::SortKey;

    #[derive(SortKey)]
    #[key(prefix = "RUN")]
    struct RankKey {
        #[key(width = 10, desc)]
        score: u64,
        #[key(width = 16)]
        timestamp: u64,
        player_id: String,
    }

    #[test]
    fn the_seed_key_reads_as_documented() {
        assert_eq!(
            RankKey::LAYOUT.to_string(),
            "RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}"
        );
    }
}
