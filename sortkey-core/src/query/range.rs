//! The range that ends a typed query on its next field: what a stage's `<field>_range()` returns.
//!
//! A generated stage has two methods per field: `score(value)` fixes the field and moves on,
//! `score_range()` hands the query to a [`FieldRange`] (a [`TextRange`] for text), whose
//! methods end it with a comparison on that field. The comparisons are written once here, for
//! every key type, instead of once per field of every key: a key type costs its crate less to
//! compile.

use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::Field;
use crate::error::QueryError;
use crate::query::condition::KeyCondition;
use crate::query::{Comparison, Encoder, QueryHead};

/// The range on the next field of a typed query, from the stage's `<field>_range()`: it ends
/// the query with `gt`, `gte`, `lt`, `lte` or `between` on that field, in the field's own order
/// (the bounds of a `desc` field are swapped for you).
///
/// ```
/// # use sortkey_core::SortKey;
/// #[derive(SortKey)]
/// #[key(prefix = "RUN")]
/// struct RunKey {
///     #[key(width = 10, desc)]
///     score: u64,
///     player_id: String,
/// }
///
/// let top = RunKey::query().score_range().gte(1500)?;
/// assert!(top.matches(&RunKey { score: 2000, player_id: "p_1".into() }.encode()?));
/// assert!(!top.matches(&RunKey { score: 1499, player_id: "p_1".into() }.encode()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a range does nothing until it ends with a condition"]
pub struct FieldRange<T> {
    on: On<T>,
}

// By hand: the value type need not be `Clone` or `Debug` for the range to be.
impl<T> Clone for FieldRange<T> {
    fn clone(&self) -> Self {
        FieldRange { on: self.on.clone() }
    }
}

impl<T> std::fmt::Debug for FieldRange<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.on.fmt(f)
    }
}

/// The range on the next field of a typed query when that field is text, from the stage's
/// `<field>_range()`: [`FieldRange`]'s comparisons on `&str`, and [`begins_with`](Self::begins_with).
///
/// ```
/// # use sortkey_core::SortKey;
/// #[derive(SortKey)]
/// #[key(prefix = "USER")]
/// struct UserKey {
///     name: String,
/// }
///
/// let cond = UserKey::query().name_range().begins_with("ali")?;
/// assert!(cond.matches("USER#alice"));
/// assert!(!cond.matches("USER#bob"));
/// # Ok::<(), sortkey_core::QueryError>(())
/// ```
#[must_use = "a range does nothing until it ends with a condition"]
#[derive(Debug, Clone)]
pub struct TextRange {
    on: On<str>,
}

/// What both ranges hold: the query so far and the next field's spec, layout and encoder.
struct On<T: ?Sized> {
    head: QueryHead,
    field: Field,
    segment: SegmentLayout,
    encode: Encoder<T>,
}

impl<T: ?Sized> Clone for On<T> {
    fn clone(&self) -> Self {
        On { head: self.head.clone(), field: self.field, segment: self.segment, encode: self.encode }
    }
}

impl<T: ?Sized> std::fmt::Debug for On<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldRange").field("head", &self.head).field("field", &self.field.name()).finish()
    }
}

impl<T: ?Sized> On<T> {
    fn compare(self, cmp: Comparison, value: &T) -> Result<KeyCondition, QueryError> {
        self.head.compare_in(cmp, &self.field, &self.segment, value, self.encode)
    }

    fn between(self, low: &T, high: &T) -> Result<KeyCondition, QueryError> {
        self.head.between(&self.field, low, high, self.encode)
    }
}

impl<T> FieldRange<T> {
    /// The range on the field `field` (of the segment type `segment` describes, written by
    /// `encode`) after the fields `head` has fixed. The generated stages call it; a
    /// hand-written key can too:
    ///
    /// ```
    /// use sortkey_core::FieldRange;
    /// use sortkey_core::query::QueryHead;
    /// use sortkey_core::{Field, KeyRole, KeySegment};
    ///
    /// const SEQ: Field = Field::new("LogKey", "seq", '#').with_width(6).with_last(true);
    /// let head = QueryHead::new("LogKey", Some("LOG"), '#', 1024, KeyRole::Sort);
    /// let cond = FieldRange::new(head, SEQ, u32::SEGMENT_LAYOUT, <u32 as KeySegment>::encode_segment).lt(42)?;
    /// assert!(cond.matches("LOG#000041"));
    /// assert!(!cond.matches("LOG#000042"));
    /// # Ok::<(), sortkey_core::QueryError>(())
    /// ```
    #[inline]
    pub fn new(head: QueryHead, field: Field, segment: SegmentLayout, encode: Encoder<T>) -> Self {
        FieldRange { on: On { head, field, segment, encode } }
    }

