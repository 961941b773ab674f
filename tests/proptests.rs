//! Property tests of derived key types (the four properties of the README's "Format"):
//! round trip, byte order equals field order, canonical decoding of arbitrary and mutated
//! keys, decode never panics, `encode_into` leaves its buffer alone on error, and a non-final
//! text with a character at or below the separator is an error naming the field.
//!
//! Each property is checked against a model written out by hand per type (the field order
//! and the fit rules), not against the type's own `Ord` or the encoder.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::TestCaseError;
use sortkey_core::{DecodeError, DecodeKey, EncodeErrorKind, SortKey};
use sortkey_tests::{
    Domain, config, forbidden_text, key_like, mutation, pair, signed, signed_fits, signed_magnitude, text, text_char,
    text_fits, unsigned, unsigned_fits,
};

/// Cases per property; the whole file runs in a few seconds in debug.
const CASES: u32 = 2000;

/// The leaderboard key of the crate docs: a prefix, a narrow desc field, a final text.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct Rank {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player: String,
}

/// Separator `|`; narrow signed, desc signed at the default width, `max`, both bools, a
/// non-final `char` and a non-final text, and a narrow desc field with `max` last.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "EV", separator = '|')]
struct Event {
    #[key(width = 4)]
    delta: i32,
    #[key(desc)]
    balance: i64,
    #[key(max = 200)]
    level: u8,
    active: bool,
    #[key(desc)]
    pinned: bool,
    grade: char,
    region: String,
    #[key(width = 3, desc, max = 500)]
    slot: u16,
}

/// No prefix, and the key starts with a text; narrow unsigned and desc signed in the middle.
#[derive(SortKey, Debug, Clone, PartialEq)]
struct Path {
    dir: String,
    #[key(width = 2)]
    depth: u8,
    #[key(width = 5, desc)]
    size: i32,
    file: String,
}

/// The widest integers at their default widths both ways, the narrowest widths, a final `char`.
#[derive(SortKey, Debug, Clone, PartialEq)]
struct Wide {
    a: u128,
    #[key(desc)]
    b: u128,
    c: i128,
    #[key(desc)]
    d: i128,
    e: usize,
    f: isize,
    #[key(desc)]
    g: i8,
    #[key(width = 1)]
    h: u64,
    #[key(width = 2, desc)]
    i: i16,
    last: char,
}

/// Borrowed text: decoding allocates nothing; signed with `max`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "DOC")]
struct Doc<'a> {
    owner: &'a str,
    #[key(width = 6)]
    version: u32,
    #[key(width = 5, max = 1000)]
    page: i16,
    title: Cow<'a, str>,
}

/// Why the model says a field cannot be encoded; compared with the [`EncodeErrorKind`].
#[derive(Debug, Clone, PartialEq)]
enum Unfit {
    TooWide { value: String, width: u32 },
    AboveMax { value: String, max: u128 },
    ForbiddenChar { ch: char, offset: usize },
}

impl Unfit {
    fn matches(&self, kind: &EncodeErrorKind) -> bool {
        match (self, kind) {
            (Unfit::TooWide { value, width }, EncodeErrorKind::TooWide { value: v, width: w, .. }) => {
                value == v && width == w
            }
            (Unfit::AboveMax { value, max }, EncodeErrorKind::AboveMax { value: v, max: m }) => value == v && max == m,
            (Unfit::ForbiddenChar { ch, offset }, EncodeErrorKind::ForbiddenChar { ch: c, offset: o, .. }) => {
                ch == c && offset == o
            }
            _ => false,
        }
    }
}

