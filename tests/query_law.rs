//! The query law (README, "Queries"): for every generated type, builder call and key `k`,
//! `condition.matches(encode(k))` holds exactly when `k` satisfies the predicate the call
//! describes. The predicate is evaluated here on the fields, independently of the encoding.

use std::cmp::Ordering;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sortkey_core::{KeyCondition, QueryError, SortKey};
use sortkey_tests::ends;
use sortkey_tests::law::{Call, Comparison, End, LawKey, check_law};
use sortkey_tests::samples::ToDyn;

/// Text of up to 4 characters from `alphabet`, which holds near-separator and multi-byte characters.
fn text(alphabet: &'static [char]) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..4).prop_map(|v| v.into_iter().collect())
}

/// Characters allowed in a non-final text segment with separator `#`, next to it and far above.
const MID_HASH: &[char] =
    &['a', 'b', 'f', '3', '4', '0', '$', '%', 'é', '~', '\u{7F}', '\u{FFFF}', '\u{E000}', '\u{10FFFF}'];
/// Characters of a final text segment: anything, including the separator and below.
const LAST_HASH: &[char] =
    &['a', 'f', '3', '4', '$', '#', '"', '!', ' ', '\0', 'é', '\u{FFFF}', '\u{E000}', '\u{10FFFF}'];
/// Characters allowed in a non-final text segment with separator `|`.
const MID_PIPE: &[char] = &['}', '~', '\u{7F}', 'é', '\u{FFFF}', '\u{E000}', '\u{10FFFF}'];

/// Numbers biased to the edges of a range and to a few values that collide often.
fn edgy<T: Copy + Debug + 'static>(edges: &'static [T], any: impl Strategy<Value = T> + 'static) -> BoxedStrategy<T> {
    prop_oneof![3 => prop::sample::select(edges), 1 => any].boxed()
}

/// A call on `keys`: templates are drawn from the keys (so that equalities happen) or fresh.
fn call<T: LawKey + 'static>(fresh: BoxedStrategy<T>, keys: Vec<T>) -> impl Strategy<Value = Call<T>> {
    let template = prop_oneof![3 => prop::sample::select(keys.clone()), 1 => fresh].boxed();
    let ops = prop::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    (0..=T::N, template.clone(), template.clone(), template, ops, 0..4usize, 0..5usize, text(LAST_HASH)).prop_map(
        |(k, fixed, a, b, op, kind, cut, random_prefix)| {
            let end = if k == T::N {
                if kind % 2 == 0 { End::Eq } else { End::BeginsWith }
            } else {
                match kind {
                    0 => End::BeginsWith,
                    1 => End::Cmp(op, a),
                    2 => End::Between(a, b),
                    _ => match a.text(k) {
                        Some(t) if cut < 4 => End::Prefix(t.chars().take(cut).collect()),
                        Some(_) => End::Prefix(random_prefix),
                        None => End::Between(b, a),
                    },
                }
            };
            Call { k, fixed, end }
        },
    )
}

/// Keys and a call on them.
fn case<T: LawKey + 'static>(fresh: BoxedStrategy<T>) -> impl Strategy<Value = (Vec<T>, Call<T>)> {
    case_with(fresh.clone(), fresh)
}

/// Keys from `keys` and a call on them whose fresh templates come from `templates` (which may
/// hold values no key can have, such as text too long for any key).
fn case_with<T: LawKey + 'static>(
    keys: BoxedStrategy<T>,
    templates: BoxedStrategy<T>,
) -> impl Strategy<Value = (Vec<T>, Call<T>)> {
    prop::collection::vec(keys, 1..40).prop_flat_map(move |keys| (Just(keys.clone()), call(templates.clone(), keys)))
}

mod rank {
    use super::*;

    /// The seed's key: prefix, a desc number, a number, final text.
    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN")]
    pub(crate) struct RankKey {
        #[key(width = 3, desc)]
        pub(crate) score: u16,
        #[key(width = 4)]
        pub(crate) ts: u16,
        pub(crate) player: String,
    }

