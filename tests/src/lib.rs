//! Shared helpers of the integration tests: proptest generators biased to the edges of the key
//! format, the independent fit rules they are checked against, and mutations of valid keys.
//!
//! The generators come in two [`Domain`]s: [`Domain::Valid`] yields only values a field can
//! encode (for round trip and order), [`Domain::Any`] the whole type, biased to the first values
//! that do *not* fit (`10^w`, `max + 1`), so that the tests see the error path as often as the
//! happy one.

pub mod docs;
pub mod law;
pub mod leaderboard;
pub mod rng;
#[cfg(feature = "extra-types")]
pub mod samples;
#[cfg(feature = "extra-types")]
pub mod texts;
pub mod versions;
/// The moto server of the DynamoDB tests (its own crate, which the `sortkey` command's tests use too).
#[cfg(feature = "dynamodb")]
pub use sortkey_test_server as server;
#[cfg(feature = "dynamodb")]
pub mod index_table;

use std::fmt::Debug;

/// The README's Rust examples, compiled and run as doctests so that they stay true; those that
/// need a server (`no_run` here) run on moto too, the front door's in a fresh crate
/// (tests/front_door.rs). Hosted here for the dev-dependencies a service has: the SDK, tokio,
/// serde and sortkey-core's `dynamodb` feature.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

/// The book's pages (docs/src, in the order of its SUMMARY.md), compiled and run as the README
/// is: every Rust block of the guide and the reference is a doctest. tests/book.rs checks that
/// this list names every page of the summary.
#[cfg(doctest)]
mod book {
    macro_rules! pages {
        ($($name:ident = $path:literal,)*) => {$(
            #[doc = include_str!(concat!("../../docs/src/", $path))]
            pub struct $name;
        )*};
    }
    pages! {
    Introduction = "introduction.md",
    GuideOneKey = "guide/one-key.md",
    GuideAttributes = "guide/attributes.md",
    GuideFieldTypes = "guide/field-types.md",
    GuideFloatsAndDecimals = "guide/floats-and-decimals.md",
    GuideQueries = "guide/queries.md",
    GuideDynamodb = "guide/dynamodb.md",
    GuideSingleTable = "guide/single-table.md",
    GuideEntitiesAndIndexes = "guide/entities-and-indexes.md",
    GuideShardedKeys = "guide/sharded-keys.md",
    GuideRanks = "guide/ranks.md",
    GuideServiceDuringAMigration = "guide/service-during-a-migration.md",
    LayoutsChanging = "layouts/changing.md",
    LayoutsLocking = "layouts/locking.md",
    LayoutsReadingTwoLayouts = "layouts/reading-two-layouts.md",
    LayoutsEntityKeys = "layouts/entity-keys.md",
    LayoutsBackfill = "layouts/backfill.md",
    LayoutsRunnable = "layouts/runnable.md",
    CommandIndex = "command/index.md",
    CommandLayouts = "command/layouts.md",
    CommandAudit = "command/audit.md",
    CommandQuery = "command/query.md",
    CommandBrowse = "command/browse.md",
    CommandMigrate = "command/migrate.md",
    CommandRank = "command/rank.md",
    CommandServe = "command/serve.md",
    ReferenceJson = "reference/json.md",
    ReferenceJsonLayouts = "reference/json/layouts.md",
    ReferenceJsonTables = "reference/json/tables.md",
    ReferenceJsonAudit = "reference/json/audit.md",
    ReferenceJsonAuditPartial = "reference/json/audit-partial.md",
    ReferenceJsonBrowse = "reference/json/browse.md",
    ReferenceJsonQuery = "reference/json/query.md",
    ReferenceJsonMigrate = "reference/json/migrate.md",
    ReferenceJsonMigrateStatus = "reference/json/migrate-status.md",
    ReferenceJsonRank = "reference/json/rank.md",
    ReferenceFormat = "reference/format.md",
    ReferenceReaders = "reference/readers.md",
    ReferenceRefusals = "reference/refusals.md",
    ReferenceCompilerMessages = "reference/compiler-messages.md",
    ReferencePerformance = "reference/performance.md",
    ContributingWorkspace = "contributing/workspace.md",
    ContributingSimulation = "contributing/simulation.md",
    }
}

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::Config;

