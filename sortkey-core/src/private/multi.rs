//! What the staged query builder of a multi-attribute index calls: the query being built, and
//! the range that ends it on its next sort attribute (what a stage's `<field>_range()` returns).

use std::cmp::Ordering;
use std::fmt;
use std::marker::PhantomData;

use crate::error::{QueryError, QueryErrorKind};
use crate::table::multi::{KeyScalar, MultiCondition, MultiKeys, Range, ScalarValue};

/// A multi-attribute query being built: the equalities so far. The staged builder an entity
/// derives for each multi-attribute index wraps it; each of its methods is one call here.
pub struct MultiQuery<E> {
    index: &'static str,
    attributes: MultiKeys,
    equal: Vec<(&'static str, ScalarValue)>,
    entity: PhantomData<fn() -> E>,
}

impl<E> fmt::Debug for MultiQuery<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiQuery").field("index", &self.index).field("equal", &self.equal).finish()
    }
}

impl<E> Clone for MultiQuery<E> {
    fn clone(&self) -> Self {
        MultiQuery { index: self.index, attributes: self.attributes, equal: self.equal.clone(), entity: PhantomData }
    }
}

impl<E> MultiQuery<E> {
    /// The query of `index`, whose key attributes are `attributes`, with the equalities on its
    /// partition attributes.
    pub fn new(index: &'static str, attributes: MultiKeys, partition: Vec<(&'static str, ScalarValue)>) -> Self {
        MultiQuery { index, attributes, equal: partition, entity: PhantomData }
    }

    /// `=` on the next sort attribute.
    pub fn eq(mut self, name: &'static str, value: ScalarValue) -> Self {
        self.equal.push((name, value));
        self
    }

    /// The condition with a range on the next sort attribute.
    pub fn range(self, name: &'static str, range: Range) -> MultiCondition<E> {
        MultiCondition::new(self.index, self.attributes, self.equal, Some((name, range)))
    }

    /// `BETWEEN low AND high` on the next sort attribute; `low` above `high` is an empty range,
    /// which DynamoDB refuses, so it is an error here.
    pub fn between(
        self,
        name: &'static str,
        low: ScalarValue,
        high: ScalarValue,
    ) -> Result<MultiCondition<E>, QueryError> {
        if low.compare(&high) == Some(Ordering::Greater) {
            return Err(QueryError::new(self.index, Some(name), QueryErrorKind::EmptyRange));
        }
        Ok(self.range(name, Range::Between(low, high)))
    }

    /// The condition with the equalities alone.
    pub fn finish(self) -> MultiCondition<E> {
        MultiCondition::new(self.index, self.attributes, self.equal, None)
    }
}

/// The range on the next sort attribute of a multi-attribute index query, from the stage's
/// `<field>_range()`: it ends the query with `gt`, `gte`, `lt`, `lte` or `between` on that
/// attribute, and `begins_with` on a string attribute. The attribute holds the field's value
/// (`S` or `N`, see [`KeyScalar`]), so the comparison is DynamoDB's on that type.
#[must_use = "a range does nothing until it ends with a condition"]
pub struct MultiRange<E, T> {
    query: MultiQuery<E>,
    name: &'static str,
    value: PhantomData<fn(T)>,
}

// By hand: neither the entity nor the value type need be `Clone` or `Debug` for the range to be.
impl<E, T> Clone for MultiRange<E, T> {
    fn clone(&self) -> Self {
        MultiRange { query: self.query.clone(), name: self.name, value: PhantomData }
    }
}

impl<E, T> fmt::Debug for MultiRange<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MultiRange").field("query", &self.query).field("attribute", &self.name).finish()
    }
}

impl<E, T: KeyScalar> MultiRange<E, T> {
    /// The range on the sort attribute `name` after the equalities of `query`; the generated
    /// stages call it.
    #[inline]
    pub fn new(query: MultiQuery<E>, name: &'static str) -> Self {
        MultiRange { query, name, value: PhantomData }
    }

    fn range(self, range: impl FnOnce(ScalarValue) -> Range, value: impl Into<T>) -> MultiCondition<E> {
        self.query.range(self.name, range(value.into().to_scalar()))
    }

    /// The condition with the attribute `< value`.
    #[inline]
    pub fn lt(self, value: impl Into<T>) -> MultiCondition<E> {
        self.range(Range::Lt, value)
    }

    /// The condition with the attribute `<= value`.
    #[inline]
    pub fn lte(self, value: impl Into<T>) -> MultiCondition<E> {
        self.range(Range::Le, value)
    }

    /// The condition with the attribute `> value`.
    #[inline]
    pub fn gt(self, value: impl Into<T>) -> MultiCondition<E> {
        self.range(Range::Gt, value)
    }

    /// The condition with the attribute `>= value`.
    #[inline]
    pub fn gte(self, value: impl Into<T>) -> MultiCondition<E> {
        self.range(Range::Ge, value)
    }

    /// The condition with the attribute from `low` to `high`, inclusive; an error when `low` is
    /// above `high`.
    #[inline]
    pub fn between(self, low: impl Into<T>, high: impl Into<T>) -> Result<MultiCondition<E>, QueryError> {
        self.query.between(self.name, low.into().to_scalar(), high.into().to_scalar())
    }
}

impl<E> MultiRange<E, String> {
    /// The condition with the string attribute beginning with `prefix`.
    #[inline]
    pub fn begins_with(self, prefix: &str) -> MultiCondition<E> {
        self.query.range(self.name, Range::BeginsWith(ScalarValue::S(prefix.to_owned())))
    }
}