    impl LawKey for RankKey {
        const N: usize = 3;
        const HAS_PREFIX: bool = true;
        fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
            match i {
                0 => self.score.cmp(&o.score),
                1 => self.ts.cmp(&o.ts),
                _ => self.player.as_bytes().cmp(o.player.as_bytes()),
            }
        }
        fn text(&self, i: usize) -> Option<&str> {
            (i == 2).then_some(self.player.as_str())
        }
        fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
            let (q, f) = (RankKey::query(), &c.fixed);
            match c.k {
                0 => ends!(q, c, |t| t.score, score_range),
                1 => ends!(q.score(f.score), c, |t| t.ts, ts_range),
                2 => ends!(q.score(f.score).ts(f.ts), c, |t| &t.player, player_range, text),
                _ => {
                    let q = q.score(f.score).ts(f.ts).player(&f.player);
                    if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
                }
            }
        }
    }

    pub(crate) fn fresh() -> BoxedStrategy<RankKey> {
        (edgy(&[0, 1, 9, 10, 998, 999], 0..1000u16), edgy(&[0, 1, 9999], 0..10000u16), text(LAST_HASH))
            .prop_map(|(score, ts, player)| RankKey { score, ts, player })
            .boxed()
    }
}

mod mixed {
    use super::*;

    /// No prefix; text first (non-final), a desc signed number, a bool, a narrow unsigned last.
    #[derive(SortKey, Debug, Clone, PartialEq)]
    pub(crate) struct Mixed {
        pub(crate) name: String,
        #[key(width = 4, desc)]
        pub(crate) delta: i16,
        pub(crate) flag: bool,
        #[key(width = 2)]
        pub(crate) n: u8,
    }

    impl LawKey for Mixed {
        const N: usize = 4;
        const HAS_PREFIX: bool = false;
        fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
            match i {
                0 => self.name.as_bytes().cmp(o.name.as_bytes()),
                1 => self.delta.cmp(&o.delta),
                2 => self.flag.cmp(&o.flag),
                _ => self.n.cmp(&o.n),
            }
        }
        fn text(&self, i: usize) -> Option<&str> {
            (i == 0).then_some(self.name.as_str())
        }
        fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
            let (q, f) = (Mixed::query(), &c.fixed);
            match c.k {
                0 => ends!(q, c, |t| &t.name, name_range, text),
                1 => ends!(q.name(&f.name), c, |t| t.delta, delta_range),
                2 => ends!(q.name(&f.name).delta(f.delta), c, |t| t.flag, flag_range),
                3 => ends!(q.name(&f.name).delta(f.delta).flag(f.flag), c, |t| t.n, n_range),
                _ => {
                    let q = q.name(&f.name).delta(f.delta).flag(f.flag).n(f.n);
                    if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
                }
            }
        }
    }

    pub(crate) fn fresh() -> BoxedStrategy<Mixed> {
        (text(MID_HASH), edgy(&[-999, -1, 0, 1, 999], -999..=999i16), any::<bool>(), edgy(&[0, 1, 98, 99], 0..100u8))
            .prop_map(|(name, delta, flag, n)| Mixed { name, delta, flag, n })
            .boxed()
    }
}

mod piped {
    use super::*;

    /// A prefix with separator `|`, a signed number first, two text fields (non-final and final).
    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "T", separator = '|')]
    pub(crate) struct Piped {
        #[key(width = 3)]
        pub(crate) level: i32,
        pub(crate) city: String,
        pub(crate) tag: String,
    }

    impl LawKey for Piped {
        const N: usize = 3;
        const HAS_PREFIX: bool = true;
        fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
            match i {
                0 => self.level.cmp(&o.level),
                1 => self.city.as_bytes().cmp(o.city.as_bytes()),
                _ => self.tag.as_bytes().cmp(o.tag.as_bytes()),
            }
        }
        fn text(&self, i: usize) -> Option<&str> {
            match i {
                1 => Some(&self.city),
                2 => Some(&self.tag),
                _ => None,
            }
        }
        fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
            let (q, f) = (Piped::query(), &c.fixed);
            match c.k {
                0 => ends!(q, c, |t| t.level, level_range),
                1 => ends!(q.level(f.level), c, |t| &t.city, city_range, text),
                2 => ends!(q.level(f.level).city(&f.city), c, |t| &t.tag, tag_range, text),
                _ => {
                    let q = q.level(f.level).city(&f.city).tag(&f.tag);
                    if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
                }
            }
        }
    }

    pub(crate) fn fresh() -> BoxedStrategy<Piped> {
        (edgy(&[-99, -1, 0, 1, 99], -99..=99i32), text(MID_PIPE), text(LAST_HASH))
            .prop_map(|(level, city, tag)| Piped { level, city, tag })
            .boxed()
    }
}

