//! The query algebra behind the typed query builder: the head of fixed fields, and the bounds
//! that make a range on the next field exact.
//!
//! A typed query fixes the first fields of a key (the *head* `H`, which starts with the
//! prefix) and then either stops or puts a range on the next field. Every key whose first
//! fields equal the head starts with `Q = H + separator`, and all of them are below
//! `H + successor(separator)`; a `begins_with(Q)` covers them exactly, where a naive
//! `begins_with(H)` would let `f340` into a query for `f34`.
//!
//! A range on the next field with bound `a` (encoded `E`) becomes a byte range of keys:
//!
//! | predicate on the encoded field | non-final field | final field |
//! |---|---|---|
//! | `>= E` | `>= Q E` | `>= Q E` |
//! | `>  E` | `>= Q E succ(sep)` | `>= Q E'` (the least string above `Q E`) |
//! | `<= E` | `<= Q E succ(sep)` | `<= Q E` |
//! | `<  E` | `<= Q E` | `<= Q E''` (the greatest string below `Q E`) |
//!
//! The inclusive bounds on a non-final field (`Q E`, `Q E succ(sep)`) can never be keys of the
//! type: a non-final segment is always followed by the separator. On the final field the key
//! ends with `E`, so the bounds are exact neighbours instead. `desc` fields swap `<` and `>`
//! before any of this. DynamoDB's `BETWEEN` is inclusive at both ends, which is why every
//! bound above is inclusive.
//!
//! Every rendered value is at most 1024 bytes, DynamoDB's sort key limit: a bound over it is
//! replaced by the nearest string within it on the inside of the range, or the range is empty.
//!
//! The builder `#[derive(SortKey)]` generates is a thin typed layer over [`QueryHead`]: each of
//! its methods is one call of [`QueryHead::fix`], an ending, or a field's range
//! ([`FieldRange`](crate::FieldRange), whose comparisons call [`compare`](QueryHead::compare)
//! and [`between`](QueryHead::between)). A hand-written key type gets the same exact
//! conditions by calling it with its own field specs:
//!
//! ```
//! use sortkey_core::query::{Comparison, QueryHead};
//! use sortkey_core::{Field, KeyRole, KeySegment};
//!
//! // Keys `LOG#<day: 8 digits>#<seq: 6 digits>`, written by hand.
//! const DAY: Field = Field::new("LogKey", "day", '#').with_width(8);
//! const SEQ: Field = Field::new("LogKey", "seq", '#').with_width(6).with_last(true);
//!
//! // Every entry of 2024-06-01 from sequence number 42 on.
//! let cond = QueryHead::new("LogKey", Some("LOG"), '#', 1024, KeyRole::Sort)
//!     .fix(&20240601u32, &DAY, <u32 as KeySegment>::encode_segment)
//!     .compare(Comparison::Ge, &SEQ, &42u32, <u32 as KeySegment>::encode_segment)?;
//! assert!(cond.matches("LOG#20240601#000042"));
//! assert!(cond.matches("LOG#20240601#999999"));
//! assert!(!cond.matches("LOG#20240601#000041"));
//! assert!(!cond.matches("LOG#20240602#000000"));
//! # Ok::<(), sortkey_core::QueryError>(())
//! ```

pub(crate) mod condition;
pub(crate) mod ends;
mod merge;
pub(crate) mod range;

pub use merge::{Merge, MergeCursor, MergedPage, ShardRead};

use crate::encoding::key::KeyRole;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::Field;
use crate::error::{EncodeError, EncodeErrorKind, QueryError, QueryErrorKind};
use crate::query::condition::KeyCondition;

/// A comparison a query puts on the next field, in the field's own order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// `field < value`
    Lt,
    /// `field <= value`
    Le,
    /// `field > value`
    Gt,
    /// `field >= value`
    Ge,
}

impl Comparison {
    /// The same comparison on the encoded field, which runs the other way for `desc`.
    fn on_encoding(self, desc: bool) -> Self {
        match (self, desc) {
            (c, false) => c,
            (Comparison::Lt, true) => Comparison::Gt,
            (Comparison::Le, true) => Comparison::Ge,
            (Comparison::Gt, true) => Comparison::Lt,
            (Comparison::Ge, true) => Comparison::Le,
        }
    }
}

