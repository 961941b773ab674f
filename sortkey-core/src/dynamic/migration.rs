//! A migration between two layouts of a lock, fields matched by name: a key of the old layout is
//! decoded and its value encoded in the new one (a wider width, a `desc`, a new prefix, the
//! fields in another order), with no Rust type of the key's own. What `sortkey migrate` moves
//! items by, through the backfill. A partition key's migration may also add, drop or recount a
//! shard field (a shard-count change): each item's new shard is calculated from its sort key, by
//! the rule of the new layout.

use crate::dynamic::model::{DynBody, DynLayout, DynVariant};
use crate::dynamic::value::DynValue;
use crate::encoding::key::KeyRole;
use crate::encoding::shard::ShardRule;
use crate::migrate::rekey::{MigrationError, MigrationErrorKind, Rekey, RekeyError, RekeyErrorKind, Rekeyed};

/// The move of keys from layout `from` (or from several older layouts of one key, newest first:
/// [`DynMigration::versions`]) to layout `to`, each key's fields matched by name. Of the sort
/// key, or of the partition key (then an item's new shard is calculated from its sort key, read
/// by [`reading_sort_keys`](DynMigration::reading_sort_keys)).
#[derive(Debug, Clone)]
pub struct DynMigration {
    from: Vec<(String, DynLayout)>,
    to: (String, DynLayout),
    /// The table's sort key layouts, which a new shard's `by` field is read from.
    sorts: Vec<(String, DynLayout)>,
}

impl std::error::Error for MigrationError {}

impl DynMigration {
    /// The migration from layout `from` to layout `to` (each with its name in the lock): both of
    /// the sort key, or both of the partition key, with the same fields by path (but a partition
    /// key's shard field, which either may have alone). An error otherwise.
    pub fn new(from: (String, DynLayout), to: (String, DynLayout)) -> Result<DynMigration, MigrationError> {
        let error = |kind| MigrationError { from: from.0.clone(), to: to.0.clone(), kind };
        if from.1.role != to.1.role {
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
        Ok(DynMigration { from: vec![from], to, sorts: Vec::new() })
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
        Ok(DynMigration { from: all, to, sorts: Vec::new() })
    }

    /// The migration of the partition key layout `to` (sharded `by` a field) to itself: it moves
    /// only the items stored under a shard other than the one their sort key gives (SK-SHD-002),
    /// which a point read cannot find ([`AuditReport::misplaced`](crate::AuditReport::misplaced)),
    /// each to its own shard. Give it the table's sort key layouts with
    /// [`reading_sort_keys`](Self::reading_sort_keys). A layout of a partition key sharded by a
    /// field is refused otherwise. A migration from older versions moves such items too.
    ///
    /// ```
    /// use sortkey_core::{DynLayout, DynMigration, Rekeyed};
    ///
    /// let pk = DynLayout::parse("partition S#{season:u16 width=4}#{shard:u16 shards=7 by=player}").unwrap();
    /// let sk = DynLayout::parse("RUN#{score:u32 width=4}#{player:text}").unwrap();
    /// let m = DynMigration::placement(("RunPk".into(), pk.clone())).unwrap().reading_sort_keys([("RunSk", &sk)]);
    /// let home = pk.placed_partition("S#2026#0", "RUN#1500#p_1", [&sk]).unwrap();
    /// assert_eq!(m.classify_item(Some(&home), Some("RUN#1500#p_1")).unwrap().0, Rekeyed::Current);
    /// let away = if home == "S#2026#0" { "S#2026#1" } else { "S#2026#0" };
    /// let (moved, to) = m.classify_item(Some(away), Some("RUN#1500#p_1")).unwrap();
    /// assert_eq!((moved, to), (Rekeyed::Move("RUN#1500#p_1".into()), Some(home)));
    /// ```
    pub fn placement(to: (String, DynLayout)) -> Result<DynMigration, MigrationError> {
        let by = to.1.shard_field().is_some_and(|(_, s)| matches!(s.rule(), ShardRule::By(_)));
        if to.1.role != KeyRole::Partition || !by {
            let kind = MigrationErrorKind::NotShardedByField;
            return Err(MigrationError { from: to.0.clone(), to: to.0, kind });
        }
        Ok(DynMigration { from: Vec::new(), to, sorts: Vec::new() })
    }

    /// The migration of a partition key with the table's sort key `layouts` (the lock's, for
    /// instance [`LockFile::layouts_reading`](crate::LockFile::layouts_reading) of the sort key
    /// attribute), of which the first that reads an item's sort key and has the field a new
    /// shard is calculated `by` gives that field's segment.
    pub fn reading_sort_keys<'a>(mut self, layouts: impl IntoIterator<Item = (&'a str, &'a DynLayout)>) -> Self {
        self.sorts = layouts
            .into_iter()
            .filter(|(_, l)| l.role == KeyRole::Sort)
            .map(|(n, l)| (n.to_owned(), l.clone()))
            .collect();
        self
    }

    /// Whether the migration moves partition keys (its layouts are a partition key's).
    pub fn moves_partition_keys(&self) -> bool {
        self.to.1.role == KeyRole::Partition
    }

    /// What becomes of `key`: moved (its value encoded in the new layout) when the old layout
    /// reads it, left when the new one does ([`Rekeyed::Current`]) or neither
    /// ([`Rekeyed::Other`]). An error when both read it or its value does not fit the new layout.
    /// A partition key whose new shard is calculated from the sort key needs
    /// [`classify_item`](Self::classify_item).
    pub fn classify(&self, key: &str) -> Result<Rekeyed, MigrationError> {
        self.classify_key(key, None)
    }