mod long {
    use super::*;

    /// Keys at DynamoDB's 1024-byte limit: a long non-final text, a number, a long final text.
    /// The natural bounds of many calls are longer than 1024 bytes here (`a_range().gt(x)` on a full
    /// `a` is `x` and a separator more), and must be replaced by equivalent ones within it.
    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "L")]
    pub(crate) struct Long {
        pub(crate) a: String,
        #[key(width = 2)]
        pub(crate) n: u8,
        pub(crate) b: String,
    }

    impl LawKey for Long {
        const N: usize = 3;
        const HAS_PREFIX: bool = true;
        fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
            match i {
                0 => self.a.as_bytes().cmp(o.a.as_bytes()),
                1 => self.n.cmp(&o.n),
                _ => self.b.as_bytes().cmp(o.b.as_bytes()),
            }
        }
        fn text(&self, i: usize) -> Option<&str> {
            match i {
                0 => Some(&self.a),
                2 => Some(&self.b),
                _ => None,
            }
        }
        fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
            let (q, f) = (Long::query(), &c.fixed);
            match c.k {
                0 => ends!(q, c, |t| &t.a, a_range, text),
                1 => ends!(q.a(&f.a), c, |t| t.n, n_range),
                2 => ends!(q.a(&f.a).n(f.n), c, |t| &t.b, b_range, text),
                _ => {
                    let q = q.a(&f.a).n(f.n).b(&f.b);
                    if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
                }
            }
        }
    }

    /// `n` filler characters `x` (biased to lengths that end a key at or next to 1024 bytes) and
    /// then a short text, whose multi-byte characters straddle the limit.
    fn long_text(alphabet: &'static [char]) -> impl Strategy<Value = String> {
        let lens =
            prop_oneof![3 => prop::sample::select(vec![0usize, 1010, 1012, 1014, 1015, 1016, 1017]), 1 => 0..1030usize];
        (lens, text(alphabet)).prop_map(|(n, t)| "x".repeat(n) + &t)
    }

    /// Any key, including ones too long to encode: templates of calls.
    pub(crate) fn any_long() -> BoxedStrategy<Long> {
        let (a, b) = (long_text(MID_HASH), prop_oneof![long_text(LAST_HASH), text(LAST_HASH)]);
        (prop_oneof![a, text(MID_HASH)], edgy(&[0, 1, 98, 99], 0..100u8), b)
            .prop_map(|(a, n, b)| Long { a, n, b })
            .boxed()
    }

    /// Keys that encode: at most 1024 bytes.
    pub(crate) fn fresh() -> BoxedStrategy<Long> {
        any_long().prop_filter("a key of at most 1024 bytes", |k| k.encode().is_ok()).boxed()
    }
}

mod index {
    use super::*;