/// A segment type's `encode_segment`, as the generated builder methods pass it.
pub type Encoder<T> = fn(&T, &Field, &mut String) -> Result<(), EncodeError>;

/// The fields a query has fixed so far, encoded; what the generated query stages carry.
///
/// Errors (a value that does not fit its field) are kept and returned by the method that
/// ends the query, so that a chain like `query().score(1500).begins_with()` needs one `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryHead {
    head: Result<String, EncodeError>,
    /// Segments in the head (the prefix counts): an empty head may hold an empty text field.
    segments: usize,
    key_name: &'static str,
    separator: u8,
    max_len: usize,
}

impl QueryHead {
    /// The head of a query on a key type with this prefix, separator, length limit and role.
    pub fn new(
        key_name: &'static str,
        prefix: Option<&'static str>,
        separator: char,
        max_len: usize,
        role: KeyRole,
    ) -> Self {
        let separator = crate::encoding::spec::separator_byte(separator);
        let segments = usize::from(prefix.is_some());
        // A sort key, and so a bound of a sort key condition, has at most 1024 bytes in DynamoDB,
        // whatever `max_len` a hand-written type claims; a partition key's `=` value has 2048.
        let max_len = max_len.min(role.limit());
        QueryHead { head: Ok(prefix.unwrap_or("").to_owned()), segments, key_name, separator, max_len }
    }

    /// Fixes the next field to `value` (equality).
    ///
    /// `write` appends the value's segment ([`fix`](Self::fix) passes the field type's
    /// `KeySegment` impl).
    pub fn fix_with(mut self, write: impl FnOnce(&mut String) -> Result<(), EncodeError>) -> Self {
        if let Ok(head) = &mut self.head {
            let start = head.len();
            if self.segments > 0 {
                head.push(self.separator as char);
            }
            self.segments += 1;
            if let Err(e) = write(head) {
                head.truncate(start);
                self.head = Err(e);
            }
        }
        self
    }

    /// Fixes the next field to `value`, which `encode` appends.
    ///
    /// The generated builder methods are each one call of this (or [`compare`](Self::compare),
    /// [`between`](Self::between)) with `encode` the field type's
    /// `<T as KeySegment>::encode_segment`, named at the field's span: a body without closures
    /// is less for the user's crate to check, and a field type that is no segment is one error
    /// at the field (a `KeySegment` bound here would add one per method).
    #[inline]
    pub fn fix<T: ?Sized>(self, value: &T, field: &Field, encode: Encoder<T>) -> Self {
        self.fix_with(|out| encode(value, field, out))
    }

    /// Keys whose next field compares with `value` as `cmp` says.
    #[inline]
    pub fn compare<T: ?Sized>(
        self,
        cmp: Comparison,
        field: &Field,
        value: &T,
        encode: Encoder<T>,
    ) -> Result<KeyCondition, QueryError> {
        self.compare_with(cmp, field, |out| encode(value, field, out))
    }

    /// [`compare`](Self::compare) on a field of the segment type `segment` describes
    /// (`<T as KeySegment>::SEGMENT_LAYOUT`, what the derived builder passes): a comparison past
    /// the least or the greatest value the type, width and `max` admit (`< 0` on an unsigned
    /// field, `> 255` on a `u8`, `> max`, before 1970) matches no key, and is
    /// [`EmptyRange`](QueryErrorKind::EmptyRange) rather than a condition that selects nothing.
    #[inline]
    pub fn compare_in<T: ?Sized>(
        self,
        cmp: Comparison,
        field: &Field,
        segment: &SegmentLayout,
        value: &T,
        encode: Encoder<T>,
    ) -> Result<KeyCondition, QueryError> {
        self.compare_within(cmp, field, ends::bounded(segment), |out| encode(value, field, out))
    }

    /// Keys whose next field lies in `low..=high` (in the field's own order).
    #[inline]
    pub fn between<T: ?Sized>(
        self,
        field: &Field,
        low: &T,
        high: &T,
        encode: Encoder<T>,
    ) -> Result<KeyCondition, QueryError> {
        self.between_with(field, |out| encode(low, field, out), |out| encode(high, field, out))
    }

    /// Every key whose fields equal the ones fixed so far, when some are still free.
    pub fn begins_with(self) -> Result<KeyCondition, QueryError> {
        let q = self.open_head()?;
        if self.segments == 0 {
            return Err(self.error(None, QueryErrorKind::MatchesEverything));
        }
        self.within_limit(KeyCondition::BeginsWith(q), None)
    }

