//! A migration between two layouts of a lock, fields matched by name: a key of the old layout is
//! decoded and its value encoded in the new one (a wider width, a `desc`, a new prefix, the
//! fields in another order), with no Rust type of the key's own. What `sortkey migrate` moves
//! items by, through the backfill.

use crate::dynamic::{DynBody, DynLayout, DynVariant};
use crate::migrate::rekey::{MigrationError, MigrationErrorKind, Rekey, RekeyError, RekeyErrorKind, Rekeyed};

/// The move of keys from layout `from` (or from several older layouts of one key, newest first:
/// [`DynMigration::versions`]) to layout `to`, each key's fields matched by name.
#[derive(Debug, Clone)]
pub struct DynMigration {
    from: Vec<(String, DynLayout)>,
    to: (String, DynLayout),
}

impl std::error::Error for MigrationError {}

impl DynMigration {
    /// The migration from layout `from` to layout `to` (each with its name in the lock): both of
    /// the sort key, with the same fields by path. An error otherwise.
    pub fn new(from: (String, DynLayout), to: (String, DynLayout)) -> Result<DynMigration, MigrationError> {
        let error = |kind| MigrationError { from: from.0.clone(), to: to.0.clone(), kind };
        if from.1.role != to.1.role || from.1.role != crate::KeyRole::Sort {
            return Err(error(MigrationErrorKind::Roles));
        }
        let (Some(old), Some(new)) = (names(&from.1), names(&to.1)) else {
            return Err(error(MigrationErrorKind::Custom));
        };
        let only_from: Vec<String> = old.iter().filter(|n| !new.contains(n)).cloned().collect();
        let only_to: Vec<String> = new.iter().filter(|n| !old.contains(n)).cloned().collect();
        if !only_from.is_empty() || !only_to.is_empty() {
            return Err(error(MigrationErrorKind::Fields { only_from, only_to }));
        }
        Ok(DynMigration { from: vec![from], to })
    }

    /// The migration of every older layout in `from` (newest first, as a lock's version line
    /// lists them) to `to`: each as [`new`](Self::new) requires, a key moved from the first of
    /// them that reads it. An error for the first older layout that cannot migrate, or when
    /// `from` is empty.
    pub fn versions(from: Vec<(String, DynLayout)>, to: (String, DynLayout)) -> Result<DynMigration, MigrationError> {
        if from.is_empty() {
            let kind = MigrationErrorKind::Fields { only_from: Vec::new(), only_to: Vec::new() };
            return Err(MigrationError { from: String::new(), to: to.0, kind });
        }
        let mut all = Vec::with_capacity(from.len());
        for old in from {
            let one = DynMigration::new(old, to.clone())?;
            all.extend(one.from);
        }
        Ok(DynMigration { from: all, to })
    }

    /// What becomes of `key`: moved (its value encoded in the new layout) when the old layout
    /// reads it, left when the new one does ([`Rekeyed::Current`]) or neither
    /// ([`Rekeyed::Other`]). An error when both read it or its value does not fit the new layout.
    pub fn classify(&self, key: &str) -> Result<Rekeyed, MigrationError> {
        let current = self.to.1.decode(key).is_ok();
        let old = self.from.iter().find_map(|(name, layout)| layout.decode(key).ok().map(|v| (name, v)));
        let error = |from: &str, kind| MigrationError { from: from.to_owned(), to: self.to.0.clone(), kind };
        match old {
            Some((from, _)) if current => Err(error(from, MigrationErrorKind::Ambiguous { key: key.to_owned() })),
            Some((from, value)) => self
                .to
                .1
                .encode(&value)
                .map(Rekeyed::Move)
                .map_err(|e| error(from, MigrationErrorKind::DoesNotFit { key: key.to_owned(), error: e })),
            None if current => Ok(Rekeyed::Current),
            None => Ok(Rekeyed::Other),
        }
    }

    /// The (newest) old layout's name.
    pub fn from_name(&self) -> &str {
        self.from.first().map_or("", |(name, _)| name.as_str())
    }

    /// The old layouts' names, newest first.
    pub fn from_names(&self) -> impl Iterator<Item = &str> {
        self.from.iter().map(|(name, _)| name.as_str())
    }

    /// The new layout's name.
    pub fn to_name(&self) -> &str {
        &self.to.0
    }
}

impl Rekey for DynMigration {
    fn rekey(&self, key: &str) -> Result<Rekeyed, RekeyError> {
        self.classify(key).map_err(|e| RekeyError { key: key.to_owned(), kind: RekeyErrorKind::Migration(e) })
    }
}

/// The fields of a layout by path, with a family's unit variants; `None` for a custom segment's.
fn names(layout: &DynLayout) -> Option<Vec<String>> {
    if matches!(layout.key.body, DynBody::Custom) {
        return None;
    }
    let mut names: Vec<String> = layout.field_paths().into_iter().map(|(path, _)| path).collect();
    if let DynBody::Family(variants) = &layout.key.body {
        names.extend(variants.iter().filter_map(|v| match v {
            DynVariant::Unit(literal) => Some(literal.clone()),
            DynVariant::Key(_) => None,
        }));
    }
    Some(names)
}