type Verdict = Option<(&'static str, Unfit)>;

/// The model of an unsigned field: `max` is checked before the width.
fn check_u(field: &'static str, v: impl Into<u128>, width: u32, max: Option<u128>) -> Verdict {
    let v = v.into();
    if max.is_some_and(|m| v > m) {
        return Some((field, Unfit::AboveMax { value: v.to_string(), max: max.unwrap_or_default() }));
    }
    (!unsigned_fits(v, width, None)).then(|| (field, Unfit::TooWide { value: v.to_string(), width }))
}

/// The model of a signed field: `max` bounds from above only, and before the width.
fn check_i(field: &'static str, v: impl Into<i128>, width: u32, max: Option<u128>) -> Verdict {
    let v = v.into();
    if let Some(m) = max
        && v > 0
        && v.unsigned_abs() > m
    {
        return Some((field, Unfit::AboveMax { value: v.to_string(), max: m }));
    }
    debug_assert_eq!(signed_fits(v, width, None), v.unsigned_abs() <= signed_magnitude(width));
    (!signed_fits(v, width, None)).then(|| (field, Unfit::TooWide { value: v.to_string(), width }))
}

/// The model of a text field: outside the last position, the first character not greater
/// than the separator is the error.
fn check_text(field: &'static str, text: &str, separator: char, last: bool) -> Verdict {
    if text_fits(text, separator, last) {
        return None;
    }
    let (offset, ch) = text.char_indices().find(|&(_, c)| c <= separator)?;
    Some((field, Unfit::ForbiddenChar { ch, offset }))
}

/// What the properties need to know about a key type beyond its derive.
trait Model: SortKey + Clone + Debug + PartialEq {
    /// The names of the fields, which decode errors may name.
    const FIELDS: &'static [&'static str];
    /// Field by field in declaration order, `desc` fields reversed.
    fn reference_cmp(&self, other: &Self) -> Ordering;
    /// The first field, in declaration order, whose value the format cannot hold, and why.
    fn first_unfit(&self) -> Verdict;
    /// `decode`, owned; for owned types also checks that `FromStr` agrees.
    fn decode_owned(key: &str) -> Result<Self, DecodeError>;
}

/// `decode_owned` of a type that owns its data.
macro_rules! decode_and_parse {
    () => {
        fn decode_owned(key: &str) -> Result<Self, DecodeError> {
            let decoded = <Self as SortKey>::decode(key);
            assert_eq!(key.parse::<Self>(), decoded, "FromStr and decode disagree on {key:?}");
            decoded
        }
    };
}

impl Model for Rank {
    const FIELDS: &'static [&'static str] = &["score", "timestamp", "player"];
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (other.score.cmp(&self.score))
            .then(self.timestamp.cmp(&other.timestamp))
            .then(self.player.as_bytes().cmp(other.player.as_bytes()))
    }

    fn first_unfit(&self) -> Verdict {
        check_u("score", self.score, 10, None).or_else(|| check_u("timestamp", self.timestamp, 16, None))
    }

    decode_and_parse!();
}

impl Model for Event {
    const FIELDS: &'static [&'static str] =
        &["delta", "balance", "level", "active", "pinned", "grade", "region", "slot"];
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (self.delta.cmp(&other.delta))
            .then(other.balance.cmp(&self.balance))
            .then(self.level.cmp(&other.level))
            .then(self.active.cmp(&other.active))
            .then(other.pinned.cmp(&self.pinned))
            .then((self.grade as u32).cmp(&(other.grade as u32)))
            .then(self.region.as_bytes().cmp(other.region.as_bytes()))
            .then(other.slot.cmp(&self.slot))
    }

    fn first_unfit(&self) -> Verdict {
        let grade = self.grade.to_string();
        check_i("delta", self.delta, 4, None)
            .or_else(|| check_i("balance", self.balance, 20, None))
            .or_else(|| check_u("level", self.level, 3, Some(200)))
            .or_else(|| check_text("grade", &grade, '|', false))
            .or_else(|| check_text("region", &self.region, '|', false))
            .or_else(|| check_u("slot", self.slot, 3, Some(500)))
    }

    decode_and_parse!();
}