    /// The one key whose fields are all fixed.
    pub fn eq(self) -> Result<KeyCondition, QueryError> {
        let head = self.head.clone()?;
        if head.is_empty() {
            return Err(self.error(None, QueryErrorKind::Encode(EncodeErrorKind::Empty)));
        }
        self.within_limit(KeyCondition::Eq(head), None)
    }

    /// Keys whose next text field starts with `prefix`.
    pub fn text_begins_with(self, prefix: &str, field: &Field) -> Result<KeyCondition, QueryError> {
        let mut q = self.open_head()?;
        prefix.encode_segment(field, &mut q)?;
        if q.is_empty() {
            return Err(self.error(Some(field), QueryErrorKind::MatchesEverything));
        }
        self.within_limit(KeyCondition::BeginsWith(q), Some(field))
    }

    /// Keys whose next field compares with the value `write` appends as `cmp` says.
    pub fn compare_with(
        self,
        cmp: Comparison,
        field: &Field,
        write: impl FnOnce(&mut String) -> Result<(), EncodeError>,
    ) -> Result<KeyCondition, QueryError> {
        self.compare_within(cmp, field, None, write)
    }

    /// [`compare_with`](Self::compare_with) on a field of the `bounded` type (with its levels of
    /// `Option`), when it is one: `<` its least encoding and `>` its greatest match no key.
    pub(crate) fn compare_within(
        self,
        cmp: Comparison,
        field: &Field,
        bounded: Option<(ends::Bounded, u32)>,
        write: impl FnOnce(&mut String) -> Result<(), EncodeError>,
    ) -> Result<KeyCondition, QueryError> {
        let q = self.open_head()?;
        // Room for the end of the field's range beside the value, written there to compare.
        let mut e = String::with_capacity(64);
        write(&mut e)?;
        let cmp = cmp.on_encoding(field.is_desc());
        let end = match cmp {
            Comparison::Lt => Some(ends::End::Least),
            Comparison::Gt => Some(ends::End::Greatest),
            Comparison::Le | Comparison::Ge => None,
        };
        let past_an_end = match (end, bounded) {
            (Some(end), Some((ty, options))) => {
                let len = e.len();
                let written = ends::push_end(ty, options, field, end, &mut e).is_some();
                let at_end = written && e[..len] == e[len..];
                e.truncate(len);
                at_end
            }
            _ => false,
        };
        if past_an_end {
            return Err(self.error(Some(field), QueryErrorKind::EmptyRange));
        }
        if self.segments == 0 {
            let cond = self.no_empty_bound(self.one_sided(cmp, e, field), field)?;
            return self.within_limit(cond, Some(field));
        }
        let (low, high) = match cmp {
            Comparison::Ge | Comparison::Gt => (self.lower(&q, &e, cmp, field), self.region_end(&q)),
            Comparison::Le | Comparison::Lt => (q.clone(), self.upper(&q, &e, cmp, field)),
        };
        self.between_checked(low, high, field)
    }

    /// Keys whose next field lies in `low..=high` (in the field's own order).
    pub fn between_with(
        self,
        field: &Field,
        low: impl FnOnce(&mut String) -> Result<(), EncodeError>,
        high: impl FnOnce(&mut String) -> Result<(), EncodeError>,
    ) -> Result<KeyCondition, QueryError> {
        let q = self.open_head()?;
        let (mut lo, mut hi) = (encode_alone(low)?, encode_alone(high)?);
        if field.is_desc() {
            std::mem::swap(&mut lo, &mut hi);
        }
        let low = format!("{q}{lo}");
        let high = self.upper(&q, &hi, Comparison::Le, field);
        if low.is_empty() {
            // Every key is above "", and DynamoDB takes no empty bound: the range is `<= high`.
            let cond = self.no_empty_bound(KeyCondition::Le(high), field)?;
            return self.within_limit(cond, Some(field));
        }
        self.between_checked(low, high, field)
    }

    /// The head followed by the separator (the start of every key under it), or "" at the root
    /// of a key type without a prefix.
    fn open_head(&self) -> Result<String, EncodeError> {
        let mut q = self.head.clone()?;
        if self.segments > 0 {
            q.push(self.separator as char);
        }
        Ok(q)
    }