/// Which values a generator yields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Only values the field can encode.
    Valid,
    /// Every value of the type, biased to the edges on both sides of what fits.
    Any,
}

/// The proptest configuration of the property tests: `cases` cases, no regression files
/// written into the source tree (a failure prints its minimal input; pin it as a `#[test]`).
pub fn config(cases: u32) -> Config {
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// `10^exp`, `None` when it exceeds `u128::MAX` (from `exp = 39` on).
pub fn pow10(exp: u32) -> Option<u128> {
    10u128.checked_pow(exp)
}

/// The largest unsigned value a field of `width` digits, type maximum `type_max` and optional
/// `#[key(max)]` accepts.
pub fn unsigned_limit(width: u32, type_max: u128, max: Option<u128>) -> u128 {
    let by_width = pow10(width).map_or(u128::MAX, |p| p - 1);
    by_width.min(type_max).min(max.unwrap_or(u128::MAX))
}

/// Whether an unsigned `v` fits a field: `v < 10^width` and `v <= max`.
pub fn unsigned_fits(v: u128, width: u32, max: Option<u128>) -> bool {
    v <= unsigned_limit(width, u128::MAX, max)
}

/// The largest magnitude a signed field of `width` characters holds: `10^(width-1) - 1`.
pub fn signed_magnitude(width: u32) -> u128 {
    pow10(width - 1).map_or(u128::MAX, |p| p - 1)
}

/// Whether a signed `v` fits a field: `|v| < 10^(width-1)` and `v <= max` (max bounds from above only).
pub fn signed_fits(v: i128, width: u32, max: Option<u128>) -> bool {
    let below_max = v < 0 || max.is_none_or(|m| v.unsigned_abs() <= m);
    v.unsigned_abs() <= signed_magnitude(width) && below_max
}

/// Whether `text` may be a segment: anything in the last position, otherwise only characters
/// greater than the separator.
pub fn text_fits(text: &str, separator: char, last: bool) -> bool {
    last || text.chars().all(|c| c > separator)
}

/// An unsigned integer type a key field can have.
pub trait Unsigned: Copy + Debug + 'static {
    /// `Self::MAX` as a `u128`.
    const MAX: u128;
    /// The value `v`, which the caller keeps within `0..=MAX`.
    fn from_u128(v: u128) -> Self;
}

/// A signed integer type a key field can have.
pub trait Signed: Copy + Debug + 'static {
    /// `Self::MIN` as an `i128`.
    const MIN: i128;
    /// `Self::MAX` as an `i128`.
    const MAX: i128;
    /// The value `v`, which the caller keeps within `MIN..=MAX`.
    fn from_i128(v: i128) -> Self;
}

macro_rules! int_impls {
    (unsigned: $($u:ty)*; signed: $($i:ty)*) => {
        $(impl Unsigned for $u {
            const MAX: u128 = <$u>::MAX as u128;
            fn from_u128(v: u128) -> Self {
                <$u>::try_from(v).expect("generator stays within the type")
            }
        })*
        $(impl Signed for $i {
            const MIN: i128 = <$i>::MIN as i128;
            const MAX: i128 = <$i>::MAX as i128;
            fn from_i128(v: i128) -> Self {
                <$i>::try_from(v).expect("generator stays within the type")
            }
        })*
    };
}

int_impls!(unsigned: u8 u16 u32 u64 u128 usize; signed: i8 i16 i32 i64 i128 isize);

/// A `u128` in `0..=hi` whose number of digits is uniform, so short and long values are equally likely.
fn log_uniform(hi: u128) -> BoxedStrategy<u128> {
    let digits = hi.checked_ilog10().map_or(1, |d| d + 1);
    (0..=digits).prop_flat_map(move |k| 0..=pow10(k).map_or(hi, |p| (p - 1).min(hi))).boxed()
}