    /// What becomes of the item whose keys are `partition` and `sort`, and with a
    /// [`Rekeyed::Move`] of a partition key migration the partition key it moves to (its sort
    /// key stays). A sort key migration classifies `sort` as [`classify`](Self::classify) does.
    pub fn classify_item(
        &self,
        partition: Option<&str>,
        sort: Option<&str>,
    ) -> Result<(Rekeyed, Option<String>), MigrationError> {
        if !self.moves_partition_keys() {
            return Ok((sort.map_or(Ok(Rekeyed::Other), |key| self.classify(key))?, None));
        }
        let Some(key) = partition else { return Ok((Rekeyed::Other, None)) };
        match self.classify_key(key, sort)? {
            Rekeyed::Move(pk) => Ok((Rekeyed::Move(sort.unwrap_or_default().to_owned()), Some(pk))),
            other => Ok((other, None)),
        }
    }

    /// [`classify`](Self::classify), a partition key's new shard calculated from `sort`.
    fn classify_key(&self, key: &str, sort: Option<&str>) -> Result<Rekeyed, MigrationError> {
        let current = self.to.1.decode(key).is_ok();
        let old = self.from.iter().find_map(|(name, layout)| layout.decode(key).ok().map(|v| (name, v)));
        let error = |from: &str, kind| MigrationError { from: from.to_owned(), to: self.to.0.clone(), kind };
        match old {
            Some((from, _)) if current => Err(error(from, MigrationErrorKind::Ambiguous { key: key.to_owned() })),
            Some((from, value)) => {
                let value = self.with_new_shard(value, sort).map_err(|kind| error(from, kind))?;
                self.to
                    .1
                    .encode(&value)
                    .map(Rekeyed::Move)
                    .map_err(|e| error(from, MigrationErrorKind::DoesNotFit { key: key.to_owned(), error: e }))
            }
            // A key of the current layout under a shard other than its sort key's moves there.
            None if current => {
                let sorts = self.sorts.iter().map(|(_, l)| l);
                match sort.and_then(|sort| self.to.1.placed_partition(key, sort, sorts)) {
                    Some(home) if home != key => Ok(Rekeyed::Move(home)),
                    _ => Ok(Rekeyed::Current),
                }
            }
            None => Ok(Rekeyed::Other),
        }
    }

    /// A partition key's `value` in an old layout, its old shard dropped and the new layout's
    /// calculated: `by` a field, the shard of that field's segment in the item's sort key `sort`
    /// (read by the first sort key layout that reads it and has the field); `random`, the shard
    /// of the whole sort key (any shard would do; this one is the same on every pass, so that a
    /// move retried goes where the first went). A sort key's value as it is.
    fn with_new_shard(&self, value: DynValue, sort: Option<&str>) -> Result<DynValue, MigrationErrorKind> {
        let DynValue::Key(mut values) = value else { return Ok(value) };
        let old_shards: Vec<&str> =
            self.from.iter().filter_map(|(_, l)| l.shard_field().map(|(at, _)| field_name(l, at))).collect();
        values.retain(|(name, _)| !old_shards.contains(name));
        let Some((at, shards)) = self.to.1.shard_field() else { return Ok(DynValue::Key(values)) };
        let no_field = |field: &'static str| MigrationErrorKind::NoShardField { sort: sort.map(str::to_owned), field };
        let shard = match shards.rule() {
            ShardRule::Random => shards.of(sort.ok_or_else(|| no_field("(the whole sort key)"))?.as_bytes()),
            ShardRule::By(field) => {
                let sort = sort.ok_or_else(|| no_field(field))?;
                let segment = self.sorts.iter().find_map(|(_, layout)| {
                    let value = layout.decode(sort).ok()?;
                    layout.field_segment(&value, field)?.ok()
                });
                shards.of(segment.ok_or_else(|| no_field(field))?.as_bytes())
            }
        };
        let name = field_name(&self.to.1, at);
        values.insert(at.min(values.len()), (name, DynValue::Unsigned(u128::from(shard))));
        Ok(DynValue::Key(values))
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

    fn rekey_item(&self, partition: Option<&str>, sort: &str) -> Result<(Rekeyed, Option<String>), RekeyError> {
        self.classify_item(partition, Some(sort))
            .map_err(|e| RekeyError { key: sort.to_owned(), kind: RekeyErrorKind::Migration(e) })
    }
}

/// The name of the field at `at` of a layout of fields.
fn field_name(layout: &DynLayout, at: usize) -> &'static str {
    match &layout.key.body {
        DynBody::Fields(fields) => fields[at].name,
        _ => "",
    }
}

/// The fields of a layout by path, with a family's unit variants, but a shard field (which a
/// partition key's migration adds, drops or recounts); `None` for a custom segment's.
fn names(layout: &DynLayout) -> Option<Vec<String>> {
    if matches!(layout.key.body, DynBody::Custom) {
        return None;
    }
    let mut names: Vec<String> =
        layout.field_paths().into_iter().filter(|(_, f)| f.shards.is_none()).map(|(path, _)| path).collect();
    if let DynBody::Family(variants) = &layout.key.body {
        names.extend(variants.iter().filter_map(|v| match v {
            DynVariant::Unit(literal) => Some(literal.clone()),
            DynVariant::Key(_) => None,
        }));
    }
    Some(names)
}
