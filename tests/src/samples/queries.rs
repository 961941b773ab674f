//! The query law of layouts you can run: a builder call on a sample type, made through the
//! derived builder and through the type's layout read at run time (`DynLayout::query`, fields by
//! name, values as `DynValue`s), gives the same condition or the same refusal.

use std::fmt::Debug;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use sortkey_core::{DynBody, DynLayout, KeyCondition, QueryError, SortKey};

use super::*;
use crate::ends;
use crate::law::{Call, Comparison, End};

/// A key type whose random builder calls the layout law runs.
pub trait QueryLaw: SortKey + ToDyn + Clone + Debug + 'static {
    /// The number of fields.
    const N: usize;
    /// Field `i` as text, if it is a text field (its range has `begins_with`).
    fn text(&self, _i: usize) -> Option<&str> {
        None
    }
    /// Runs the derived builder for `call`.
    fn build(call: &Call<Self>) -> Result<KeyCondition, QueryError>;
    /// Random values of the type.
    fn fresh() -> BoxedStrategy<Self>;
}

/// A random call on `T`: any stage, every ending the stage has, templates from `T::fresh`.
pub fn calls<T: QueryLaw>() -> impl Strategy<Value = Call<T>> {
    let ops = proptest::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    (0..=T::N, T::fresh(), T::fresh(), T::fresh(), ops, 0..4usize, 0..4usize).prop_map(
        |(k, fixed, a, b, op, kind, cut)| {
            let end = match (k == T::N, kind) {
                (true, 0) => End::Eq,
                (true, _) | (_, 0) => End::BeginsWith,
                (_, 1) => End::Cmp(op, a),
                (_, 2) => End::Between(a, b),
                _ => match a.text(k) {
                    Some(t) => End::Prefix(t.chars().take(cut).collect()),
                    None => End::Between(b, a),
                },
            };
            Call { k, fixed, end }
        },
    )
}

/// The same call on the type's layout read at run time gives `derived`, the derived builder's
/// condition, or the same refusal (kind and field).
pub fn same_as_layout<T: SortKey + ToDyn + Debug>(
    call: &Call<T>,
    derived: Result<KeyCondition, QueryError>,
) -> Result<(), TestCaseError> {
    let layout = DynLayout::parse(&T::LAYOUT.to_string()).unwrap();
    let DynBody::Fields(fields) = &layout.key.body else { panic!("a key of fields") };
    let value = |t: &T, i: usize| t.to_dyn().field(fields[i].name).cloned().unwrap();
    let fixed = call.fixed.to_dyn();
    let mut q = layout.query();
    for field in &fields[..call.k] {
        q = q.fix(field.name, fixed.field(field.name).unwrap());
    }
    let name = fields.get(call.k).map_or("", |f| f.name);
    let dynamic = match &call.end {
        End::BeginsWith => q.begins_with(),
        End::Eq => q.eq(),
        End::Cmp(op, a) => q.compare(name, *op, &value(a, call.k)),
        End::Between(a, b) => q.between(name, &value(a, call.k), &value(b, call.k)),
        End::Prefix(p) => q.text_begins_with(name, p),
    };
    match (derived, dynamic) {
        (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{:?}", call),
        (Err(a), Err(b)) => prop_assert_eq!((a.kind(), a.field()), (b.kind(), b.field()), "{:?}: {} / {}", call, a, b),
        (a, b) => prop_assert!(false, "{:?}: derived {:?}, layout {:?}", call, a, b),
    }
    Ok(())
}

/// The last stage's two endings.
fn last<Q: LastStage>(q: Q, end: &End<impl Sized>) -> Result<KeyCondition, QueryError> {
    if matches!(end, End::Eq) { q.eq() } else { q.begins_with() }
}

/// A builder's last stage (every field fixed).
trait LastStage {
    fn eq(self) -> Result<KeyCondition, QueryError>;
    fn begins_with(self) -> Result<KeyCondition, QueryError>;
}

macro_rules! last_stage {
    ($($t:ty),*) => {$(
        impl LastStage for $t {
            fn eq(self) -> Result<KeyCondition, QueryError> {
                <$t>::eq(self)
            }
            fn begins_with(self) -> Result<KeyCondition, QueryError> {
                <$t>::begins_with(self)
            }
        }
    )*};
}
last_stage!(TimesQuery<3>, FloatsQuery<4>, IdsQuery<4>, OuterQuery<3>, AuditQuery<2>, StampsQuery<2>, OrderKeyQuery<2>);

impl QueryLaw for Times {
    const N: usize = 3;
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Times::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.at, at_range),
            1 => ends!(q.at(f.at), c, |t| t.text, text_range),
            2 => ends!(q.at(f.at).text(f.text), c, |t| t.plain, plain_range),
            _ => last(q.at(f.at).text(f.text).plain(f.plain), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        times().boxed()
    }
}