    /// An entity whose index sort key (no prefix, a desc number, final text) is a generated key
    /// type: index queries obey the same law.
    #[derive(sortkey_core::Entity, Debug, Clone, PartialEq)]
    #[entity(
        pk(prefix = "T", tenant),
        sk(prefix = "E", id),
        index(by_kind(pk(prefix = "K", kind), sk(at(width = 3, desc), label)))
    )]
    pub(crate) struct Event {
        pub(crate) tenant: u8,
        pub(crate) id: u32,
        pub(crate) kind: String,
        pub(crate) at: u16,
        pub(crate) label: String,
    }

    impl LawKey for EventByKindSk {
        const N: usize = 2;
        const HAS_PREFIX: bool = false;
        fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
            match i {
                0 => self.at.cmp(&o.at),
                _ => self.label.as_bytes().cmp(o.label.as_bytes()),
            }
        }
        fn text(&self, i: usize) -> Option<&str> {
            (i == 1).then_some(self.label.as_str())
        }
        fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
            let (q, f) = (EventByKindSk::query(), &c.fixed);
            match c.k {
                0 => ends!(q, c, |t| t.at, at_range),
                1 => ends!(q.at(f.at), c, |t| &t.label, label_range, text),
                _ => {
                    let q = q.at(f.at).label(&f.label);
                    if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
                }
            }
        }
    }

    pub(crate) fn fresh() -> BoxedStrategy<EventByKindSk> {
        (edgy(&[0, 1, 9, 998, 999], 0..1000u16), text(LAST_HASH))
            .prop_map(|(at, label)| EventByKindSk { at, label })
            .boxed()
    }
}

sortkey_tests::key_to_dyn! {
    rank::RankKey { score, ts, player }
    mixed::Mixed { name, delta, flag, n }
    piped::Piped { level, city, tag }
    long::Long { a, n, b }
    index::EventByKindSk { at, label }
}

/// The same call on the type's layout read at run time gives the same condition or refusal.
fn same_as_layout<T: LawKey + ToDyn>(call: &Call<T>) -> Result<(), TestCaseError> {
    sortkey_tests::samples::same_as_layout(call, T::build(call))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn law_long((keys, call) in case_with(long::fresh(), long::any_long())) {
        check_law(&call, &keys)?;
        same_as_layout(&call)?;
    }

    #[test]
    fn law_rank((keys, call) in case(rank::fresh())) {
        check_law(&call, &keys)?;
        same_as_layout(&call)?;
    }

    #[test]
    fn law_mixed((keys, call) in case(mixed::fresh())) {
        check_law(&call, &keys)?;
        same_as_layout(&call)?;
    }

    #[test]
    fn law_piped((keys, call) in case(piped::fresh())) {
        check_law(&call, &keys)?;
        same_as_layout(&call)?;
    }

    #[test]
    fn law_index((keys, call) in case(index::fresh())) {
        check_law(&call, &keys)?;
        same_as_layout(&call)?;
        // The index query applies the same condition under the index's names and partition.
        if let Ok(cond) = <index::EventByKindSk as LawKey>::build(&call) {
            let pk = index::EventByKindPk { kind: "a".into() };
            let query = index::Event::by_kind(&pk).unwrap().sort(cond.clone());
            prop_assert_eq!(query.index().name(), "by_kind");
            for key in &keys {
                let sk = key.encode().unwrap();
                prop_assert_eq!(query.matches("K#a", &sk), cond.matches(&sk));
                prop_assert!(!query.matches("K#b", &sk));
            }
        }
    }
}

/// The four calls of the issue, with the shapes they produce.
#[test]
fn readme_queries_produce_the_documented_shapes() {
    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN")]
    struct RankKey {
        #[key(width = 10, desc)]
        score: u64,
        #[key(width = 16)]
        timestamp: u64,
        player_id: String,
    }
    let c = RankKey::query().score(1500).begins_with().unwrap();
    assert_eq!(c, KeyCondition::BeginsWith("RUN#9999998499#".into()));
    let c = RankKey::query().score_range().between(100, 200).unwrap();
    assert_eq!(c, KeyCondition::Between("RUN#9999999799".into(), "RUN#9999999899$".into()));
    let c = RankKey::query().score(1500).timestamp_range().gte(1719100800).unwrap();
    assert_eq!(c, KeyCondition::Between("RUN#9999998499#0000001719100800".into(), "RUN#9999998499$".into()));
    let c = RankKey::query().score(1500).timestamp(1719100800).player_id("p_8842").eq().unwrap();
    assert_eq!(c, KeyCondition::Eq("RUN#9999998499#0000001719100800#p_8842".into()));
    let e = RankKey::query().score(10_000_000_000).begins_with().unwrap_err();
    assert_eq!(e.field(), Some("score"));
}