/// Values of an unsigned field of `width` digits with an optional `max`.
///
/// Biased to `0`, `1`, the largest value that fits and the one below it, and in
/// [`Domain::Any`] also to `10^width`, `max + 1` and `T::MAX`, which must be encode errors.
pub fn unsigned<T: Unsigned>(width: u32, max: Option<u128>, domain: Domain) -> BoxedStrategy<T> {
    let limit = unsigned_limit(width, T::MAX, max);
    let edges = vec![0, 1.min(limit), limit, limit.saturating_sub(1)];
    let valid = prop_oneof![3 => select(edges), 2 => log_uniform(limit), 1 => 0..=limit];
    let strategy = match domain {
        Domain::Valid => valid.boxed(),
        Domain::Any => {
            let above = [limit.checked_add(1), pow10(width), pow10(width).and_then(|p| p.checked_add(1))];
            let mut edges: Vec<u128> = above.into_iter().flatten().filter(|&v| v <= T::MAX).collect();
            edges.extend([T::MAX, T::MAX - 1]);
            let any = prop_oneof![2 => select(edges), 1 => log_uniform(T::MAX), 1 => 0..=T::MAX];
            // About one value in eight does not fit, so that a key of several fields still often encodes.
            prop_oneof![7 => valid, 1 => any].boxed()
        }
    };
    strategy.prop_map(T::from_u128).boxed()
}

/// Values of a signed field of `width` characters with an optional `max`.
///
/// Biased to `0`, `±1`, the largest and smallest values that fit and their neighbours inside,
/// and in [`Domain::Any`] also to `±10^(width-1)`, `max + 1`, `T::MIN` and `T::MAX`.
pub fn signed<T: Signed>(width: u32, max: Option<u128>, domain: Domain) -> BoxedStrategy<T> {
    let mag = signed_magnitude(width);
    // Both casts are exact: each side is clamped to the type first.
    let hi = mag.min(T::MAX as u128).min(max.unwrap_or(u128::MAX)) as i128;
    let lo = if mag >= T::MIN.unsigned_abs() { T::MIN } else { -(mag as i128) };
    let edges = vec![0, 1, -1, hi, hi - 1, lo, lo + 1];
    let valid = signed_in(lo, hi, edges);
    let strategy = match domain {
        Domain::Valid => valid,
        Domain::Any => {
            let power = pow10(width - 1).and_then(|p| i128::try_from(p).ok());
            let max_plus_one = max.and_then(|m| i128::try_from(m).ok()).and_then(|m| m.checked_add(1));
            let above = [hi.checked_add(1), lo.checked_sub(1), power, power.map(|p| -p), max_plus_one];
            let mut edges: Vec<i128> = above.into_iter().flatten().collect();
            edges.extend([T::MIN, T::MAX, T::MIN + 1, T::MAX - 1]);
            prop_oneof![7 => valid, 1 => signed_in(T::MIN, T::MAX, edges)].boxed()
        }
    };
    strategy.prop_map(T::from_i128).boxed()
}

/// Values in `lo..=hi`: the `edges` among them, log-uniform magnitudes of either sign, uniform.
fn signed_in(lo: i128, hi: i128, mut edges: Vec<i128>) -> BoxedStrategy<i128> {
    edges.retain(|v| (lo..=hi).contains(v));
    let magnitude = log_uniform(lo.unsigned_abs().max(hi.unsigned_abs()));
    let spread = (magnitude, any::<bool>()).prop_filter_map("outside the range", move |(m, neg)| {
        let v = if neg { 0i128.checked_sub_unsigned(m)? } else { i128::try_from(m).ok()? };
        (lo..=hi).contains(&v).then_some(v)
    });
    prop_oneof![3 => select(edges), 2 => spread, 1 => lo..=hi].boxed()
}

/// Characters that matter to a key with this `separator`: the separator and its neighbours,
/// control characters, `#`, `-`, digits, the top of ASCII, and one- to four-byte UTF-8 up to U+10FFFF.
pub fn edge_chars(separator: char) -> Vec<char> {
    let sep = separator as u32;
    let neighbours = [sep - 1, sep, sep + 1].into_iter().filter_map(char::from_u32);
    let fixed = [
        '\0',
        '\u{1}',
        '\t',
        ' ',
        '!',
        '"',
        '#',
        '$',
        '-',
        '/',
        '0',
        '9',
        ':',
        'A',
        'Z',
        '_',
        'a',
        'b',
        'z',
        '|',
        '}',
        '~',
        '\u{7f}',
        '\u{80}',
        'é',
        '\u{7ff}',
        '\u{800}',
        '€',
        '٣',
        '\u{d7ff}',
        '\u{e000}',
        '\u{fffd}',
        '\u{ffff}',
        '\u{10000}',
        '😀',
        '\u{10ffff}',
    ];
    neighbours.chain(fixed).collect()
}