impl Model for Path {
    const FIELDS: &'static [&'static str] = &["dir", "depth", "size", "file"];
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (self.dir.as_bytes().cmp(other.dir.as_bytes()))
            .then(self.depth.cmp(&other.depth))
            .then(other.size.cmp(&self.size))
            .then(self.file.as_bytes().cmp(other.file.as_bytes()))
    }

    fn first_unfit(&self) -> Verdict {
        check_text("dir", &self.dir, '#', false)
            .or_else(|| check_u("depth", self.depth, 2, None))
            .or_else(|| check_i("size", self.size, 5, None))
    }

    decode_and_parse!();
}

impl Model for Wide {
    const FIELDS: &'static [&'static str] = &["a", "b", "c", "d", "e", "f", "g", "h", "i", "last"];
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (self.a.cmp(&other.a))
            .then(other.b.cmp(&self.b))
            .then(self.c.cmp(&other.c))
            .then(other.d.cmp(&self.d))
            .then(self.e.cmp(&other.e))
            .then(self.f.cmp(&other.f))
            .then(other.g.cmp(&self.g))
            .then(self.h.cmp(&other.h))
            .then(other.i.cmp(&self.i))
            .then((self.last as u32).cmp(&(other.last as u32)))
    }

    fn first_unfit(&self) -> Verdict {
        check_u("h", self.h, 1, None).or_else(|| check_i("i", self.i, 2, None))
    }

    decode_and_parse!();
}

impl Model for Doc<'static> {
    const FIELDS: &'static [&'static str] = &["owner", "version", "page", "title"];
    fn reference_cmp(&self, other: &Self) -> Ordering {
        (self.owner.as_bytes().cmp(other.owner.as_bytes()))
            .then(self.version.cmp(&other.version))
            .then(self.page.cmp(&other.page))
            .then(self.title.as_bytes().cmp(other.title.as_bytes()))
    }

    fn first_unfit(&self) -> Verdict {
        check_text("owner", self.owner, '#', false)
            .or_else(|| check_u("version", self.version, 6, None))
            .or_else(|| check_i("page", self.page, 5, Some(1000)))
    }

    fn decode_owned(key: &str) -> Result<Self, DecodeError> {
        let doc = Doc::decode_borrowed(key)?;
        // Decoded text borrows from the key; the model keeps owned copies.
        assert!(within(doc.owner, key) && matches!(&doc.title, Cow::Borrowed(t) if within(t, key)));
        Ok(Doc { owner: leak(doc.owner), title: Cow::Owned(doc.title.into_owned()), ..doc })
    }
}

/// Whether `part` lies inside `whole`'s memory.
fn within(part: &str, whole: &str) -> bool {
    let range = whole.as_bytes().as_ptr_range();
    range.start <= part.as_ptr() && part.as_ptr().wrapping_add(part.len()) <= range.end
}

/// A `&'static str` for generated `Doc` values; a few bytes per case, only in this test binary.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

// ---- generators: `one` yields single values, `pairs` pairs that share fields half of the time.

fn rank_pairs(d: Domain) -> BoxedStrategy<(Rank, Rank)> {
    (pair(unsigned(10, None, d)), pair(unsigned(16, None, d)), pair(text('#', true, d, 6)))
        .prop_map(|((s1, s2), (t1, t2), (p1, p2))| {
            (Rank { score: s1, timestamp: t1, player: p1 }, Rank { score: s2, timestamp: t2, player: p2 })
        })
        .boxed()
}

fn event_pairs(d: Domain) -> BoxedStrategy<(Event, Event)> {
    let numbers = (
        pair(signed(4, None, d)),
        pair(signed(20, None, d)),
        pair(unsigned(3, Some(200), d)),
        pair(unsigned(3, Some(500), d)),
    );
    let rest = (
        pair(any::<bool>().boxed()),
        pair(any::<bool>().boxed()),
        pair(text_char('|', false, d)),
        pair(text('|', false, d, 5)),
    );
    (numbers, rest)
        .prop_map(|(((de1, de2), (b1, b2), (l1, l2), (s1, s2)), ((a1, a2), (p1, p2), (g1, g2), (r1, r2)))| {
            let e1 =
                Event { delta: de1, balance: b1, level: l1, active: a1, pinned: p1, grade: g1, region: r1, slot: s1 };
            let e2 =
                Event { delta: de2, balance: b2, level: l2, active: a2, pinned: p2, grade: g2, region: r2, slot: s2 };
            (e1, e2)
        })
        .boxed()
}