    /// `head + successor(separator)`: above every key under the head, and no key of the type.
    fn region_end(&self, q: &str) -> String {
        let mut end = q[..q.len() - 1].to_owned();
        end.push((self.separator + 1) as char);
        end
    }

    /// The inclusive lower bound for `>= E` or `> E` on the field after `q`.
    fn lower(&self, q: &str, e: &str, cmp: Comparison, field: &Field) -> String {
        let mut s = format!("{q}{e}");
        match (cmp, field.is_last()) {
            (Comparison::Ge, _) => {}
            (_, false) => s.push((self.separator + 1) as char),
            (_, true) => s = successor(s, field),
        }
        s
    }

    /// The inclusive upper bound for `<= E` or `< E` on the field after `q`.
    fn upper(&self, q: &str, e: &str, cmp: Comparison, field: &Field) -> String {
        let mut s = format!("{q}{e}");
        match (cmp, field.is_last()) {
            (Comparison::Le, false) => s.push((self.separator + 1) as char),
            (Comparison::Le, true) | (_, false) => {}
            (_, true) => s = predecessor(s, field, self.max_len),
        }
        s
    }

    /// At the root of a type without prefix one side is open, and DynamoDB's one-sided
    /// comparisons say it exactly.
    fn one_sided(&self, cmp: Comparison, e: String, field: &Field) -> KeyCondition {
        let sep_succ = |mut s: String| {
            s.push((self.separator + 1) as char);
            s
        };
        match (cmp, field.is_last()) {
            (Comparison::Ge, _) => KeyCondition::Ge(e),
            (Comparison::Lt, _) => KeyCondition::Lt(e),
            (Comparison::Gt, true) => KeyCondition::Gt(e),
            (Comparison::Le, true) => KeyCondition::Le(e),
            (Comparison::Gt, false) => KeyCondition::Ge(sep_succ(e)),
            (Comparison::Le, false) => KeyCondition::Lt(sep_succ(e)),
        }
    }

    fn between_checked(&self, low: String, high: String, field: &Field) -> Result<KeyCondition, QueryError> {
        if low > high {
            return Err(self.error(Some(field), QueryErrorKind::EmptyRange));
        }
        self.within_limit(KeyCondition::Between(low, high), Some(field))
    }

    /// The same condition with every value at most `max_len` bytes (1024 at most, DynamoDB's
    /// sort key limit), or the error saying that no key satisfies it.
    ///
    /// No key is longer than `max_len`, so on keys a bound above the limit is equivalent to the
    /// nearest string within it on the inside of the range: a lower bound becomes the least
    /// string of at most `max_len` bytes above it, an upper bound the greatest one below it.
    fn within_limit(&self, cond: KeyCondition, field: Option<&Field>) -> Result<KeyCondition, QueryError> {
        let limit = self.max_len;
        // Without `values()`, which collects into a `Vec`: this runs for every condition built.
        let longest = match &cond {
            KeyCondition::Between(lo, hi) => lo.len().max(hi.len()),
            KeyCondition::Eq(v)
            | KeyCondition::Lt(v)
            | KeyCondition::Le(v)
            | KeyCondition::Gt(v)
            | KeyCondition::Ge(v)
            | KeyCondition::BeginsWith(v) => v.len(),
        };
        if longest <= limit {
            return Ok(cond);
        }
        let empty = || self.error(field, QueryErrorKind::EmptyRange);
        match cond {
            KeyCondition::Eq(v) => {
                Err(self.error(None, QueryErrorKind::Encode(EncodeErrorKind::TooLong { len: v.len(), max_len: limit })))
            }
            // No key of at most `limit` bytes starts with a longer string.
            KeyCondition::BeginsWith(_) => Err(empty()),
            // A key is never equal to a longer bound, so `>` and `>=` agree on keys, as `<` and `<=` do.
            KeyCondition::Ge(v) | KeyCondition::Gt(v) => {
                least_at_or_above(&v, limit).map(KeyCondition::Ge).ok_or_else(empty)
            }
            KeyCondition::Le(v) | KeyCondition::Lt(v) => Ok(KeyCondition::Le(greatest_at_or_below(&v, limit))),
            KeyCondition::Between(lo, hi) => {
                let lo = least_at_or_above(&lo, limit).ok_or_else(empty)?;
                let hi = greatest_at_or_below(&hi, limit);
                if lo > hi {
                    return Err(empty());
                }
                Ok(KeyCondition::Between(lo, hi))
            }
        }
    }

