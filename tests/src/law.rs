//! The query law (README, "Queries") as a reusable check: for a builder call and a sample of keys,
//! `condition.matches(encode(k))` must hold exactly when `k` satisfies the predicate the call
//! describes, evaluated here on the fields, independently of the encoding.

use std::cmp::Ordering;
use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sortkey_core::{KeyCondition, QueryError, QueryErrorKind, SortKey};

/// DynamoDB's limit on a sort key, and so on every value of a sort key condition, in bytes.
pub const SORT_KEY_LIMIT: usize = 1024;

/// The comparison of a range method (`lt`, `lte`, `gt`, `gte` of `f_range()`): the runtime's own tag;
/// what each one means is evaluated here, on the fields, independently of the runtime.
pub use sortkey_core::query::Comparison;

/// How a query ends after fixing the first `k` fields.
#[derive(Debug, Clone)]
pub enum End<T> {
    /// `.begins_with()`
    BeginsWith,
    /// `.eq()`, on the last stage only.
    Eq,
    /// `.f_range().lt(v)` and friends, with `v` taken from the template.
    Cmp(Comparison, T),
    /// `.f_range().between(lo, hi)`, bounds taken from the templates.
    Between(T, T),
    /// `.f_range().begins_with(prefix)`, text fields only.
    Prefix(String),
}

/// A builder call: the first `k` fields of `fixed` are fixed, then `end`.
#[derive(Debug, Clone)]
pub struct Call<T> {
    /// How many fields are fixed.
    pub k: usize,
    /// The template whose first `k` fields are fixed.
    pub fixed: T,
    /// How the query ends.
    pub end: End<T>,
}

/// What the law needs of a key type besides `SortKey`.
pub trait LawKey: SortKey + Clone + Debug + Sized {
    /// The number of fields.
    const N: usize;
    /// Whether the type has a prefix (without one, a query that fixes nothing is refused).
    const HAS_PREFIX: bool;
    /// Field `i` of `self` against field `i` of `other`, in the field's own (ascending) order.
    fn cmp_field(&self, other: &Self, i: usize) -> Ordering;
    /// Field `i` as text, if it is a text field.
    fn text(&self, _i: usize) -> Option<&str> {
        None
    }
    /// Runs the builder for `call`.
    fn build(call: &Call<Self>) -> Result<KeyCondition, QueryError>;
}

/// A call on `keys` without text prefixes: templates drawn from the keys (so that equalities
/// happen) or from `fresh`, any stage, and every ending a stage has (`eq` on the last).
pub fn calls<T: LawKey + 'static>(keys: Vec<T>, fresh: BoxedStrategy<T>) -> impl Strategy<Value = Call<T>> {
    let template = prop_oneof![3 => proptest::sample::select(keys), 1 => fresh];
    let ops = proptest::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    (0..=T::N, template.clone(), template.clone(), template, ops, 0..3usize).prop_map(|(k, fixed, a, b, op, kind)| {
        let end = match (k == T::N, kind) {
            (true, 0) => End::Eq,
            (true, _) | (_, 0) => End::BeginsWith,
            (_, 1) => End::Cmp(op, a),
            _ => End::Between(a, b),
        };
        Call { k, fixed, end }
    })
}

/// Keys from `fresh` and a call on them, as [`calls`] makes.
pub fn keys_and_call<T: LawKey + 'static>(fresh: BoxedStrategy<T>) -> impl Strategy<Value = (Vec<T>, Call<T>)> {
    proptest::collection::vec(fresh.clone(), 1..40)
        .prop_flat_map(move |keys| (Just(keys.clone()), calls(keys, fresh.clone())))
}