fn path_pairs(d: Domain) -> BoxedStrategy<(Path, Path)> {
    (pair(text('#', false, d, 5)), pair(unsigned(2, None, d)), pair(signed(5, None, d)), pair(text('#', true, d, 5)))
        .prop_map(|((d1, d2), (e1, e2), (s1, s2), (f1, f2))| {
            (Path { dir: d1, depth: e1, size: s1, file: f1 }, Path { dir: d2, depth: e2, size: s2, file: f2 })
        })
        .boxed()
}

fn wide_pairs(d: Domain) -> BoxedStrategy<(Wide, Wide)> {
    let big = (
        pair(unsigned(39, None, d)),
        pair(unsigned(39, None, d)),
        pair(signed(40, None, d)),
        pair(signed(40, None, d)),
        pair(unsigned(20, None, d)),
    );
    let small = (
        pair(signed(20, None, d)),
        pair(signed(4, None, d)),
        pair(unsigned(1, None, d)),
        pair(signed(2, None, d)),
        pair(text_char('#', true, d)),
    );
    (big, small)
        .prop_map(
            |(
                ((a1, a2), (b1, b2), (c1, c2), (d1, d2), (e1, e2)),
                ((f1, f2), (g1, g2), (h1, h2), (i1, i2), (l1, l2)),
            )| {
                let w1 = Wide { a: a1, b: b1, c: c1, d: d1, e: e1, f: f1, g: g1, h: h1, i: i1, last: l1 };
                let w2 = Wide { a: a2, b: b2, c: c2, d: d2, e: e2, f: f2, g: g2, h: h2, i: i2, last: l2 };
                (w1, w2)
            },
        )
        .boxed()
}

fn doc_pairs(d: Domain) -> BoxedStrategy<(Doc<'static>, Doc<'static>)> {
    let title = (text('#', true, d, 6), any::<bool>())
        .prop_map(|(t, owned)| if owned { Cow::Owned(t) } else { Cow::Borrowed(leak(&t)) })
        .boxed();
    let owner = text('#', false, d, 5).prop_map(|t| leak(&t)).boxed();
    (pair(owner), pair(unsigned(6, None, d)), pair(signed(5, Some(1000), d)), pair(title))
        .prop_map(|((o1, o2), (v1, v2), (p1, p2), (t1, t2))| {
            (Doc { owner: o1, version: v1, page: p1, title: t1 }, Doc { owner: o2, version: v2, page: p2, title: t2 })
        })
        .boxed()
}

fn one<T: Debug + Clone + 'static>(pairs: BoxedStrategy<(T, T)>) -> BoxedStrategy<T> {
    pairs.prop_map(|(a, _)| a).boxed()
}

// ---- the properties, generic over the model.

/// (1) Round trip, and encode fails exactly when (and where, and why) the model says it must.
fn round_trip<T: Model>(x: &T) -> Result<(), TestCaseError> {
    match (x.encode(), x.first_unfit()) {
        (Ok(key), None) => {
            prop_assert_eq!(&T::decode_owned(&key)?, x, "key {:?}", key);
            if let Some(len) = T::ENCODED_LEN {
                prop_assert_eq!(key.len(), len, "the constant length of {:?}", key);
            }
        }
        (Err(e), Some((field, why))) => {
            prop_assert_eq!(e.field(), Some(field), "{}", e);
            prop_assert!(why.matches(e.kind()), "expected {:?}, got {:?}", why, e.kind());
        }
        (Ok(key), Some((field, why))) => {
            prop_assert!(false, "{:?} encoded to {:?}, but field `{}` cannot: {:?}", x, key, field, why)
        }
        (Err(e), None) => prop_assert!(false, "{:?} fits, but encode failed: {}", x, e),
    }
    Ok(())
}