/// One character of a text segment: an [`edge_chars`] character, a small alphabet (so that
/// texts share prefixes) or any `char`; outside the last segment only characters greater
/// than the separator in [`Domain::Valid`], and mostly those in [`Domain::Any`].
pub fn text_char(separator: char, last: bool, domain: Domain) -> BoxedStrategy<char> {
    let keep = move |c: &char| domain == Domain::Any || text_fits(c.encode_utf8(&mut [0; 4]), separator, last);
    let edges: Vec<char> = edge_chars(separator).into_iter().filter(keep).collect();
    let small: Vec<char> = ['a', 'b', '~', '\u{7f}', 'é', '\u{10ffff}'].into_iter().filter(keep).collect();
    let chars =
        prop_oneof![3 => select(edges), 3 => select(small), 1 => any::<char>().prop_filter("forbidden here", keep)];
    match domain {
        Domain::Any if !last => prop_oneof![5 => text_char(separator, last, Domain::Valid), 1 => chars].boxed(),
        _ => chars.boxed(),
    }
}

/// A text segment of up to `max_chars` characters drawn from [`text_char`].
pub fn text(separator: char, last: bool, domain: Domain, max_chars: usize) -> BoxedStrategy<String> {
    let chars = |last| {
        proptest::collection::vec(text_char(separator, last, Domain::Valid), 0..=max_chars)
            .prop_map(|chars| chars.into_iter().collect::<String>())
    };
    // In the last position every character is valid: `chars(true)` is every character.
    match domain {
        Domain::Valid => chars(last).boxed(),
        Domain::Any => prop_oneof![4 => chars(last), 1 => chars(true)].boxed(),
    }
}

/// A text that a non-final segment must reject: valid characters around at least one
/// character that is not greater than the separator.
pub fn forbidden_text(separator: char) -> BoxedStrategy<String> {
    let forbidden: Vec<char> = edge_chars(separator).into_iter().filter(|&c| c <= separator).collect();
    (text(separator, false, Domain::Valid, 3), select(forbidden), text(separator, true, Domain::Any, 3))
        .prop_map(|(head, bad, tail)| format!("{head}{bad}{tail}"))
        .boxed()
}

/// Two values from `values`, equal three times in four, so that comparisons of whole keys
/// often reach the later fields.
pub fn pair<T: Clone + Debug + 'static>(values: BoxedStrategy<T>) -> BoxedStrategy<(T, T)> {
    (values.clone(), values, proptest::bool::weighted(0.75))
        .prop_map(|(a, b, same)| if same { (a.clone(), a) } else { (a, b) })
        .boxed()
}

/// Strings that look like keys: strings of the type's `grammar` (a regex of its segments,
/// which admits out-of-range values, negative zero and forbidden text), runs of digits,
/// separators, `-`, `prefix` and edge characters, or any string at all. Most do not decode;
/// the ones that do must be canonical.
pub fn key_like(separator: char, prefix: &'static str, grammar: &'static str) -> BoxedStrategy<String> {
    let token = prop_oneof![
        4 => "[0-9]{1,12}",
        3 => Just(separator.to_string()),
        1 => Just("-".to_owned()),
        1 => Just(prefix.to_owned()),
        1 => Just(format!("{prefix}{separator}")),
        2 => text(separator, true, Domain::Any, 3),
    ];
    let tokens = proptest::collection::vec(token, 0..10).prop_map(|t| t.concat());
    prop_oneof![3 => grammar, 2 => tokens, 1 => any::<String>()].boxed()
}

/// One edit of a valid key, the kind a hand-written or corrupted key has.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// Flips one bit of one byte (skipped when the result is not UTF-8).
    FlipBit {
        /// Which byte, modulo the length.
        at: usize,
        /// Which bit, `0..8`.
        bit: u8,
    },
    /// Inserts a character at a character boundary.
    Insert {
        /// Which boundary, modulo their number.
        at: usize,
        /// What to insert.
        ch: char,
    },
    /// Deletes one character.
    Delete {
        /// Which character, modulo their number.
        at: usize,
    },
    /// Replaces one ASCII digit by another character (`+`, space, `٣`, another digit, ...).
    ReplaceDigit {
        /// Which digit, modulo their number.
        at: usize,
        /// Its replacement.
        with: char,
    },
    /// Cuts the key at a character boundary.
    Truncate {
        /// Which boundary, modulo their number.
        at: usize,
    },
    /// Appends text.
    Append {
        /// What to append.
        text: String,
    },
}