    /// DynamoDB refuses an empty string as a key condition value. Against `""` a comparison
    /// either holds for every key (`>= ""`, `> ""`: keys are never empty) or for none.
    fn no_empty_bound(&self, cond: KeyCondition, field: &Field) -> Result<KeyCondition, QueryError> {
        match &cond {
            KeyCondition::Ge(v) | KeyCondition::Gt(v) if v.is_empty() => {
                Err(self.error(Some(field), QueryErrorKind::MatchesEverything))
            }
            KeyCondition::Lt(v) | KeyCondition::Le(v) if v.is_empty() => {
                Err(self.error(Some(field), QueryErrorKind::EmptyRange))
            }
            _ => Ok(cond),
        }
    }

    #[cold]
    fn error(&self, field: Option<&Field>, kind: QueryErrorKind) -> QueryError {
        QueryError::new(self.key_name, field.map(Field::name), kind)
    }
}

/// The field's segment on its own.
fn encode_alone(write: impl FnOnce(&mut String) -> Result<(), EncodeError>) -> Result<String, EncodeError> {
    let mut e = String::new();
    write(&mut e)?;
    Ok(e)
}

/// The least key above `s` that ends the same way: for a fixed-width last field the next
/// string of the same length, for text `s` followed by U+0000.
fn successor(mut s: String, field: &Field) -> String {
    if field.width() > 0
        && let Some(last) = s.pop()
    {
        // Fixed-width segments are ASCII, and no ASCII byte of an encoding is 0x7F.
        s.push(char::from_u32(last as u32 + 1).unwrap_or(last));
        return s;
    }
    s.push('\0');
    s
}

/// The greatest key below `s` that ends the same way: for a fixed-width last field the
/// previous string of the same length; for text the greatest string of at most `max_len`
/// bytes below `s`, which ends in a run of U+10FFFF.
fn predecessor(mut s: String, field: &Field, max_len: usize) -> String {
    let Some(last) = s.pop() else { return s };
    if field.width() > 0 {
        // A fixed-width last char is an ASCII digit or letter; `checked_sub` keeps a segment
        // type written outside the crate that breaks that rule from panicking here.
        s.push((last as u32).checked_sub(1).and_then(char::from_u32).unwrap_or(last));
        return s;
    }
    if last == '\0' {
        return s;
    }
    s.push(previous_char(last));
    let fill = max_len.saturating_sub(s.len());
    push_greatest(&mut s, fill);
    s
}

/// Appends the greatest string of `bytes` UTF-8 bytes: a run of U+10FFFF, then the greatest
/// character of the 1 to 3 bytes left.
fn push_greatest(s: &mut String, bytes: usize) {
    s.extend(std::iter::repeat_n('\u{10FFFF}', bytes / 4));
    match bytes % 4 {
        3 => s.push('\u{FFFF}'),
        2 => s.push('\u{7FF}'),
        1 => s.push('\u{7F}'),
        _ => {}
    }
}

/// The least string of at most `limit` bytes that is at or above `s`, `None` when every
/// string that short is below `s`.
///
/// A string within the limit is itself. Otherwise every string of at most `limit` bytes that
/// starts like `s` is a prefix of it and so below it; the least one above differs from `s` at
/// the last position it can: a prefix of `s`, then the character after `s`'s own there, which
/// must still fit.
fn least_at_or_above(s: &str, limit: usize) -> Option<String> {
    if s.len() <= limit {
        return Some(s.to_owned());
    }
    s.char_indices().rev().find_map(|(i, c)| {
        let next = next_char(c)?;
        (i + next.len_utf8() <= limit).then(|| {
            let mut out = s[..i].to_owned();
            out.push(next);
            out
        })
    })
}

/// The greatest string of at most `limit` bytes (at least 1) that is at or below `s`: `s`
/// itself, or its longest prefix within the limit followed by the greatest character that
/// fills the bytes left (which is below `s`'s own next character, a longer one).
fn greatest_at_or_below(s: &str, limit: usize) -> String {
    if s.len() <= limit {
        return s.to_owned();
    }
    let mut end = limit;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = s[..end].to_owned();
    // Fewer than 4 bytes are left: `s`'s next character did not fit.
    push_greatest(&mut out, limit - end);
    out
}

