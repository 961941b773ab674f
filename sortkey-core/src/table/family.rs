//! What key families (`#[derive(SortKey)]` on an enum) add to the runtime: the query of a unit
//! variant, whose only key is its literal.

use crate::error::QueryError;
use crate::query::condition::KeyCondition;

/// The query of a unit variant of a key family (`#[key(prefix = "PROFILE")] Profile`): the
/// variant has exactly one key, its literal, so both endings give `= literal`.
///
/// From the family's builder: `CustomerItem::query().profile().eq()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a query does nothing until it ends with a condition"]
pub struct UnitQuery {
    literal: &'static str,
}

impl UnitQuery {
    /// The query of the unit variant written as `literal`.
    pub(crate) const fn new(literal: &'static str) -> Self {
        UnitQuery { literal }
    }

    /// The variant's one key, `= literal`.
    pub fn eq(self) -> Result<KeyCondition, QueryError> {
        Ok(KeyCondition::Eq(self.literal.to_owned()))
    }

    /// Every key of the variant, which is its one key: the same as [`eq`](Self::eq). A
    /// `begins_with` on the literal would also match the keys of a variant whose prefix
    /// starts with it.
    pub fn begins_with(self) -> Result<KeyCondition, QueryError> {
        self.eq()
    }
}