    /// Ends the query with `field > value` on the keys fixed so far.
    #[inline]
    pub fn gt(self, value: T) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Gt, &value)
    }

    /// Ends the query with `field >= value` on the keys fixed so far.
    #[inline]
    pub fn gte(self, value: T) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Ge, &value)
    }

    /// Ends the query with `field < value` on the keys fixed so far.
    #[inline]
    pub fn lt(self, value: T) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Lt, &value)
    }

    /// Ends the query with `field <= value` on the keys fixed so far.
    #[inline]
    pub fn lte(self, value: T) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Le, &value)
    }

    /// Ends the query with `low <= field <= high` (inclusive; bounds of a `desc` field are
    /// swapped for you).
    #[inline]
    pub fn between(self, low: T, high: T) -> Result<KeyCondition, QueryError> {
        self.on.between(&low, &high)
    }
}

impl TextRange {
    /// The range on the text field `field` after the fields `head` has fixed.
    #[inline]
    pub fn new(head: QueryHead, field: Field) -> Self {
        TextRange { on: On { head, field, segment: str::SEGMENT_LAYOUT, encode: <str as KeySegment>::encode_segment } }
    }

    /// Ends the query with `field > value` on the keys fixed so far.
    #[inline]
    pub fn gt(self, value: &str) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Gt, value)
    }

    /// Ends the query with `field >= value` on the keys fixed so far.
    #[inline]
    pub fn gte(self, value: &str) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Ge, value)
    }

    /// Ends the query with `field < value` on the keys fixed so far.
    #[inline]
    pub fn lt(self, value: &str) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Lt, value)
    }

    /// Ends the query with `field <= value` on the keys fixed so far.
    #[inline]
    pub fn lte(self, value: &str) -> Result<KeyCondition, QueryError> {
        self.on.compare(Comparison::Le, value)
    }

    /// Ends the query with `low <= field <= high` (inclusive; bounds of a `desc` field are
    /// swapped for you).
    #[inline]
    pub fn between(self, low: &str, high: &str) -> Result<KeyCondition, QueryError> {
        self.on.between(low, high)
    }

    /// Ends the query with the keys whose field starts with `prefix`.
    #[inline]
    pub fn begins_with(self, prefix: &str) -> Result<KeyCondition, QueryError> {
        self.on.head.text_begins_with(prefix, &self.on.field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::key::KeyRole;

    const SEQ: Field = Field::new("LogKey", "seq", '#').with_width(6).with_last(true);

    fn range() -> FieldRange<u32> {
        let head = QueryHead::new("LogKey", Some("LOG"), '#', 1024, KeyRole::Sort);
        FieldRange::new(head, SEQ, u32::SEGMENT_LAYOUT, <u32 as KeySegment>::encode_segment)
    }

    #[test]
    fn each_comparison_is_the_head_s_own() {
        let head = || QueryHead::new("LogKey", Some("LOG"), '#', 1024, KeyRole::Sort);
        let by_head =
            |cmp| head().compare_in(cmp, &SEQ, &u32::SEGMENT_LAYOUT, &42u32, <u32 as KeySegment>::encode_segment);
        assert_eq!(range().gt(42), by_head(Comparison::Gt));
        assert_eq!(range().gte(42), by_head(Comparison::Ge));
        assert_eq!(range().lt(42), by_head(Comparison::Lt));
        assert_eq!(range().lte(42), by_head(Comparison::Le));
        assert_eq!(
            range().clone().between(7, 42),
            head().between(&SEQ, &7u32, &42u32, <u32 as KeySegment>::encode_segment)
        );
        assert!(format!("{:?}", range()).contains("seq"));
    }

    #[test]
    fn a_value_that_does_not_fit_is_the_field_s_error() {
        let err = range().gt(1_000_000).unwrap_err();
        assert_eq!(err.field(), Some("seq"));
    }

    #[test]
    fn a_text_range_begins_with_a_prefix() {
        let name = Field::new("UserKey", "name", '#').with_last(true);
        let head = QueryHead::new("UserKey", Some("USER"), '#', 1024, KeyRole::Sort);
        let cond = TextRange::new(head, name).begins_with("ali").unwrap();
        assert!(cond.matches("USER#alice"));
        assert!(!cond.matches("USER#bob"));
    }
}