/// (2) Byte order of the keys equals the reference order of the fields.
fn order<T: Model>(x: &T, y: &T) -> Result<(), TestCaseError> {
    let (kx, ky) = (x.encode()?, y.encode()?);
    prop_assert_eq!(
        x.reference_cmp(y),
        kx.as_bytes().cmp(ky.as_bytes()),
        "{:?} vs {:?}: keys {:?} vs {:?}",
        x,
        y,
        kx,
        ky
    );
    Ok(())
}

/// (3, 4) A string that decodes is the key of its value; one that does not gets an error that
/// points inside it and names a real field. Panics fail the property.
fn canonical<T: Model>(key: &str) -> Result<(), TestCaseError> {
    match T::decode_owned(key) {
        Ok(v) => prop_assert_eq!(v.encode()?, key, "decoded as {:?}", v),
        Err(e) => {
            prop_assert!(e.offset() <= key.len(), "{} (key has {} bytes)", e, key.len());
            let named = e.field().is_none_or(|f| T::FIELDS.contains(&f));
            prop_assert!(named, "{} names no field of the type", e);
        }
    }
    Ok(())
}

/// (3) Canonical for mutations of a valid key, applied one after another.
fn canonical_mutations<T: Model>(x: &T, edits: &[sortkey_tests::Mutation]) -> Result<(), TestCaseError> {
    let mut key = x.encode()?;
    canonical::<T>(&key)?;
    for edit in edits {
        if let Some(next) = edit.apply(&key) {
            canonical::<T>(&next)?;
            key = next;
        }
    }
    Ok(())
}

/// (5) On error the buffer is exactly as it was; on success the key is appended.
fn encode_into_keeps_buffer<T: Model>(x: &T, before: &str) -> Result<(), TestCaseError> {
    let mut buf = before.to_owned();
    match (x.encode_into(&mut buf), x.encode()) {
        (Ok(()), Ok(key)) => prop_assert_eq!(buf, format!("{before}{key}")),
        (Err(e), Err(e2)) => {
            prop_assert_eq!(&buf, before);
            prop_assert_eq!(e, e2);
        }
        (into, alone) => prop_assert!(false, "encode_into gave {:?}, encode {:?}", into, alone),
    }
    Ok(())
}

/// (6) A text with a character at or below the separator in a non-final field is an error of
/// that field at that character, never a key.
fn forbidden<T: Model>(x: &T, field: &'static str, text: &str, separator: char) -> Result<(), TestCaseError> {
    let (offset, ch) = text.char_indices().find(|&(_, c)| c <= separator).expect("generator puts one in");
    match x.encode() {
        Ok(key) => prop_assert!(false, "{:?} encoded to {:?}", x, key),
        Err(e) => {
            prop_assert_eq!(e.field(), Some(field));
            prop_assert_eq!(e.kind(), &EncodeErrorKind::ForbiddenChar { ch, offset, separator });
        }
    }
    Ok(())
}

/// The six properties for one model type.
macro_rules! properties {
    ($($module:ident: $t:ty = $pairs:ident, separator $sep:literal, prefix $prefix:literal, grammar $grammar:literal;)*) => {$(
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(config(CASES))]

                #[test]
                fn round_trip_or_the_error_the_model_expects(x in one($pairs(Domain::Any))) {
                    round_trip(&x)?;
                }

                #[test]
                fn byte_order_is_field_order((x, y) in $pairs(Domain::Valid)) {
                    order(&x, &y)?;
                }

                #[test]
                fn mutated_keys_decode_canonically_or_not_at_all(
                    x in one($pairs(Domain::Valid)),
                    edits in proptest::collection::vec(mutation($sep), 1..4),
                ) {
                    canonical_mutations(&x, &edits)?;
                }

                #[test]
                fn arbitrary_strings_decode_canonically_or_not_at_all(s in key_like($sep, $prefix, $grammar)) {
                    canonical::<$t>(&s)?;
                }

                #[test]
                fn encode_into_leaves_the_buffer_on_error(
                    x in one($pairs(Domain::Any)),
                    before in text($sep, true, Domain::Any, 4),
                ) {
                    encode_into_keeps_buffer(&x, &before)?;
                }
            }
        }
    )*};
}