impl QueryLaw for Floats {
    const N: usize = 4;
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Floats::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.hex, hex_range),
            1 => ends!(q.hex(f.hex), c, |t| t.small, small_range),
            2 => ends!(q.hex(f.hex).small(f.small), c, |t| t.price, price_range),
            3 => ends!(q.hex(f.hex).small(f.small).price(f.price), c, |t| t.last, last_range),
            _ => last(q.hex(f.hex).small(f.small).price(f.price).last(f.last), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        floats().boxed()
    }
}

impl QueryLaw for Ids {
    const N: usize = 4;
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Ids::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.id, id_range),
            1 => ends!(q.id(f.id), c, |t| t.ulid, ulid_range),
            2 => ends!(q.id(f.id).ulid(f.ulid), c, |t| t.status, status_range),
            3 => ends!(q.id(f.id).ulid(f.ulid).status(f.status), c, |t| t.maybe, maybe_range),
            _ => last(q.id(f.id).ulid(f.ulid).status(f.status).maybe(f.maybe), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        ids().boxed()
    }
}

impl QueryLaw for Outer {
    const N: usize = 3;
    fn text(&self, i: usize) -> Option<&str> {
        (i == 2).then_some(self.tail.as_str())
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Outer::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.inner.clone(), inner_range),
            1 => ends!(q.inner(f.inner.clone()), c, |t| t.opt.clone(), opt_range),
            2 => ends!(q.inner(f.inner.clone()).opt(f.opt.clone()), c, |t| &t.tail, tail_range, text),
            _ => last(q.inner(f.inner.clone()).opt(f.opt.clone()).tail(&f.tail), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        outers().boxed()
    }
}

impl QueryLaw for Audit {
    const N: usize = 2;
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Audit::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.item.clone(), item_range),
            1 => ends!(q.item(f.item.clone()), c, |t| t.revision, revision_range),
            _ => last(q.item(f.item.clone()).revision(f.revision), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        (items(), int(0..1200u16, vec![0, 999, 1000])).prop_map(|(item, revision)| Audit { item, revision }).boxed()
    }
}

impl QueryLaw for Stamps {
    const N: usize = 2;
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Stamps::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.at, at_range),
            1 => ends!(q.at(f.at), c, |t| t.plain, plain_range),
            _ => last(q.at(f.at).plain(f.plain), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        (instant(1_000_000), instant(1_000_000_000)).prop_map(|(at, plain)| Stamps { at, plain }).boxed()
    }
}

impl QueryLaw for OrderKey {
    const N: usize = 2;
    fn text(&self, i: usize) -> Option<&str> {
        (i == 1).then_some(self.order_id.as_str())
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (OrderKey::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.placed_at, placed_at_range),
            1 => ends!(q.placed_at(f.placed_at), c, |t| &t.order_id, order_id_range, text),
            _ => last(q.placed_at(f.placed_at).order_id(&f.order_id), &c.end),
        }
    }
    fn fresh() -> BoxedStrategy<Self> {
        orders().boxed()
    }
}
