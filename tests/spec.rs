//! The vectors of the key format's spec (spec/SPEC.md), for readers in other languages: made here
//! from the corpus below through the runtime layouts (`DynLayout`, `LockFile`, the shard rule),
//! each naming the requirements it covers, and written to spec/vectors/v2/*.json (the format's
//! current version; an older version's vectors stay frozen as they were).
//!
//! - Every requirement of SPEC.md has a vector, and every vector names requirements SPEC.md has.
//! - The files on disk are what this corpus makes: a vector changed by a change of the code is a
//!   change of the format, which fails here. While the version's directory holds no `FROZEN`
//!   file, `UPDATE_SPEC=1 cargo test -p sortkey-tests --test spec` writes them, and
//!   `UPDATE_SPEC=freeze` writes them a last time and freezes them; once frozen, never: `FROZEN` lists each file's SHA-256, and a file that differs from its digest (edited
//!   by hand, or added) fails here. A change of the format is a new version, in a new directory.
//! - Every vector on disk is run again through the library (the Rust reader), and its results are
//!   written to target/spec/rust.json for spec/coverage.py's table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::de::DeserializeSeed;
use serde_json::{Value, json};
use sortkey_core::query::Comparison;
use sortkey_core::{DynLayout, DynValue, FieldCondition, KeyCondition, LiveLayouts, LockFile, fnv1a64};

/// The format's version: the directory of its vectors.
const FORMAT: u32 = 2;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("spec").join("vectors").join(format!("v{FORMAT}"))
}

const RANK: &str = "RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}";
const PRICE: &str = "PRICE#{delta:i32 width=11 desc}#{price:f64}#{stock:option<u16> width=5}#{name:text}";
const CENTS: &str = "CENTS#{price:decimal width=9 scale=2}#{name:text}";
const SMALL: &str = "T#{a:u8}#{b:i8}#{c:bool desc}#{d:char}#{e:enum(Gold|Silver)}#{f:text}";
const HEX: &str = "H#{x:f64 format=hex}#{y:f32 format=hex desc}";
const FLOATS: &str = "F#{x:f32}#{y:f64 desc}#{z:text}";
const TIMES: &str = "E#{at:timestamp unit=ms format=rfc3339}#{id:uuid}#{u:ulid}";
const UNIX: &str = "M#{n:u32 width=6 max=500000}#{t:timestamp unit=us width=18 desc}#{s:timestamp}";
const NESTED: &str = "N#{inner:key(A#{x:u8}#{y:text})}#{z:text}";
const CUSTOM: &str = "C#{custom}";
const OPTIONS: &str = "O#{o:option<option<u8>>}#{p:option<text>}";
const PIPE: &str = "P|{a:text}|{b:u16 width=3}";
const FAMILY: &str =
    "family(PROFILE | ORDER#{placed:timestamp width=13 desc unit=ms}#{order_id:text} | ADDR#{n:u16 width=3})";
const SEASON: &str = "partition SEASON#{season:u16 width=4}#{shard:u16 width=2 shards=16 by=player}";
const SHORT: &str = "S#{a:text}#{b:text} max_len=12";

/// Layout texts, read or refused.
fn layouts() -> Vec<(&'static [&'static str], &'static str)> {
    vec![
        (&["SK-LAY-001", "SK-LAY-002", "SK-LAY-003", "SK-LAY-006"], RANK),
        (&["SK-LAY-003", "SK-LAY-006"], PRICE),
        (&["SK-LAY-003", "SK-LAY-006"], SMALL),
        (&["SK-LAY-003", "SK-LAY-006"], TIMES),
        (&["SK-LAY-003", "SK-LAY-006"], NESTED),
        (&["SK-LAY-002", "SK-LAY-006"], CUSTOM),
        (&["SK-LAY-002", "SK-LAY-006"], PIPE),
        (&["SK-LAY-002", "SK-LAY-006"], FAMILY),
        (&["SK-LAY-001", "SK-LAY-006"], SEASON),
        (&["SK-LAY-001", "SK-LAY-006"], SHORT),
        (&["SK-LAY-003", "SK-LAY-006"], "K#{a:u8}#{b:i16}#{c:u128}#{d:isize}#{e:timestamp unit=ns}#{f:decimal}"),
        (&["SK-LAY-005"], "RUN#{score:u65}"),
        (&["SK-LAY-005"], "RUN{score:u64}"),
        (&["SK-LAY-005"], "RUN#{score:u64 unit=h}"),
        (&["SK-LAY-005"], "RUN#{at:timestamp format=rfc3339 width=12}"),
        (&["SK-LAY-005"], "partition S#{shard:u16 shards=1001 by=p}"),
        (&["SK-LAY-005", "SK-LAY-006"], "partition S#{shard:u16 width=3 shards=1000 by=p}"),
        (&["SK-LAY-005"], "partition S#{shard:u8 shards=4 by=p}"),
        (&["SK-LAY-005"], "partition S#{shard:u16 shards=4}"),
        (&["SK-LAY-005"], "family(A | )"),
        (&["SK-LAY-005"], "RUN#{a:u8}#{b:u8}|{c:u8}"),
        (&["SK-LAY-005"], "RUN#{score:u64 width=4 width=5}"),
        (&["SK-LAY-005"], "RUN#{score:u64 color=red}"),
        (&["SK-LAY-005"], "RUN#{shard:u16 shards=4 by=player}#{player:text}"),
        (&["SK-LAY-005", "SK-LAY-001"], "RUN#{score:u64} trailing"),
        (&["SK-LAY-005"], "RUN#{score:u64"),
    ]
}