// The grammars spell each type's segments as a regex that also admits values out of range,
// negative zero, `+` and forbidden characters, so that some of the strings decode and many
// come close. Leading digits are chosen per encoding: a desc or negative segment of a wide
// type that fits starts with nines.
properties! {
    rank: Rank = rank_pairs, separator '#', prefix "RUN",
        grammar "RUN#[0-9]{10}#[0-9]{16}#[ #a-z\\x{10FFFF}]{0,4}";
    event: Event = event_pairs, separator '|', prefix "EV",
        grammar "EV\\|[-0+][0-9]{3}\\|[-0][0-9]{19}\\|[0-2][0-9]{2}\\|[0-2]\\|[0-2]\\|[{|}~é\\x{10FFFF}]\\|[{}~é]{0,3}\\|[0-9]{3}";
    path: Path = path_pairs, separator '#', prefix "",
        grammar "[ !#$a\\x{10FFFF}]{0,3}#[0-9]{2}#[-0][0-9]{4}#.{0,3}";
    wide: Wide = wide_pairs, separator '#', prefix "",
        grammar "[0-3][0-9]{38}#[6-9][0-9]{38}#(0[0-2]|-[7-9])[0-9]{38}#(0[0-2]|-[7-9])[0-9]{38}#[01][0-9]{19}#[-0][0-9]{19}#(0[01]|-[89])[0-9]{2}#[0-9]#[-0][0-9]#.";
    doc: Doc<'static> = doc_pairs, separator '#', prefix "DOC",
        grammar "DOC#[ !#$a-c\\x{10FFFF}]{0,3}#[0-9]{6}#[-0][01][0-9]{3}#.{0,3}";
}

/// A forbidden `char` (at or below the separator) for a non-final `char` field.
fn forbidden_char(separator: char) -> BoxedStrategy<char> {
    forbidden_text(separator).prop_map(move |t| t.chars().find(|&c| c <= separator).unwrap_or('\0')).boxed()
}

proptest! {
    #![proptest_config(config(CASES))]

    #[test]
    fn forbidden_char_in_a_non_final_char_is_an_error(x in one(event_pairs(Domain::Valid)), ch in forbidden_char('|')) {
        forbidden(&Event { grade: ch, ..x }, "grade", &ch.to_string(), '|')?;
    }

    #[test]
    fn forbidden_char_in_a_non_final_text_is_an_error(x in one(event_pairs(Domain::Valid)), bad in forbidden_text('|')) {
        forbidden(&Event { region: bad.clone(), ..x }, "region", &bad, '|')?;
    }

    #[test]
    fn forbidden_char_in_a_first_text_is_an_error(x in one(path_pairs(Domain::Valid)), bad in forbidden_text('#')) {
        forbidden(&Path { dir: bad.clone(), ..x }, "dir", &bad, '#')?;
    }

    #[test]
    fn forbidden_char_in_a_borrowed_text_is_an_error(x in one(doc_pairs(Domain::Valid)), bad in forbidden_text('#')) {
        forbidden(&Doc { owner: leak(&bad), ..x }, "owner", &bad, '#')?;
    }

    #[test]
    fn decoded_text_borrows_from_the_key(x in one(doc_pairs(Domain::Valid))) {
        let key = x.encode()?;
        let doc = Doc::decode_borrowed(&key)?;
        prop_assert!(within(doc.owner, &key));
        prop_assert!(matches!(&doc.title, Cow::Borrowed(t) if within(t, &key)));
        prop_assert_eq!(doc, x);
    }
}
