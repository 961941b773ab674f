//! What the staged query builder of a multi-attribute index calls: the query being built.

use std::cmp::Ordering;
use std::fmt;
use std::marker::PhantomData;

use crate::error::{QueryError, QueryErrorKind};
use crate::table::multi::{MultiCondition, MultiKeys, Range, ScalarValue};

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