/// Sparse items for both kinds of index: an index query matches an entity's key attributes
/// exactly when the entity has every key attribute of the index (no `None` ingredient) and its
/// fields satisfy the call, evaluated here on the fields.
mod sparse {
    use super::*;
    use sortkey_core::{Entity, MultiCondition, QueryError};

    #[derive(sortkey_core::Entity, Debug, Clone)]
    #[entity(
        pk(prefix = "S", id),
        sk(n(width = 3)),
        index(
            by_tag(pk(prefix = "T", tag), sk(level(width = 2), n(width = 3))),
            by_zone(multi, pk(zone), sk(level, dock)),
        )
    )]
    pub(super) struct Part {
        pub(super) id: String,
        pub(super) n: u16,
        pub(super) tag: Option<String>,
        pub(super) zone: String,
        pub(super) level: u8,
        pub(super) dock: Option<u8>,
    }

    pub(super) fn part() -> impl Strategy<Value = Part> {
        let tag = prop::option::of(prop::sample::select(vec!["a".to_owned(), "b".to_owned()]));
        let zone = prop::sample::select(vec!["x".to_owned(), "y".to_owned()]);
        (0..4u16, tag, zone, 0..5u8, prop::option::of(0..5u8)).prop_map(|(n, tag, zone, level, dock)| Part {
            id: format!("p{n}"),
            n,
            tag,
            zone,
            level,
            dock,
        })
    }

    /// A call on the index's second sort field (`n` for `by_tag`, `dock` for `by_zone`) or on
    /// its first: the partition value, the first field fixed or not, and a range or none.
    #[derive(Debug, Clone)]
    pub(super) struct SparseCall {
        pub(super) partition: &'static str,
        pub(super) first: Option<u8>,
        pub(super) op: Option<(Comparison, u16)>,
        pub(super) between: Option<(u16, u16)>,
    }

    pub(super) fn sparse_call() -> impl Strategy<Value = SparseCall> {
        let ops = prop::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
        (
            prop::sample::select(vec!["a", "x", "b", "y"]),
            prop::option::of(0..5u8),
            prop::option::of((ops, 0..5u16)),
            prop::option::of((0..5u16, 0..5u16)),
        )
            .prop_map(|(partition, first, op, between)| SparseCall { partition, first, op, between })
    }

    pub(super) fn holds(op: Comparison, v: u16, bound: u16) -> bool {
        match op {
            Comparison::Lt => v < bound,
            Comparison::Le => v <= bound,
            Comparison::Gt => v > bound,
            Comparison::Ge => v >= bound,
        }
    }

    /// The call's predicate on a value of the ranged field; `None` when the call has no range.
    pub(super) fn in_range(call: &SparseCall, v: u16) -> bool {
        match (call.op, call.between) {
            (Some((op, bound)), _) => holds(op, v, bound),
            (None, Some((low, high))) => low <= v && v <= high,
            (None, None) => true,
        }
    }

    /// The composite index's condition for the call (`None`: the whole partition), or the
    /// builder's refusal of an empty range.
    pub(super) fn tag_condition(call: &SparseCall) -> Result<Option<KeyCondition>, QueryError> {
        if call.first.is_none() && call.op.is_none() && call.between.is_none() {
            return Ok(None);
        }
        let q = PartByTagSk::query();
        match call.first {
            Some(level) => {
                let q = q.level(level);
                match (call.op, call.between) {
                    (Some((op, b)), _) => match op {
                        Comparison::Lt => q.n_range().lt(b),
                        Comparison::Le => q.n_range().lte(b),
                        Comparison::Gt => q.n_range().gt(b),
                        Comparison::Ge => q.n_range().gte(b),
                    },
                    (None, Some((low, high))) => q.n_range().between(low, high),
                    (None, None) => q.begins_with(),
                }
                .map(Some)
            }
            None => {
                let level = |b: u16| b as u8;
                match (call.op, call.between) {
                    (Some((op, b)), _) => match op {
                        Comparison::Lt => q.level_range().lt(level(b)),
                        Comparison::Le => q.level_range().lte(level(b)),
                        Comparison::Gt => q.level_range().gt(level(b)),
                        Comparison::Ge => q.level_range().gte(level(b)),
                    },
                    (None, Some((low, high))) => q.level_range().between(level(low), level(high)),
                    (None, None) => unreachable!("the whole partition, above"),
                }
                .map(Some)
            }
        }
    }

    /// The multi-attribute index's condition for the call.
    pub(super) fn zone_condition(call: &SparseCall) -> Result<MultiCondition<Part>, QueryError> {
        let q = Part::by_zone(call.partition);
        let dock = |b: u16| b as u8;
        match call.first {
            Some(level) => {
                let q = q.level(level);
                match (call.op, call.between) {
                    (Some((op, b)), _) => Ok(match op {
                        Comparison::Lt => q.dock_range().lt(dock(b)),
                        Comparison::Le => q.dock_range().lte(dock(b)),
                        Comparison::Gt => q.dock_range().gt(dock(b)),
                        Comparison::Ge => q.dock_range().gte(dock(b)),
                    }),
                    (None, Some((low, high))) => q.dock_range().between(dock(low), dock(high)),
                    (None, None) => Ok(q.condition()),
                }
            }
            None => match (call.op, call.between) {
                (Some((op, b)), _) => Ok(match op {
                    Comparison::Lt => q.level_range().lt(dock(b)),
                    Comparison::Le => q.level_range().lte(dock(b)),
                    Comparison::Gt => q.level_range().gt(dock(b)),
                    Comparison::Ge => q.level_range().gte(dock(b)),
                }),
                (None, Some((low, high))) => q.level_range().between(dock(low), dock(high)),
                (None, None) => Ok(q.condition()),
            },
        }
    }

    /// The composite index's predicate, on the fields.
    pub(super) fn tag_predicate(call: &SparseCall, p: &Part) -> bool {
        let Some(tag) = &p.tag else { return false };
        tag == call.partition
            && match call.first {
                Some(level) => p.level == level && in_range(call, p.n),
                None => in_range(call, u16::from(p.level)),
            }
    }

    /// The multi-attribute index's predicate, on the fields.
    pub(super) fn zone_predicate(call: &SparseCall, p: &Part) -> bool {
        let Some(dock) = p.dock else { return false };
        p.zone == call.partition
            && match call.first {
                Some(level) => p.level == level && in_range(call, u16::from(dock)),
                None => in_range(call, u16::from(p.level)),
            }
    }

    pub(super) fn keys(p: &Part) -> sortkey_core::EntityKeys {
        p.key_attributes().expect("every part encodes")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn law_sparse_indexes(parts in prop::collection::vec(sparse::part(), 1..24), call in sparse::sparse_call()) {
        use sparse::*;
        match tag_condition(&call) {
            Ok(cond) => {
                let pk = PartByTagPk { tag: call.partition.to_owned() };
                let query = Part::by_tag(&pk).unwrap();
                let query = match cond {
                    Some(cond) => query.sort(cond),
                    None => query,
                };
                for p in &parts {
                    prop_assert_eq!(query.matches_keys(&keys(p)), tag_predicate(&call, p), "{:?} {:?}", call, p);
                }
            }
            // A comparison past an end of the field's range (`< 0`): no part satisfies it.
            Err(e) if e.kind() == &sortkey_core::QueryErrorKind::EmptyRange && call.op.is_some() => {
                for p in &parts {
                    prop_assert!(!tag_predicate(&call, p), "{:?} refused ({}) but {:?} satisfies it", call, e, p);
                }
            }
            Err(_) => prop_assert!(call.between.is_some_and(|(l, h)| l > h) && call.op.is_none(), "{:?}", call),
        }
        match zone_condition(&call) {
            Ok(cond) => {
                for p in &parts {
                    prop_assert_eq!(cond.matches_keys(&keys(p)), zone_predicate(&call, p), "{} {:?}", cond, p);
                }
            }
            Err(_) => prop_assert!(call.between.is_some_and(|(l, h)| l > h) && call.op.is_none(), "{:?}", call),
        }
    }
}