/// Values (JSON, SK-DEC-004) of a layout, encoded or refused.
fn encodes() -> Vec<(&'static [&'static str], &'static str, &'static str)> {
    vec![
        (
            &["SK-ENC-001", "SK-ENC-002", "SK-ENC-007"],
            RANK,
            r#"{"score": 1500, "timestamp": 1719100800, "player_id": "p_8842"}"#,
        ),
        (&["SK-ENC-002"], RANK, r#"{"score": 0, "timestamp": 0, "player_id": ""}"#),
        (&["SK-ENC-002"], RANK, r#"{"score": 9999999999, "timestamp": 9999999999999999, "player_id": "a#b"}"#),
        (&["SK-ENC-003"], RANK, r#"{"score": 10000000000, "timestamp": 1, "player_id": "p"}"#),
        (&["SK-ENC-003"], RANK, r#"{"score": "18446744073709551615", "timestamp": 1, "player_id": "p"}"#),
        (&["SK-ENC-007"], RANK, r#"{"score": 1, "timestamp": 1, "player_id": "é\u0000\uffff"}"#),
        (&["SK-ENC-004"], PRICE, r#"{"delta": -1, "price": 9.99, "stock": 3, "name": "lamp"}"#),
        (&["SK-ENC-004"], PRICE, r#"{"delta": -2147483648, "price": -2.5, "stock": null, "name": ""}"#),
        (&["SK-ENC-004"], PRICE, r#"{"delta": 2147483647, "price": 0.0, "stock": 65535, "name": "a|b#c"}"#),
        (&["SK-ENC-004", "SK-ENC-011"], PRICE, r#"{"delta": 0, "price": -0.0, "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": 1e-300, "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": "inf", "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": "-inf", "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": -1.55, "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": 1.7976931348623157e308, "stock": 0, "name": "x"}"#),
        (&["SK-ENC-011"], PRICE, r#"{"delta": 0, "price": 5e-324, "stock": 0, "name": "x"}"#),
        (&["SK-ENC-013"], PRICE, r#"{"delta": 0, "price": "NaN", "stock": 0, "name": "x"}"#),
        (&["SK-ENC-010"], PRICE, r#"{"delta": 5, "price": 1.5, "stock": null, "name": "x"}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "0.00", "name": "lamp"}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "-2.25", "name": "lamp"}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "999999.99", "name": ""}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "-999999.99", "name": ""}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "1000000.00", "name": ""}"#),
        (&["SK-ENC-014"], CENTS, r#"{"price": "0.001", "name": ""}"#),
        (&["SK-ENC-005", "SK-LAY-004"], SMALL, r#"{"a": 255, "b": -128, "c": true, "d": "x", "e": "Gold", "f": "t"}"#),
        (
            &["SK-ENC-006", "SK-ENC-008", "SK-ENC-009"],
            SMALL,
            r#"{"a": 0, "b": 127, "c": false, "d": "é", "e": "Silver", "f": ""}"#,
        ),
        (&["SK-ENC-003"], SMALL, r#"{"a": 256, "b": 0, "c": true, "d": "x", "e": "Gold", "f": "t"}"#),
        (&["SK-ENC-005"], SMALL, r#"{"a": 0, "b": -129, "c": true, "d": "x", "e": "Gold", "f": "t"}"#),
        (&["SK-ENC-008"], SMALL, r##"{"a": 0, "b": 0, "c": false, "d": "#", "e": "Silver", "f": ""}"##),
        (
            &["SK-ENC-007"],
            SMALL,
            r#"{"a": 0, "b": 0, "c": false, "d": "x", "e": "Gold", "f": " any text, \u0001 even"}"#,
        ),
        (&["SK-ENC-012"], HEX, r#"{"x": 1.5, "y": 1.5}"#),
        (&["SK-ENC-012"], HEX, r#"{"x": -1.5, "y": -0.0}"#),
        (&["SK-ENC-012", "SK-ENC-013"], HEX, r#"{"x": "NaN", "y": 0.0}"#),
        (&["SK-ENC-011"], FLOATS, r#"{"x": 1.5, "y": 1.5, "z": ""}"#),
        (&["SK-ENC-011"], FLOATS, r#"{"x": 0.1, "y": -1e300, "z": ""}"#),
        (&["SK-ENC-011"], "PRICE#{price:f32}#{name:text}", r#"{"price": 3.4028234663852886e38, "name": "n"}"#),
        (&["SK-ENC-011"], "PRICE#{price:f32}#{name:text}", r#"{"price": -3.4028234663852886e38, "name": "n"}"#),
        (
            &["SK-ENC-016", "SK-ENC-018"],
            TIMES,
            r#"{"at": "2024-06-23T00:00:00.123Z", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8", "u": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}"#,
        ),
        (
            &["SK-ENC-016"],
            TIMES,
            r#"{"at": "1970-01-01T00:00:00Z", "id": "00000000-0000-0000-0000-000000000000", "u": "00000000000000000000000000"}"#,
        ),
        (
            &["SK-ENC-015", "SK-LAY-004"],
            UNIX,
            r#"{"n": 500000, "t": "2024-06-23T00:00:00.123456Z", "s": "2024-06-23T00:00:00.999Z"}"#,
        ),
        (&["SK-ENC-003"], UNIX, r#"{"n": 500001, "t": "2024-06-23T00:00:00Z", "s": "2024-06-23T00:00:00Z"}"#),
        (&["SK-ENC-017"], UNIX, r#"{"n": 1, "t": "9999-12-31T23:59:59.999999999Z", "s": "9999-12-31T23:59:59Z"}"#),
        (&["SK-ENC-019"], NESTED, r#"{"inner": {"x": 7, "y": "in"}, "z": "out"}"#),
        (&["SK-ENC-019", "SK-ENC-007"], NESTED, r##"{"inner": {"x": 7, "y": "in#side"}, "z": "out"}"##),
        (&["SK-ENC-021"], CUSTOM, r#""anything at all, even #""#),
        (&["SK-ENC-010"], OPTIONS, r#"{"o": null, "p": null}"#),
        (&["SK-ENC-010"], OPTIONS, r#"{"o": [null], "p": "x"}"#),
        (&["SK-ENC-010"], OPTIONS, r#"{"o": [5], "p": ""}"#),
        (&["SK-ENC-001", "SK-ENC-007"], PIPE, r##"{"a": "a#b", "b": 7}"##),
        (&["SK-ENC-007"], PIPE, r#"{"a": "a|b", "b": 7}"#),
        (&["SK-ENC-020"], FAMILY, r#""PROFILE""#),
        (
            &["SK-ENC-020", "SK-ENC-015"],
            FAMILY,
            r#"{"ORDER": {"placed": "2024-06-23T00:00:00.123Z", "order_id": "o-1"}}"#,
        ),
        (&["SK-ENC-020"], FAMILY, r#"{"ADDR": {"n": 7}}"#),
        (&["SK-ENC-023"], SEASON, r#"{"season": 2026, "shard": 15}"#),
        (&["SK-ENC-023"], SEASON, r#"{"season": 2026, "shard": 16}"#),
        (&["SK-ENC-022"], SHORT, r#"{"a": "ab", "b": "cdefgh"}"#),
        (&["SK-ENC-022"], SHORT, r#"{"a": "ab", "b": "cdefghij"}"#),
        (&["SK-ENC-022"], CUSTOM, r#""""#),
    ]
}

/// Keys of a layout, decoded or refused.
fn decodes() -> Vec<(&'static [&'static str], &'static str, &'static str)> {
    let mut out: Vec<(&'static [&'static str], &'static str, &'static str)> = vec![
        (&["SK-DEC-001", "SK-DEC-002"], RANK, "RUN#9999998499#0000001719100800#p_8842"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#999999849#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#99999984990#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#99999x8499#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RAN#9999998499#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#9999998499"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, ""),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#+999998499#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-003"], RANK, "RUN#９999998499#0000001719100800#p"),
        (&["SK-DEC-001", "SK-DEC-004"], PRICE, "PRICE#-9999999998#P50015#100003#lamp"),
        (&["SK-DEC-001", "SK-DEC-003"], PRICE, "PRICE#-9999999999#P50015#0#lamp"),
        (&["SK-DEC-001", "SK-DEC-003"], PRICE, "PRICE#+0000000001#P50015#0#lamp"),
        (&["SK-DEC-001", "SK-DEC-003"], PRICE, "PRICE#00000000001#P50015#2#lamp"),
        (&["SK-DEC-002", "SK-DEC-003"], PRICE, "PRICE#00000000001#P50014999999999999999#0#lamp"),
        (&["SK-DEC-002", "SK-DEC-003"], PRICE, "PRICE#00000000001#P500150#0#lamp"),
        (&["SK-DEC-001", "SK-DEC-004"], SMALL, "T#255#-127#0#x#Gold#t"),
        (&["SK-DEC-001", "SK-DEC-003"], SMALL, "T#256#0000#0#x#Gold#t"),
        (&["SK-DEC-001", "SK-DEC-003"], SMALL, "T#001#0000#2#x#Gold#t"),
        (&["SK-DEC-001", "SK-DEC-003"], SMALL, "T#001#0000#0#x#Bronze#t"),
        (&["SK-DEC-001", "SK-DEC-003"], SMALL, "T#001#0000#0#xy#Gold#t"),
        (&["SK-DEC-002", "SK-DEC-003"], HEX, "H#BFF8000000000000#40400000"),
        (&["SK-DEC-001", "SK-DEC-004"], HEX, "H#bff8000000000000#40400000"),
        (
            &["SK-DEC-001", "SK-DEC-003"],
            TIMES,
            "E#2024-06-23T00:00:00.12Z#67e55044-10b1-426f-9247-bb680e5fe0c8#01ARZ3NDEKTSV4RRFFQ69G5FAV",
        ),
        (
            &["SK-DEC-001", "SK-DEC-003"],
            TIMES,
            "E#2024-06-23T00:00:00.123Z#67E55044-10B1-426F-9247-BB680E5FE0C8#01ARZ3NDEKTSV4RRFFQ69G5FAV",
        ),
        (&["SK-DEC-001", "SK-DEC-003"], UNIX, "M#500001#998281090399876543#001719100800"),
        (&["SK-DEC-001", "SK-DEC-004"], NESTED, "N#A#007#in#out"),
        (&["SK-DEC-001", "SK-DEC-003"], NESTED, "N#B#007#in#out"),
        (&["SK-DEC-001", "SK-DEC-004"], OPTIONS, "O#10#1"),
        (&["SK-DEC-001", "SK-DEC-003"], OPTIONS, "O#2#0"),
        (&["SK-DEC-001", "SK-DEC-004"], FAMILY, "ORDER#8280899199876#o-1"),
        (&["SK-DEC-001", "SK-DEC-003"], FAMILY, "INVOICE#1"),
        (&["SK-DEC-001", "SK-DEC-003"], FAMILY, "PROFILE#x"),
        (&["SK-DEC-001", "SK-DEC-003"], SEASON, "SEASON#2026#16"),
        (&["SK-DEC-001", "SK-DEC-003"], SHORT, "S#ab#cdefghij"),
        (&["SK-DEC-001", "SK-DEC-004"], CUSTOM, "C#anything#at all"),
    ];
    out.extend(faults());
    out
}

/// One key for each row of SK-DEC-005: each fault, in a field that is not last and in the last.
fn faults() -> Vec<(&'static [&'static str], &'static str, &'static str)> {
    const COVERS: &[&str] = &["SK-DEC-001", "SK-DEC-003", "SK-DEC-005"];
    let cases: &[(&str, &[&str])] = &[
        (
            "U#{a:u32 width=5}#{b:text}",
            &[
                "X#00001#x",
                "U#0001#x",
                "U#000001#x",
                "U#12a45#x",
                "U#+1234#x",
                "U# 1234#x",
                "U#1234",
                "U#１2345#x",
                "U#00001x",
            ],
        ),
        ("U#{b:text}#{a:u32 width=5}", &["U#x#0001", "U#x#000001", "U#x#00001y", "U#x#00001#"]),
        (
            "S#{a:i32 width=6}#{b:text}",
            &[
                "S#00001#x",
                "S#0000001#x",
                "S#-0001#x",
                "S#-000001#x",
                "S#+00001#x",
                "S#x00001#x",
                "S#-99999#x",
                "S#0x0001#x",
            ],
        ),
        ("S#{b:text}#{a:i32 width=6}", &["S#x#00001", "S#x#0000001", "S#x#-000001"]),
        ("U#{a:u8 width=3}#{b:text}", &["U#999#x", "U#25#x", "U#2555#x"]),
        ("U#{a:u16 width=3 max=500}#{b:text}", &["U#501#x"]),
        (
            "F#{a:f64}#{b:text}",
            &[
                "F#P+5001#x",
                "F#P 5001#x",
                "F#P500a#x",
                "F#Q#x",
                "F#p5001#x",
                "F#P5001.5#x",
                "F#P50010#x",
                "F#P50#x",
                "F#M49988#x",
                "F#M4998#x",
                "F#P500#x",
            ],
        ),
        ("F#{b:text}#{a:f64}", &["F#x#P5001x", "F#x#M4998", "F#x#P5001~"]),
        (
            "F#{a:f64 format=hex}#{b:text}",
            &[
                "F#fff8000000000000#x",
                "F#0007ffffffffffff#x",
                "F#BFF0000000000000#x",
                "F#bff000000000000#x",
                "F#bff00000000000000#x",
                "F#bff000000000000g#x",
            ],
        ),
        ("F#{b:text}#{a:f64 format=hex}", &["F#x#bff00000000000000", "F#x#bff000000000000"]),
        ("F#{a:f32 format=hex}#{b:text}", &["F#ffc00000#x", "F#bf80000#x"]),
        ("B#{a:bool}#{b:text}", &["B#2#x", "B#01#x", "B#a#x"]),
        ("O#{a:option<u16> width=3}#{b:text}", &["O#2#x", "O#1#x", "O#10001#x"]),
        ("T#{a:timestamp unit=ms width=13}#{b:text}", &["T#171910080000#x", "T#17191008000000#x"]),
        ("T#{b:text}#{a:timestamp unit=ms width=13}", &["T#x#17191008000000"]),
        ("T#{a:timestamp format=rfc3339}#{b:text}", &["T#2024-13-23T00:00:00Z#x", "T#1969-12-31T23:59:59Z#x"]),
        ("D#{a:decimal width=6 scale=2}#{b:text}", &["D#00001#x", "D#0000001#x", "D#-99999#x"]),
        ("E#{a:enum(Gold|Silver)}#{b:text}", &["E#Bronze#x"]),
    ];
    cases.iter().flat_map(|(layout, keys)| keys.iter().map(move |key| (COVERS, *layout, *key))).collect()
}

/// Query builder calls on a layout: `[op, args...]` steps, made or refused.
fn queries() -> Vec<(&'static [&'static str], &'static str, Value)> {
    let mut out: Vec<(&'static [&'static str], &'static str, Value)> = vec![
        (&["SK-QRY-001", "SK-QRY-004", "SK-QRY-007"], RANK, json!([["compare", "score", ">=", 1500]])),
        (&["SK-QRY-001", "SK-QRY-004"], RANK, json!([["compare", "score", "<", 1500]])),
        (&["SK-QRY-001", "SK-QRY-004"], RANK, json!([["compare", "score", ">", 1500]])),
        (&["SK-QRY-001", "SK-QRY-004"], RANK, json!([["compare", "score", "<=", 1500]])),
        (&["SK-QRY-002", "SK-QRY-003"], RANK, json!([["fix", "score", 1500], ["begins_with"]])),
        (&["SK-QRY-002", "SK-QRY-003", "SK-QRY-004"], RANK, json!([["between", "score", 1000, 2000]])),
        (
            &["SK-QRY-002"],
            RANK,
            json!([["fix", "score", 1500], ["fix", "timestamp", 1], ["text_begins_with", "player_id", "p_8"]]),
        ),
        (
            &["SK-QRY-001", "SK-QRY-002"],
            RANK,
            json!([["fix", "score", 1500], ["fix", "timestamp", 1], ["fix", "player_id", "p"], ["eq"]]),
        ),
        (&["SK-QRY-002"], RANK, json!([["fix", "timestamp", 1], ["begins_with"]])),
        (&["SK-QRY-005"], RANK, json!([["compare", "score", ">=", 0]])),
        (&["SK-QRY-005"], RANK, json!([["between", "score", 2000, 1000]])),
        (&["SK-QRY-005"], RANK, json!([["compare", "score", ">=", 10000000000u64]])),
        (&["SK-QRY-005"], SEASON, json!([["compare", "season", ">=", 2026]])),
        (&["SK-QRY-001", "SK-QRY-002", "SK-QRY-004"], PRICE, json!([["compare", "delta", ">", -5]])),
        (&["SK-QRY-002"], PRICE, json!([["fix", "delta", 1], ["compare", "price", ">=", 9.99]])),
        (&["SK-QRY-002", "SK-QRY-003"], PIPE, json!([["fix", "a", "x"], ["begins_with"]])),
        (&["SK-QRY-002"], FAMILY, json!([["variant", "ORDER"], ["begins_with"]])),
        (
            &["SK-QRY-002", "SK-QRY-004"],
            FAMILY,
            json!([["variant", "ORDER"], ["compare", "placed", ">=", "2024-06-23T00:00:00Z"]]),
        ),
        (&["SK-QRY-006"], "S#{a:text}#{b:text}", json!([["fix", "a", "a".repeat(1100)], ["begins_with"]])),
    ];
    out.extend(truncated_conditions());
    out
}

/// An instant finer than its field's unit in a condition: truncated, as in a key (SK-ENC-015).
fn truncated_conditions() -> Vec<(&'static [&'static str], &'static str, Value)> {
    let mut out: Vec<(&'static [&'static str], &'static str, Value)> = Vec::new();
    for (layout, at) in [
        ("LOG#{at:timestamp unit=s width=10}#{id:text}", "2024-06-23T00:00:00.999Z"),
        ("LOG#{at:timestamp unit=ms width=13 desc}#{id:text}", "2024-06-23T00:00:00.1239Z"),
        ("LOG#{at:timestamp format=rfc3339}#{id:text}", "2024-06-23T00:00:00.5Z"),
    ] {
        for cmp in ["<", "<=", ">", ">="] {
            out.push((&["SK-ENC-015", "SK-QRY-001"], layout, json!([["compare", "at", cmp, at]])));
        }
        out.push((&["SK-ENC-015", "SK-QRY-001"], layout, json!([["fix", "at", at], ["begins_with"]])));
    }
    // Both ends of a range: a comparison past the least or the greatest value is the empty range.
    for (layout, field, below, above) in [
        (
            "LOG#{at:timestamp unit=s width=12}#{id:text}",
            "at",
            json!("1970-01-01T00:00:00Z"),
            json!("9999-12-31T23:59:59Z"),
        ),
        (
            "LOG#{at:timestamp format=rfc3339 unit=ms}#{id:text}",
            "at",
            json!("1970-01-01T00:00:00Z"),
            json!("9999-12-31T23:59:59.999Z"),
        ),
        ("P#{amount:decimal width=12 scale=2}#{id:text}", "amount", json!("-999999999.99"), json!("999999999.99")),
        ("P#{amount:decimal width=12 scale=2 desc}#{id:text}", "amount", json!("-999999999.99"), json!("999999999.99")),
        ("P#{x:f32}#{id:text}", "x", json!("-inf"), json!("inf")),
    ] {
        out.push((&["SK-QRY-005"], layout, json!([["compare", field, "<", below]])));
        out.push((&["SK-QRY-005"], layout, json!([["compare", field, ">", above]])));
        out.push((&["SK-QRY-005"], layout, json!([["compare", field, ">=", above]])));
    }
    out
}

const LOCK: &str = "Rank = RUN#{score:u64 width=12 desc}#{player:text}\n\
                    Rank@v2 = RUN#{score:u64 width=10 desc}#{player:text}\n\
                    Rank@v1 = SCORE#{score:u32 width=8}#{player:text}\n\
                    Rank > Rank@v2 > Rank@v1\n\
                    table Runs sk: Rank, Rank@v2, Rank@v1\n";

/// Keys of a lock's key with versions, read by its live layouts; and conditions on them all.
fn versions() -> Vec<(&'static [&'static str], &'static str, &'static str, Value)> {
    vec![
        (&["SK-LCK-001", "SK-LCK-002"], LOCK, "Rank", json!({"key": "RUN#999999998499#p_1"})),
        (&["SK-LCK-002"], LOCK, "Rank", json!({"key": "RUN#9999998499#p_1"})),
        (&["SK-LCK-002"], LOCK, "Rank", json!({"key": "SCORE#00001500#p_1"})),
        (&["SK-LCK-002"], LOCK, "Rank", json!({"key": "RUN#99999984#p_1"})),
        (&["SK-LCK-003"], LOCK, "Rank", json!({"condition": [["compare", "score", ">=", 1500]]})),
        (&["SK-LCK-003"], LOCK, "Rank", json!({"condition": [["compare", "score", ">=", 100000000000u64]]})),
        (&["SK-LCK-003"], LOCK, "Rank", json!({"condition": [["between", "score", 10, 5000000000u64]]})),
        (
            &["SK-LCK-004"],
            LOCK,
            "Rank",
            json!({"condition": [["compare", "score", ">=", 1500]], "merge": [
                ["RUN#999999998499#p_1", "RUN#999999997999#p_2"],
                ["RUN#9999998499#p_1", "RUN#9999999999#p_0", "RUN#999999998499#p_1"],
                ["SCORE#00001600#p_3", "SCORE#00001000#p_4"]
            ]}),
        ),
        (&["SK-LCK-001"], "Rank = RUN#{score:u64}\nRank > Nope\n", "Rank", json!({"key": "RUN#1"})),
        (&["SK-LCK-001"], "Rank = RUN#{score:u64}\nthis is no line\n", "Rank", json!({"key": "RUN#1"})),
    ]
}

const RUN_SK: &str = "RUN#{score:u64 width=10 desc}#{player:text}";
const NARROW_SK: &str = "RUN#{score:u32 width=4}#{player:u16 width=3}";

/// An item's partition key (its partition fields, the shard from its sort key): a partition
/// layout, a sort layout, the partition fields but the shard, and the item's sort key.
fn partitions() -> Vec<(&'static [&'static str], Value)> {
    let mut out: Vec<(&'static [&'static str], Value)> = Vec::new();
    for sk in ["RUN#9999998499#p_8842", "RUN#9999999999#p_1", "RUN#0000000000#", "RUN#9999998499#é#x"] {
        out.push((
            &["SK-SHD-001", "SK-SHD-002"],
            json!({"partition": SEASON, "sort": RUN_SK, "fields": {"season": 2026}, "sort_key": sk}),
        ));
    }
    for sk in ["RUN#1500#007", "RUN#0000#000", "RUN#9999#655"] {
        out.push((&["SK-SHD-002"], json!({"partition": "partition S#{season:u16 width=4}#{shard:u16 shards=7 by=player}", "sort": NARROW_SK, "fields": {"season": 9}, "sort_key": sk})));
    }
    out.push((
        &["SK-SHD-002"],
        json!({"partition": SEASON, "sort": RUN_SK, "fields": {"season": 2026}, "sort_key": "RUN#999999849#p"}),
    ));
    out
}

/// Values and the shards of a count they go to.
fn shards() -> Vec<(&'static [&'static str], Value)> {
    let mut out: Vec<(&'static [&'static str], Value)> = Vec::new();
    for value in ["", "p_1", "p_8842", "é", "player#with#separators"] {
        for count in [1u16, 2, 7, 16, 1000] {
            out.push((&["SK-SHD-001"], json!({"bytes": value, "count": count})));
        }
    }
    out
}

/// Vector inputs, each with the requirements it covers.
type Inputs = Vec<(&'static [&'static str], Value)>;

/// Vectors drawn at random, by proptest's deterministic runner, from the test suite's generators
/// (random layout texts of every field type and option, values biased to the ends of their
/// ranges, mutated keys, query asks): the inputs of `RANDOM_LAYOUTS` layouts, by kind. Drawn
/// once, by `UPDATE_SPEC=1`: afterwards the files hold the inputs, and the library is held to
/// their answers (a new proptest could draw others).
fn random_inputs() -> [(&'static str, Inputs); 3] {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use sortkey_tests::texts::{self, AskEnd};
    const RANDOM_LAYOUTS: usize = 80;
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let (mut enc, mut dec, mut qry) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RANDOM_LAYOUTS {
        let layout: DynLayout = texts::layout().new_tree(&mut runner).unwrap().current();
        let text = layout.to_string();
        let values = texts::values(&layout, 6).new_tree(&mut runner).unwrap().current();
        let mut keys = Vec::new();
        for value in &values {
            // A value JSON cannot write (an instant after year 9999) is no vector.
            let Ok(fields) = serde_json::to_value(value) else { continue };
            enc.push((&["SK-ENC-001"][..], json!({"layout": text, "fields": fields})));
            if let Ok(key) = layout.encode(value) {
                keys.push(key);
            }
        }
        for key in &keys {
            dec.push((&["SK-DEC-001", "SK-DEC-002"][..], json!({"layout": text, "key": key})));
            let mutation = sortkey_tests::mutation(layout.key.separator).new_tree(&mut runner).unwrap().current();
            if let Some(mutated) = mutation.apply(key).filter(|m| m != key) {
                dec.push((&["SK-DEC-001", "SK-DEC-003"][..], json!({"layout": text, "key": mutated})));
            }
        }
        let sortkey_core::DynBody::Fields(fields) = &layout.key.body else { continue };
        if values.is_empty() {
            continue;
        }
        for _ in 0..3 {
            let ask = texts::asks(&layout, values.clone()).new_tree(&mut runner).unwrap().current();
            let json_of = |v: &DynValue| serde_json::to_value(v).unwrap_or(Value::Null);
            if serde_json::to_value(&ask.fixed).is_err() {
                continue;
            }
            let mut steps: Vec<Value> = fields[..ask.k]
                .iter()
                .map(|f| json!(["fix", f.name, json_of(ask.fixed.field(f.name).unwrap())]))
                .collect();
            let name = fields.get(ask.k).map_or("", |f| f.name);
            let op = |c: Comparison| match c {
                Comparison::Lt => "<",
                Comparison::Le => "<=",
                Comparison::Gt => ">",
                Comparison::Ge => ">=",
            };
            steps.push(match &ask.end {
                AskEnd::BeginsWith => json!(["begins_with"]),
                AskEnd::Eq => json!(["eq"]),
                AskEnd::Cmp(c, v) => json!(["compare", name, op(*c), json_of(v)]),
                AskEnd::Between(a, b) => json!(["between", name, json_of(a), json_of(b)]),
                AskEnd::Prefix(p) => json!(["text_begins_with", name, p]),
            });
            qry.push((&["SK-QRY-001", "SK-QRY-002"][..], json!({"layout": text, "steps": steps})));
        }
    }
    [("encode", enc), ("decode", dec), ("conditions", qry)]
}

// ---------------------------------------------------------------------------------------------
// What the library gives for each vector's input: the vector's outputs.

/// An error kind's name, from its `Debug` form (`TooWide { .. }` is `TooWide`).
fn kind_name(debug: &str) -> String {
    debug.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or_default().to_owned()
}

fn layout(text: &str) -> DynLayout {
    DynLayout::parse(text).unwrap_or_else(|e| panic!("a corpus layout: {text}: {e}"))
}

/// The field `name` of a layout (a family's variant's fields too).
fn field_value(layout: &DynLayout, name: &str, json: &Value) -> DynValue {
    let paths = layout.field_paths();
    let (_, field) = paths
        .iter()
        .find(|(path, _)| path == name || path.ends_with(&format!(".{name}")))
        .unwrap_or_else(|| panic!("no field {name} in {layout}"));
    field.value_seed().deserialize(json).unwrap_or_else(|e| panic!("{name}: {json}: {e}"))
}

fn comparison(op: &str) -> Comparison {
    match op {
        "<" => Comparison::Lt,
        "<=" => Comparison::Le,
        ">" => Comparison::Gt,
        ">=" => Comparison::Ge,
        _ => panic!("no comparison {op}"),
    }
}

/// A condition as the vectors give it: its shape, its values, and its expression.
fn condition_json(c: &KeyCondition) -> Value {
    let (op, values) = match c {
        KeyCondition::Eq(v) => ("=", vec![v]),
        KeyCondition::Lt(v) => ("<", vec![v]),
        KeyCondition::Le(v) => ("<=", vec![v]),
        KeyCondition::Gt(v) => (">", vec![v]),
        KeyCondition::Ge(v) => (">=", vec![v]),
        KeyCondition::Between(lo, hi) => ("between", vec![lo, hi]),
        KeyCondition::BeginsWith(p) => ("begins_with", vec![p]),
    };
    let e = c.with_partition_key("pk", "P", "sk");
    json!({
        "op": op,
        "values": values,
        "expression": e.expression,
        "names": e.names.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "expression_values": e.values.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
    })
}

fn parse_output(input: &Value) -> Value {
    match DynLayout::parse(input["text"].as_str().unwrap()) {
        Ok(l) => json!({"printed": l.to_string()}),
        Err(e) => json!({"error": {"offset": e.offset}}),
    }
}

fn encode_output(input: &Value) -> Value {
    let layout = layout(input["layout"].as_str().unwrap());
    let value = layout.value_seed().deserialize(&input["fields"]).unwrap_or_else(|e| panic!("{input}: {e}"));
    match layout.encode(&value) {
        Ok(key) => json!({"key": key}),
        Err(e) => json!({"error": {"kind": kind_name(&format!("{:?}", e.kind())), "field": e.field()}}),
    }
}

fn decode_output(input: &Value) -> Value {
    let layout = layout(input["layout"].as_str().unwrap());
    match layout.decode(input["key"].as_str().unwrap()) {
        Ok(value) => json!({"fields": serde_json::to_value(&value).unwrap()}),
        Err(e) => json!({"error": {"kind": e.kind().name(), "field": e.field(), "offset": e.offset()}}),
    }
}

fn query_output(input: &Value) -> Value {
    let layout = layout(input["layout"].as_str().unwrap());
    let mut q = layout.query();
    let mut made = None;
    for step in input["steps"].as_array().unwrap() {
        let s = |i: usize| step[i].as_str().unwrap();
        match s(0) {
            "variant" => q = q.variant(s(1)),
            "fix" => q = q.fix(s(1), &field_value(&layout, s(1), &step[2])),
            "compare" => made = Some(q.clone().compare(s(1), comparison(s(2)), &field_value(&layout, s(1), &step[3]))),
            "between" => {
                let (lo, hi) = (field_value(&layout, s(1), &step[2]), field_value(&layout, s(1), &step[3]));
                made = Some(q.clone().between(s(1), &lo, &hi));
            }
            "text_begins_with" => made = Some(q.clone().text_begins_with(s(1), s(2))),
            "begins_with" => made = Some(q.clone().begins_with()),
            "eq" => made = Some(q.clone().eq()),
            other => panic!("no step {other}"),
        }
    }
    match made.expect("a query ends with a condition") {
        Ok(c) => json!({"condition": condition_json(&c)}),
        Err(e) => {
            let kind = match e.kind() {
                sortkey_core::QueryErrorKind::Encode(k) => format!("Encode:{}", kind_name(&format!("{k:?}"))),
                k => kind_name(&format!("{k:?}")),
            };
            json!({"error": {"kind": kind, "field": e.field()}})
        }
    }
}

/// A field condition by name from steps, on the current layout's fields.
fn field_condition(current: &DynLayout, steps: &Value) -> FieldCondition {
    let mut c = FieldCondition::new();
    for step in steps.as_array().unwrap() {
        let s = |i: usize| step[i].as_str().unwrap();
        c = match s(0) {
            "fix" => c.fix(s(1), field_value(current, s(1), &step[2])),
            "compare" => c.compare(s(1), comparison(s(2)), field_value(current, s(1), &step[3])),
            "between" => c.between(s(1), field_value(current, s(1), &step[2]), field_value(current, s(1), &step[3])),
            other => panic!("no step {other}"),
        };
    }
    c
}

fn versions_output(input: &Value) -> Value {
    let lock = match LockFile::parse(input["lock"].as_str().unwrap()) {
        Ok(lock) => lock,
        Err(e) => return json!({"error": {"line": e.line}}),
    };
    let name = input["name"].as_str().unwrap();
    let live = LiveLayouts::new(lock.live(name));
    let names: Vec<&str> = live.layouts().iter().map(|(n, _)| *n).collect();
    if let Some(key) = input["key"].as_str() {
        let read = live.layouts().iter().enumerate().find_map(|(v, (_, l))| l.decode(key).ok().map(|value| (v, value)));
        return match read {
            Some((version, value)) => {
                json!({"version": version, "layout": names[version], "fields": serde_json::to_value(&value).unwrap()})
            }
            None => {
                let e = live.layouts()[0].1.decode(key).unwrap_err();
                json!({"error": {"kind": e.kind().name(), "field": e.field(), "offset": e.offset()}})
            }
        };
    }
    let current = live.layouts()[0].1;
    let conditions = live.conditions(&field_condition(current, &input["condition"])).unwrap();
    let per_version: Vec<Value> = conditions.iter().map(|c| c.as_ref().map_or(Value::Null, condition_json)).collect();
    let Some(pages) = input["merge"].as_array() else { return json!({"conditions": per_version}) };
    let pages: Vec<Vec<(String, ())>> = pages
        .iter()
        .map(|p| p.as_array().unwrap().iter().map(|k| (k.as_str().unwrap().to_owned(), ())).collect())
        .collect();
    let merged = live.merge(&conditions, pages, true);
    let results: Vec<Value> = merged
        .results
        .iter()
        .map(|r| json!({"key": r.key, "version": r.version, "current_key": r.current_key}))
        .collect();
    json!({"conditions": per_version, "results": results})
}

fn partition_output(input: &Value) -> Value {
    let partition = layout(input["partition"].as_str().unwrap());
    let sort = layout(input["sort"].as_str().unwrap());
    let sort_value = match sort.decode(input["sort_key"].as_str().unwrap()) {
        Ok(v) => v,
        Err(e) => return json!({"error": {"kind": e.kind().name(), "field": e.field(), "offset": e.offset()}}),
    };
    let sortkey_core::DynBody::Fields(fields) = &partition.key.body else { panic!("a partition key of fields") };
    let mut values = Vec::new();
    for f in fields {
        let value = match f.shards {
            Some(shards) => {
                let sortkey_core::ShardRule::By(by) = shards.rule() else { panic!("a shard by a field") };
                let segment = sort.field_segment(&sort_value, by).expect("the sort key has the field").unwrap();
                DynValue::Unsigned(u128::from(shards.of(segment.as_bytes())))
            }
            None => f.value_seed().deserialize(&input["fields"][f.name]).unwrap(),
        };
        values.push((f.name, value));
    }
    json!({"key": partition.encode(&DynValue::Key(values)).unwrap()})
}

fn shard_output(input: &Value) -> Value {
    let bytes = input["bytes"].as_str().unwrap().as_bytes();
    let count = std::num::NonZeroU16::new(input["count"].as_u64().unwrap() as u16).unwrap();
    json!({"fnv1a64": format!("{:016x}", fnv1a64(bytes)), "shard": sortkey_core::shard_of(bytes, count)})
}

// ---------------------------------------------------------------------------------------------
// The files.

/// One file of vectors: its kind, the input keys of its vectors, and how the library answers.
struct Kind {
    name: &'static str,
    inputs: &'static [&'static str],
    output: fn(&Value) -> Value,
}

const KINDS: [Kind; 7] = [
    Kind { name: "layouts", inputs: &["text"], output: parse_output },
    Kind { name: "encode", inputs: &["layout", "fields"], output: encode_output },
    Kind { name: "decode", inputs: &["layout", "key"], output: decode_output },
    Kind { name: "conditions", inputs: &["layout", "steps"], output: query_output },
    Kind { name: "versions", inputs: &["lock", "name", "key", "condition", "merge"], output: versions_output },
    Kind { name: "shards", inputs: &["bytes", "count"], output: shard_output },
    Kind { name: "partitions", inputs: &["partition", "sort", "fields", "sort_key"], output: partition_output },
];

/// The corpus's inputs of each kind, with what they cover.
fn inputs(kind: &str) -> Inputs {
    match kind {
        "layouts" => layouts().into_iter().map(|(c, t)| (c, json!({"text": t}))).collect(),
        // The fields as SK-DEC-004 writes them (integers beyond 2^53 as strings of digits).
        "encode" => encodes()
            .into_iter()
            .map(|(c, l, f)| {
                let given: Value = serde_json::from_str(f).unwrap();
                let value = layout(l).value_seed().deserialize(&given).unwrap_or_else(|e| panic!("{f}: {e}"));
                (c, json!({"layout": l, "fields": serde_json::to_value(&value).unwrap()}))
            })
            .collect(),
        "decode" => decodes().into_iter().map(|(c, l, k)| (c, json!({"layout": l, "key": k}))).collect(),
        "conditions" => queries().into_iter().map(|(c, l, s)| (c, json!({"layout": l, "steps": s}))).collect(),
        "versions" => versions()
            .into_iter()
            .map(|(c, lock, name, rest)| {
                let mut v = json!({"lock": lock, "name": name});
                v.as_object_mut().unwrap().extend(rest.as_object().unwrap().clone());
                (c, v)
            })
            .collect(),
        "shards" => shards(),
        "partitions" => partitions(),
        _ => unreachable!(),
    }
}

/// The vectors file of `kind`, as the corpus and the library make it.
fn make(kind: &Kind) -> Value {
    make_from(kind, kind.name, inputs(kind.name))
}

/// A vectors file of `kind` whose ids start with `prefix`, from `inputs` and the library's answers.
fn make_from(kind: &Kind, prefix: &str, inputs: Inputs) -> Value {
    let vectors: Vec<Value> = inputs
        .into_iter()
        .enumerate()
        .map(|(i, (covers, input))| {
            let mut v = json!({"id": format!("{prefix}-{:03}", i + 1), "covers": covers});
            let object = v.as_object_mut().unwrap();
            object.extend(input.as_object().unwrap().clone());
            object.extend((kind.output)(&input).as_object().unwrap().clone());
            v
        })
        .collect();
    json!({"format": FORMAT, "kind": kind.name, "vectors": vectors})
}

/// A vectors file's text: pretty JSON, every object's keys in sorted order (whether or not
/// serde_json keeps insertion order, which another crate of the build may switch on).
fn text(doc: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&map[k]))).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string_pretty(&sorted(doc)).unwrap() + "\n"
}

/// The requirement numbers of SPEC.md, in order.
fn requirements() -> Vec<String> {
    let spec = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec/SPEC.md")).unwrap();
    spec.lines().filter_map(|l| l.strip_prefix("### ")).filter_map(|l| l.split(' ').next()).map(str::to_owned).collect()
}

/// The SHA-256 of each vectors file of `dir`, as `FROZEN` lists them: `<hex digest>  <file>`.
fn digests(dir: &Path) -> String {
    use sha2::{Digest, Sha256};
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let digest = Sha256::digest(std::fs::read(p).unwrap());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            format!("{hex}  {}\n", p.file_name().unwrap().to_string_lossy())
        })
        .collect()
}

/// A frozen version's files are exactly those its `FROZEN` lists, byte for byte.
fn check_digests(dir: &Path) {
    let listed = std::fs::read_to_string(dir.join("FROZEN")).unwrap();
    let listed: String =
        listed.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        digests(dir),
        listed,
        "the vectors of format {FORMAT} are frozen ({}): a file changed, was added or was removed. A change of the \
         format is a new version",
        dir.display()
    );
}

/// Each vector of `doc` answered again by the library from its inputs: whether the answer is the
/// vector's, by id, into `results`.
fn check_answers(kind: &Kind, doc: &Value, results: &mut serde_json::Map<String, Value>) {
    for v in doc["vectors"].as_array().unwrap() {
        let input: serde_json::Map<String, Value> =
            kind.inputs.iter().filter_map(|k| v.get(*k).map(|x| ((*k).to_owned(), x.clone()))).collect();
        let answer = (kind.output)(&Value::Object(input));
        let pass = answer.as_object().unwrap().iter().all(|(k, x)| v.get(k) == Some(x));
        results.insert(v["id"].as_str().unwrap().to_owned(), json!(pass));
    }
}

#[test]
fn every_requirement_has_a_vector_and_every_vector_a_requirement() {
    let required = requirements();
    assert!(required.len() > 40, "SPEC.md's requirements: {required:?}");
    let mut covered = BTreeSet::new();
    for kind in &KINDS {
        for (covers, _) in inputs(kind.name) {
            for c in covers {
                assert!(required.iter().any(|r| r == c), "a {} vector covers {c}, which SPEC.md has not", kind.name);
                covered.insert(*c);
            }
        }
    }
    let missing: Vec<&String> = required.iter().filter(|r| !covered.contains(r.as_str())).collect();
    assert!(missing.is_empty(), "requirements of SPEC.md without a vector: {missing:?}");
}

#[test]
fn the_vectors_on_disk_are_the_corpus_and_the_library_still_gives_them() {
    let dir = dir();
    let frozen = dir.join("FROZEN").exists();
    let update = std::env::var_os("UPDATE_SPEC").is_some();
    if update && frozen {
        panic!(
            "the vectors of format {FORMAT} are frozen ({}): a change of the format is a new version",
            dir.display()
        );
    }
    if frozen {
        check_digests(&dir);
    }
    // The vectors of every older version stay as they were frozen.
    for older in 1..FORMAT {
        let dir = dir.with_file_name(format!("v{older}"));
        assert!(dir.join("FROZEN").exists(), "the vectors of format {older} ({}) are frozen", dir.display());
        check_digests(&dir);
    }
    let mut results = serde_json::Map::new();
    let mut stale = Vec::new();
    for kind in &KINDS {
        let made = make(kind);
        let path = dir.join(format!("{}.json", kind.name));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, text(&made)).unwrap();
            continue;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        if on_disk != text(&made) {
            stale.push(path.display().to_string());
        }
        // The Rust reader: each vector on disk, its inputs answered again by the library.
        let doc: Value = serde_json::from_str(&on_disk).unwrap_or(json!({"vectors": []}));
        check_answers(kind, &doc, &mut results);
    }
    // The random vectors: drawn only when updating; otherwise the library is held to them.
    let random = if update { Some(random_inputs()) } else { None };
    for name in ["encode", "decode", "conditions"] {
        let kind = KINDS.iter().find(|k| k.name == name).unwrap();
        let path = dir.join(format!("random-{name}.json"));
        if let Some(random) = &random {
            let (_, inputs) = random.iter().find(|(n, _)| *n == name).unwrap();
            std::fs::write(&path, text(&make_from(kind, &format!("random-{name}"), inputs.clone()))).unwrap();
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default())
            .unwrap_or_else(|_| panic!("{} is missing: UPDATE_SPEC=1 draws it", path.display()));
        check_answers(kind, &doc, &mut results);
    }
    if update {
        // `UPDATE_SPEC=freeze`: the files written are the version's last; FROZEN keeps their digests.
        if std::env::var("UPDATE_SPEC").is_ok_and(|v| v == "freeze") {
            let note = format!(
                "# The vectors of format {FORMAT}, frozen: each file's SHA-256. A change of the format is a new version.\n"
            );
            std::fs::write(dir.join("FROZEN"), note + &digests(&dir)).unwrap();
        }
        return;
    }
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/spec");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("rust.json"), text(&Value::Object(results.clone()))).unwrap();
    assert!(
        stale.is_empty(),
        "the vectors differ from what the library makes: {stale:?}. {}",
        if frozen {
            "They are frozen: the library's format changed, which a format version must say."
        } else {
            "Not frozen yet: UPDATE_SPEC=1 cargo test -p sortkey-tests --test spec writes them."
        }
    );
    let failed: Vec<&String> = results.iter().filter(|(_, p)| **p != json!(true)).map(|(id, _)| id).collect();
    assert!(failed.is_empty(), "vectors the library no longer gives: {failed:?}");
}