impl Mutation {
    /// The mutated key, `None` when the mutation does not apply (an empty key, no digit, not UTF-8).
    pub fn apply(&self, key: &str) -> Option<String> {
        let boundaries: Vec<usize> = key.char_indices().map(|(i, _)| i).chain([key.len()]).collect();
        match self {
            Mutation::FlipBit { at, bit } => {
                let mut bytes = key.as_bytes().to_vec();
                let i = (!bytes.is_empty()).then(|| *at % bytes.len())?;
                bytes[i] ^= 1 << bit;
                String::from_utf8(bytes).ok()
            }
            Mutation::Insert { at, ch } => {
                let i = boundaries[*at % boundaries.len()];
                Some(format!("{}{ch}{}", &key[..i], &key[i..]))
            }
            Mutation::Delete { at } => {
                let chars = boundaries.len() - 1;
                let i = (chars > 0).then(|| boundaries[*at % chars])?;
                let len = key[i..].chars().next()?.len_utf8();
                Some(format!("{}{}", &key[..i], &key[i + len..]))
            }
            Mutation::ReplaceDigit { at, with } => {
                let digits: Vec<usize> =
                    key.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
                let i = (!digits.is_empty()).then(|| digits[*at % digits.len()])?;
                Some(format!("{}{with}{}", &key[..i], &key[i + 1..]))
            }
            Mutation::Truncate { at } => Some(key[..boundaries[*at % boundaries.len()]].to_owned()),
            Mutation::Append { text } => Some(format!("{key}{text}")),
        }
    }
}

/// Mutations of keys with this `separator`: digits replaced by `+`, space, `-`, non-ASCII
/// digits or other digits; characters around the separator inserted; bytes flipped; cuts and tails.
pub fn mutation(separator: char) -> BoxedStrategy<Mutation> {
    let replacement = select(vec!['+', ' ', '-', '٣', '९', '０', '0', '1', '8', '9', separator, 'a']);
    let tail = prop_oneof![Just(separator.to_string()), "[0-9]{1,3}", text(separator, true, Domain::Any, 2),];
    prop_oneof![
        1 => (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        1 => (any::<usize>(), text_char(separator, true, Domain::Any)).prop_map(|(at, ch)| Mutation::Insert { at, ch }),
        1 => any::<usize>().prop_map(|at| Mutation::Delete { at }),
        2 => (any::<usize>(), replacement).prop_map(|(at, with)| Mutation::ReplaceDigit { at, with }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        1 => tail.prop_map(|text| Mutation::Append { text }),
    ]
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_rules_match_the_format_table() {
        assert!(unsigned_fits(999, 3, None) && !unsigned_fits(1000, 3, None));
        assert!(unsigned_fits(u128::MAX, 39, None));
        assert!(!unsigned_fits(501, 3, Some(500)));
        assert!(signed_fits(-999, 4, None) && !signed_fits(-1000, 4, None) && !signed_fits(1000, 4, None));
        assert!(signed_fits(i128::MIN, 40, None) && signed_fits(i128::MAX, 40, None));
        assert!(signed_fits(-5000, 5, Some(100)) && !signed_fits(101, 5, Some(100)));
        assert!(text_fits("a$", '#', false) && !text_fits("a#", '#', false) && text_fits("a#", '#', true));
    }

    #[test]
    fn mutations_edit_where_they_say() {
        let k = "A#12é";
        assert_eq!(Mutation::ReplaceDigit { at: 0, with: '+' }.apply(k).as_deref(), Some("A#+2é"));
        assert_eq!(Mutation::Truncate { at: 0 }.apply(k).as_deref(), Some(""));
        assert_eq!(Mutation::Delete { at: 9 }.apply(k).as_deref(), Some("A#12"));
        assert_eq!(Mutation::Append { text: "#".into() }.apply(k).as_deref(), Some("A#12é#"));
        assert_eq!(Mutation::Delete { at: 0 }.apply(""), None);
        assert_eq!(Mutation::FlipBit { at: 0, bit: 7 }.apply("A"), None, "0xC1 alone is not UTF-8");
    }
}