/// The least `char` above `c`, skipping the surrogates; `None` for U+10FFFF.
fn next_char(c: char) -> Option<char> {
    match c as u32 {
        0xD7FF => Some('\u{E000}'),
        n => char::from_u32(n + 1),
    }
}

/// The greatest `char` below `c` (which is not U+0000), skipping the surrogates.
fn previous_char(c: char) -> char {
    match c as u32 {
        0xE000 => '\u{D7FF}',
        n => char::from_u32(n - 1).unwrap_or('\0'),
    }
}

/// The builder called with values of segment types, as the generated methods call it.
#[cfg(test)]
impl QueryHead {
    fn fix_value<T: KeySegment + ?Sized>(self, value: &T, field: &Field) -> Self {
        self.fix(value, field, T::encode_segment)
    }

    fn compare_value<T: KeySegment + ?Sized>(
        self,
        cmp: Comparison,
        value: &T,
        field: &Field,
    ) -> Result<KeyCondition, QueryError> {
        self.compare(cmp, field, value, T::encode_segment)
    }

    fn between_value<T: KeySegment + ?Sized>(
        self,
        low: &T,
        high: &T,
        field: &Field,
    ) -> Result<KeyCondition, QueryError> {
        self.between(field, low, high, T::encode_segment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAST_TEXT: Field = Field::new("K", "name", '#').with_last(true);
    const MID_NUM: Field = Field::new("K", "n", '#').with_width(3);

    fn head() -> QueryHead {
        QueryHead::new("K", Some("P"), '#', 20, KeyRole::Sort)
    }

    #[test]
    fn bounds_stay_within_the_sort_key_limit() {
        let wide = QueryHead::new("K", Some("P"), '#', 2048, KeyRole::Sort);
        let KeyCondition::Between(_, hi) = wide.compare_value(Comparison::Lt, "b", &LAST_TEXT).unwrap() else {
            panic!()
        };
        assert!(hi.len() <= 1024 && hi.len() > 1020, "{}", hi.len());
    }

    #[test]
    fn gt_on_a_full_length_key_is_the_next_string_within_the_limit() {
        // "P#" + 1022 bytes is a key of exactly 1024 bytes; `> it` would naively be 1025 bytes.
        let x = "a".repeat(1021) + "b";
        let c = QueryHead::new("K", Some("P"), '#', 1024, KeyRole::Sort)
            .compare_value(Comparison::Gt, x.as_str(), &LAST_TEXT)
            .unwrap();
        let KeyCondition::Between(lo, hi) = &c else { panic!("{c:?}") };
        assert_eq!(lo, &format!("P#{}c", "a".repeat(1021)));
        assert_eq!(hi, "P$");
        assert!(!c.matches(&format!("P#{x}")) && c.matches(lo));
    }

    #[test]
    fn bounds_over_the_limit_move_inside_it() {
        assert_eq!(least_at_or_above("abc", 3).as_deref(), Some("abc"));
        assert_eq!(least_at_or_above("abcd", 3).as_deref(), Some("abd"));
        assert_eq!(least_at_or_above("ab\u{10FFFF}d", 3).as_deref(), Some("ac"));
        assert_eq!(least_at_or_above("\u{10FFFF}\u{10FFFF}", 5), None);
        assert_eq!(least_at_or_above("a\u{D7FF}x", 4).as_deref(), Some("a\u{E000}"));
        assert_eq!(greatest_at_or_below("abcd", 3), "abc");
        assert_eq!(greatest_at_or_below("ab\u{10FFFF}", 4), "ab\u{7FF}");
        assert_eq!(greatest_at_or_below("a\u{10FFFF}", 4), "a\u{FFFF}");
    }

    #[test]
    fn conditions_no_key_can_meet_are_errors() {
        let long = "a".repeat(1030);
        let h = || QueryHead::new("K", Some("P"), '#', 2048, KeyRole::Sort);
        let e = h().fix_value(long.as_str(), &Field::new("K", "a", '#')).begins_with().unwrap_err();
        assert_eq!(e.kind(), &QueryErrorKind::EmptyRange);
        let e = h().fix_value(long.as_str(), &LAST_TEXT).eq().unwrap_err();
        assert_eq!(e.kind(), &QueryErrorKind::Encode(EncodeErrorKind::TooLong { len: 1032, max_len: 1024 }));
        let e = h().text_begins_with(&long, &LAST_TEXT).unwrap_err();
        assert_eq!(e.kind(), &QueryErrorKind::EmptyRange);
        let c = h().compare_value(Comparison::Ge, long.as_str(), &LAST_TEXT).unwrap();
        assert_eq!(c.values().iter().map(|v| v.len()).max(), Some(1024));
    }

    #[test]
    fn prefix_bound_cannot_leak_neighbours() {
        let c = head().fix_value("f34", &Field::new("K", "a", '#')).begins_with().unwrap();
        assert_eq!(c, KeyCondition::BeginsWith("P#f34#".into()));
        assert!(!c.matches("P#f340#x"));
        assert!(c.matches("P#f34#x"));
    }

    #[test]
    fn final_text_lt_uses_the_greatest_string_below() {
        let c = head().compare_value(Comparison::Lt, "f34", &LAST_TEXT).unwrap();
        let KeyCondition::Between(lo, hi) = &c else { panic!("{c:?}") };
        assert_eq!(lo, "P#");
        assert!(hi.len() <= 20 && hi.as_str() < "P#f34" && hi.starts_with("P#f33"));
        assert!(c.matches("P#f33\u{10FFFF}") && !c.matches("P#f34") && c.matches("P#"));
    }

    #[test]
    fn final_text_gt_excludes_bound_includes_extensions() {
        let c = head().compare_value(Comparison::Gt, "f34", &LAST_TEXT).unwrap();
        assert!(!c.matches("P#f34") && c.matches("P#f34\0") && c.matches("P#f34$") && !c.matches("P$x"));
    }

    #[test]
    fn non_final_bounds_are_never_keys() {
        let c = head().compare_value(Comparison::Le, &5u16, &MID_NUM).unwrap();
        assert_eq!(c, KeyCondition::Between("P#".into(), "P#005$".into()));
        let c = head().compare_value(Comparison::Gt, &5u16, &MID_NUM).unwrap();
        assert_eq!(c, KeyCondition::Between("P#005$".into(), "P$".into()));
    }

    #[test]
    fn reversed_between_is_an_error_and_desc_swaps() {
        assert!(head().between_value(&7u16, &3u16, &MID_NUM).is_err());
        let c = head().between_value(&3u16, &7u16, &MID_NUM.with_desc(true)).unwrap();
        assert_eq!(c, KeyCondition::Between("P#992".into(), "P#996$".into()));
    }

    #[test]
    fn root_without_prefix_is_one_sided_and_begins_with_is_refused() {
        let root = QueryHead::new("K", None, '#', 1024, KeyRole::Sort);
        assert_eq!(
            root.clone().compare_value(Comparison::Gt, &5u16, &MID_NUM).unwrap(),
            KeyCondition::Ge("005$".into())
        );
        assert_eq!(root.clone().begins_with().unwrap_err().kind(), &QueryErrorKind::MatchesEverything);
        let text = Field::new("K", "name", '#');
        assert_eq!(
            root.clone().compare_value(Comparison::Ge, "", &text).unwrap_err().kind(),
            &QueryErrorKind::MatchesEverything
        );
        assert_eq!(
            root.clone().compare_value(Comparison::Lt, "", &text).unwrap_err().kind(),
            &QueryErrorKind::EmptyRange
        );
        assert_eq!(root.between_value("", "b", &text).unwrap(), KeyCondition::Le("b$".into()));
    }

    #[test]
    fn errors_are_kept_until_the_end() {
        let c = head().fix_value(&1000u16, &MID_NUM).fix_value("x", &LAST_TEXT).begins_with();
        assert_eq!(c.unwrap_err().field(), Some("n"));
    }

    #[test]
    fn expressions_render_placeholders() {
        let e = KeyCondition::Ge("A".into()).with_partition_key("PK", "U#1", "SK");
        assert_eq!(e.expression, "#pk = :pk AND #sk >= :sk0");
        assert_eq!(e.names, [("#pk".into(), "PK".into()), ("#sk".into(), "SK".into())]);
    }
}
