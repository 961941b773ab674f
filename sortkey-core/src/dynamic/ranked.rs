//! A ranked field read from a lock: `rank Layout.field levels=N` lines, and the runtime
//! layout's field they name as a [`RankedField`].

use std::fmt;

use crate::dynamic::model::{DynBody, DynLayout, DynType};
use crate::table::rank::{RankError, RankedField};

/// A lock's `rank RankKey.score levels=4` line: the sort key layout whose first field keeps rank
/// counters, and how many levels.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RankLine {
    /// The layout's name in the lock.
    pub layout: String,
    /// The ranked field.
    pub field: String,
    /// The levels of counters.
    pub levels: usize,
}

impl fmt::Display for RankLine {
    /// `rank RankKey.score levels=4`, as the lock writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rank {}.{} levels={}", self.layout, self.field, self.levels)
    }
}

impl RankLine {
    /// Reads the text after `rank `: `Layout.field levels=N`.
    pub(crate) fn parse(text: &str) -> Result<RankLine, String> {
        let expected = || format!("expected `rank Layout.field levels=N`, found `rank {text}`");
        let (name, levels) = text.split_once(" levels=").ok_or_else(expected)?;
        let (layout, field) = name.split_once('.').ok_or_else(expected)?;
        let levels = levels.trim().parse().map_err(|_| expected())?;
        Ok(RankLine { layout: layout.trim().to_owned(), field: field.trim().to_owned(), levels })
    }
}

impl RankedField {
    /// The field `field` of the runtime layout `layout` (named `name` in its lock), ranked with
    /// `levels` levels of counters: the same rules as [`RankedField::of`] (the first field of a
    /// sort key with a prefix, an unsigned integer of fixed width).
    pub fn of_layout(name: &str, layout: &DynLayout, field: &str, levels: usize) -> Result<RankedField, RankError> {
        let error = |message: String| RankError { key: name.to_owned(), field: field.to_owned(), message };
        let DynBody::Fields(fields) = &layout.key.body else {
            return Err(error("expected a key with fields, found a family".into()));
        };
        let Some(position) = fields.iter().position(|f| f.name == field) else {
            let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            return Err(error(format!("expected a field of the key, found only {}", names.join(", "))));
        };
        if position != 0 {
            return Err(error(format!("expected the sort key's first field, found its field {}", position + 1)));
        }
        let Some(prefix) = &layout.key.prefix else {
            return Err(error("expected a sort key with a prefix, found none".into()));
        };
        let first = &fields[0];
        if !matches!(first.ty, DynType::Unsigned(_)) {
            return Err(error(format!("expected an unsigned integer of fixed width, found `{}`", first.ty)));
        }
        let width = first.effective_width() as usize;
        RankedField::new(name, field, &format!("{prefix}{}", layout.key.separator), width, levels)
    }
}

#[cfg(test)]
mod tests {
    use super::RankLine;
    use crate::dynamic::model::DynLayout;
    use crate::table::rank::RankedField;

    #[test]
    fn a_rank_line_reads_back_as_it_is_written() {
        let line = RankLine::parse("RankKey.score levels=4").unwrap();
        assert_eq!(line.to_string(), "rank RankKey.score levels=4");
        assert!(RankLine::parse("RankKey score").is_err());
        assert!(RankLine::parse("RankKey.score levels=x").is_err());
    }

    #[test]
    fn a_lock_names_its_ranked_layouts_and_refuses_a_field_that_cannot_rank() {
        let text = "RankKey = RUN#{score:u64 width=10 desc}#{player:text}\nrank RankKey.score levels=4\n";
        let lock = crate::dynamic::lock::LockFile::parse(text).unwrap();
        assert_eq!(lock.text(), text);
        assert_eq!(lock.ranked("RankKey"), Some(RankedField::new("RankKey", "score", "RUN#", 10, 4).unwrap()));
        assert_eq!(lock.ranked("Other"), None);
        let bad = "RankKey = RUN#{score:u64 width=10 desc}#{player:text}\nrank RankKey.player levels=4\n";
        let e = crate::dynamic::lock::LockFile::parse(bad).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("expected the sort key's first field"), "{e}");
        let missing = "rank Nothing.score levels=4\n";
        let e = crate::dynamic::lock::LockFile::parse(missing).unwrap_err().to_string();
        assert!(e.contains("a layout of the lock named `Nothing`"), "{e}");
    }

    #[test]
    fn a_runtime_layout_ranks_as_its_derived_type_does() {
        let layout = DynLayout::parse("RUN#{score:u64 width=10 desc}#{player:text}").unwrap();
        let ranked = RankedField::of_layout("RankKey", &layout, "score", 4).unwrap();
        assert_eq!(ranked, RankedField::new("RankKey", "score", "RUN#", 10, 4).unwrap());
        let e = RankedField::of_layout("RankKey", &layout, "player", 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot rank `RankKey` by `player`: expected the sort key's first field, found its field 2"
        );
        let text = DynLayout::parse("RUN#{player:text}#{score:u64}").unwrap();
        assert!(RankedField::of_layout("K", &text, "player", 2).is_err());
    }
}