/// The predicate of `call` on the fields of `key`.
pub fn predicate<T: LawKey>(call: &Call<T>, key: &T) -> bool {
    let head = (0..call.k).all(|i| key.cmp_field(&call.fixed, i) == Ordering::Equal);
    head && match &call.end {
        End::BeginsWith => true,
        End::Eq => call.k == T::N,
        End::Cmp(op, t) => {
            let o = key.cmp_field(t, call.k);
            match op {
                Comparison::Lt => o == Ordering::Less,
                Comparison::Le => o != Ordering::Greater,
                Comparison::Gt => o == Ordering::Greater,
                Comparison::Ge => o != Ordering::Less,
            }
        }
        End::Between(lo, hi) => {
            key.cmp_field(lo, call.k) != Ordering::Less && key.cmp_field(hi, call.k) != Ordering::Greater
        }
        End::Prefix(p) => key.text(call.k).is_some_and(|t| t.starts_with(p.as_str())),
    }
}

/// Checks the law for one call over a sample of keys.
pub fn check_law<T: LawKey>(call: &Call<T>, keys: &[T]) -> Result<(), TestCaseError> {
    let cond = T::build(call);
    let matches_all = matches!(&call.end, End::BeginsWith) || matches!(&call.end, End::Prefix(p) if p.is_empty());
    if call.k == 0 && !T::HAS_PREFIX && matches_all {
        prop_assert!(cond.is_err(), "a query fixing nothing without a prefix is refused");
        return Ok(());
    }
    match cond {
        // Refused because no sort key condition is needed: every key satisfies the call.
        Err(e) if e.kind() == &QueryErrorKind::MatchesEverything => {
            for key in keys {
                prop_assert!(predicate(call, key), "call {call:?} refused ({e}) but {key:?} does not satisfy it");
            }
        }
        Ok(cond) => {
            if let KeyCondition::Between(lo, hi) = &cond {
                prop_assert!(lo <= hi, "BETWEEN bounds out of order: {cond:?}");
            }
            prop_assert!(cond.values().iter().all(|v| !v.is_empty()), "DynamoDB refuses empty values: {cond:?}");
            prop_assert!(
                cond.values().iter().all(|v| v.len() <= SORT_KEY_LIMIT),
                "DynamoDB refuses sort key values over {SORT_KEY_LIMIT} bytes: {:?}",
                cond.values().iter().map(|v| v.len()).collect::<Vec<_>>()
            );
            for key in keys {
                let encoded = key.encode().expect("generated keys encode");
                prop_assert_eq!(
                    cond.matches(&encoded),
                    predicate(call, key),
                    "call {:?}\ncondition {}\nkey {:?} = {:?}",
                    call,
                    cond,
                    key,
                    encoded
                );
            }
        }
        // Refused calls (an empty range, a text prefix no key can have) must describe no key.
        Err(e) => {
            for key in keys {
                prop_assert!(!predicate(call, key), "call {call:?} refused ({e}) but {key:?} satisfies it");
            }
        }
    }
    Ok(())
}

/// The match on how a query ends, at a stage whose next field is read from a template `$t` by
/// `$get`, with the stage's `<field>_range()` method (and `text` after it for a text field, whose
/// range has `begins_with`).
#[macro_export]
macro_rules! ends {
    ($q:expr, $c:expr, |$t:ident| $get:expr, $range:ident $(, $text:ident)?) => {{
        use $crate::law::End;
        use $crate::law::Comparison;
        let q = $q;
        match &$c.end {
            End::BeginsWith => q.begins_with(),
            End::Cmp(op, $t) => match op {
                Comparison::Lt => q.$range().lt($get),
                Comparison::Le => q.$range().lte($get),
                Comparison::Gt => q.$range().gt($get),
                Comparison::Ge => q.$range().gte($get),
            },
            End::Between(lo, hi) => {
                let low = {
                    let $t = lo;
                    $get
                };
                let high = {
                    let $t = hi;
                    $get
                };
                q.$range().between(low, high)
            }
            $(End::Prefix(p) => { let _ = stringify!($text); q.$range().begins_with(p) })?
            other => unreachable!("{other:?} is not generated for this field"),
        }
    }};
}
