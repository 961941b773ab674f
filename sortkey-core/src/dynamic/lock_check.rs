//! The lock the code derives, and its check: the keys of key types, entities and table
//! definitions (a name and a layout each, with their older layouts) and the table attributes
//! that hold them, written as a lock file's text ([`LockedKeys::text`]) and checked against one
//! ([`LockedKeys::check`], [`check_lock_file`]).

use crate::dynamic::lock::{
    LayoutDifference, LockError, LockErrorKind, LockFile, TableAttribute, UPDATE_LOCK_VAR, Versions,
};
use crate::encoding::layout::Layout;
use crate::table::definition::TableDefinition;
use crate::table::entity::Entity;

/// The keys a lock holds, as the code derives them: key types by name, entities and table
/// definitions whole (every key of an entity, an index added later included), and, for a table,
/// which layouts each of its attributes holds, so that the `sortkey` command reads a table
/// through its own layouts only.
///
/// ```
/// use sortkey_core::{Entity, LockedKeys, SortKey, TableDefinition};
///
/// #[derive(Entity)]
/// #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ORDER", order_no(width = 8)),
///     index(by_day(name = "gsi1", pk(prefix = "DAY", day(width = 8)), sk(order_no(width = 8)))))]
/// struct Order {
///     customer_id: String,
///     order_no: u32,
///     day: u32,
/// }
///
/// #[derive(SortKey)]
/// #[key(prefix = "RUN")]
/// struct RankKey {
///     #[key(width = 10, desc)]
///     score: u64,
/// }
///
/// let keys = LockedKeys::new().table(&TableDefinition::of::<Order>("orders")).key("RankKey", RankKey::LAYOUT);
/// assert_eq!(
///     keys.text(),
///     "OrderPk = partition CUST#{customer_id:text}\n\
///      OrderSk = ORDER#{order_no:u32 width=8}\n\
///      OrderByDayPk = partition DAY#{day:u32 width=8}\n\
///      OrderByDaySk = {order_no:u32 width=8}\n\
///      RankKey = RUN#{score:u64 width=10 desc}\n\
///      table orders pk: OrderPk\n\
///      table orders sk: OrderSk\n\
///      table orders gsi1pk: OrderByDayPk\n\
///      table orders gsi1sk: OrderByDaySk\n"
/// );
/// // In a test: keys.check(concat!(env!("CARGO_MANIFEST_DIR"), "/layouts.lock")).unwrap();
/// ```
#[derive(Debug, Clone, Default)]
pub struct LockedKeys {
    keys: Vec<(String, Layout)>,
    tables: Vec<TableAttribute>,
    /// Names given two layouts that differ: reported by the check.
    conflicts: Vec<(String, String, String)>,
}

impl LockedKeys {
    /// No key yet.
    pub fn new() -> Self {
        LockedKeys::default()
    }

    /// The key type (or family) `layout` under `name` (`RankKey::LAYOUT` as `RankKey`), with its
    /// older layouts. A name given twice with one layout is one key; with two, the check fails.
    pub fn key(mut self, name: &str, layout: Layout) -> Self {
        match self.keys.iter().find(|(n, _)| n == name) {
            Some((_, known)) if known.to_string() != layout.to_string() => {
                self.conflicts.push((name.to_owned(), known.to_string(), layout.to_string()));
            }
            Some(_) => {}
            None => self.keys.push((name.to_owned(), layout)),
        }
        self
    }

    /// Every composite key of the entity `E` (`E::LAYOUTS`: its primary key's, each index's),
    /// under its key type's name.
    pub fn entity<E: Entity>(self) -> Self {
        E::LAYOUTS.iter().fold(self, |keys, k| keys.key(k.name, k.layout))
    }

    /// Every composite key of the table's entities, and a `table TABLE ATTRIBUTE: Name, ...`
    /// line per attribute saying which of them it holds.
    pub fn table(mut self, table: &TableDefinition) -> Self {
        for k in table.key_layouts() {
            self = self.key(k.name, k.layout);
            let line = self.tables.iter_mut().find(|t| t.table == table.name() && t.attribute == k.attribute);
            match line {
                Some(line) if !line.layouts.iter().any(|n| n == k.name) => line.layouts.push(k.name.to_owned()),
                Some(_) => {}
                None => self.tables.push(TableAttribute {
                    table: table.name().to_owned(),
                    attribute: k.attribute.to_owned(),
                    layouts: vec![k.name.to_owned()],
                }),
            }
        }
        self
    }

    /// The lock's text, as [`check`](Self::check) writes it with `SORTKEY_UPDATE_LOCK` set: a
    /// `name = layout` line per key and per older layout of a key that no key has (named
    /// `Key@v1`, `Key@v2`, ...), a `Current > Older` line per key with older layouts, newest first,
    /// and a `table TABLE ATTRIBUTE: Name, ...` line per attribute of a table.
    pub fn text(&self) -> String {
        let (entries, versions) = self.derived();
        let mut text: String = entries.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
        versions.iter().for_each(|v| text.push_str(&format!("{v}\n")));
        self.tables.iter().for_each(|t| text.push_str(&format!("{t}\n")));
        text
    }

    /// Checks the keys against the lock file `path`: `Ok` when every key is in it with its
    /// layout, its versions and its tables' attributes, and it names no other, else an error that
    /// lists every difference (each layout with both texts and the first differing byte) and says
    /// what a changed layout means for the keys already stored. With the environment variable
    /// `SORTKEY_UPDATE_LOCK` set, the file is written instead: the way to change a layout on
    /// purpose, in a reviewed commit.
    pub fn check(&self, path: impl AsRef<std::path::Path>) -> Result<(), LockError> {
        let path = path.as_ref();
        let error = |kind| LockError { path: path.to_owned(), kind };
        let mut differences: Vec<LayoutDifference> = self
            .conflicts
            .iter()
            .map(|(name, first, second)| LayoutDifference::TwoLayouts {
                name: name.clone(),
                first: first.clone(),
                second: second.clone(),
            })
            .collect();
        if std::env::var_os(UPDATE_LOCK_VAR).is_some() && differences.is_empty() {
            // The lock's `rank` lines are written by hand (no derive declares them yet): kept,
            // those of a layout still in the lock.
            let mut text = self.text();
            let kept = std::fs::read_to_string(path).ok().and_then(|old| LockFile::parse(&old).ok());
            for rank in kept.iter().flat_map(|l| &l.ranks) {
                if text.lines().any(|l| l.split_once(" = ").is_some_and(|(n, _)| n == rank.layout)) {
                    text.push_str(&format!("{rank}\n"));
                }
            }
            return std::fs::write(path, text).map_err(|e| error(LockErrorKind::Write(e)));
        }
        let text = std::fs::read_to_string(path).map_err(|e| error(LockErrorKind::Read(e)))?;
        // The lock is read by the layout parser, so a line the grammar does not allow is an error
        // of its own, at its line and byte.
        let lock = LockFile::parse(&text).map_err(|e| error(LockErrorKind::Parse(e)))?;
        let (derived, versions) = self.derived();
        let texts: Vec<(String, String)> = lock.entries.iter().map(|(n, l)| (n.clone(), l.to_string())).collect();
        for (name, layout) in &derived {
            match texts.iter().find(|(n, _)| n == name) {
                Some((_, locked)) => {
                    if let Err(mismatch) = layout.check(locked) {
                        let mut tables: Vec<String> = (self.tables.iter())
                            .filter(|t| t.layouts.contains(name))
                            .map(|t| t.table.clone())
                            .collect();
                        tables.dedup();
                        differences.push(LayoutDifference::Changed { name: name.clone(), mismatch, tables });
                    }
                }
                None => {
                    differences.push(LayoutDifference::NotLocked { name: name.clone(), derived: layout.to_string() })
                }
            }
        }
        for (name, locked) in &texts {
            if !derived.iter().any(|(n, _)| n == name) {
                differences.push(LayoutDifference::NotChecked { name: name.clone(), locked: locked.clone() });
            }
        }
        differences.extend(version_differences(&versions, &lock.versions));
        differences.extend(table_differences(&self.tables, &lock.tables));
        if differences.is_empty() { Ok(()) } else { Err(error(LockErrorKind::Differs(differences))) }
    }

    /// The lock the keys derive: each key's layout, each older layout of a key (`#[key(legacy =
    /// ...)]`) under the name of the key that has it, or `Key@vN` (the N-th older one) when none
    /// does; and each key's versions, newest first.
    fn derived(&self) -> (Vec<(String, Layout)>, Vec<Versions>) {
        let mut entries = self.keys.clone();
        let mut versions = Vec::new();
        for (name, layout) in &self.keys {
            let mut older = Vec::new();
            for (i, old) in layout.legacy().iter().enumerate() {
                let text = old.to_string();
                let known = self.keys.iter().find(|(n, l)| n != name && l.to_string() == text).map(|(n, _)| n.clone());
                let old_name = known.unwrap_or_else(|| {
                    let synthetic = format!("{name}@v{}", i + 1);
                    entries.push((synthetic.clone(), **old));
                    synthetic
                });
                older.push(old_name);
            }
            if !older.is_empty() {
                versions.push(Versions { current: name.clone(), older });
            }
        }
        (entries, versions)
    }
}

/// Checks the layouts of `keys` (a name and a layout each) against the lock file `path`: the
/// lock of key types alone, [`LockedKeys`] with [`key`](LockedKeys::key) for each (which also
/// takes entities and table definitions whole). One `name = layout` line per key and one
/// `Current > Older` line per key with older layouts (`#[key(legacy = ...)]`, named after the key
/// of `keys` with that layout, or `Key@v1`, `Key@v2` when none has it): `Ok` when every key is in
/// the file with its layout and its versions and the file names no other key, else an error that
/// lists every difference. With the environment variable `SORTKEY_UPDATE_LOCK` set, the file is
/// written from `keys` instead.
///
/// ```
/// use sortkey_core::{SortKey, check_lock_file};
///
/// #[derive(SortKey)]
/// #[key(prefix = "RUN")]
/// struct RankKey {
///     #[key(width = 10, desc)]
///     score: u64,
/// }
///
/// let path = std::env::temp_dir().join(format!("sortkey-doc-{}.lock", std::process::id()));
/// std::fs::write(&path, "RankKey = RUN#{score:u64 width=10 desc}\n").unwrap();
/// check_lock_file(&path, &[("RankKey", RankKey::LAYOUT)]).unwrap();
/// std::fs::write(&path, "RankKey = RUN#{score:u64 width=8 desc}\n").unwrap();
/// let e = check_lock_file(&path, &[("RankKey", RankKey::LAYOUT)]).unwrap_err().to_string();
/// assert!(e.contains("`RankKey`") && e.contains("differs from its lock at byte 21"), "{e}");
/// assert!(e.contains("stop decoding") && e.contains("legacy") && e.contains("sortkey migrate"), "{e}");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn check_lock_file(path: impl AsRef<std::path::Path>, keys: &[(&str, Layout)]) -> Result<(), LockError> {
    of(keys).check(path)
}

/// The text of the lock of `keys` (a name and a layout each), as [`check_lock_file`] writes it
/// with `SORTKEY_UPDATE_LOCK` set: [`LockedKeys::text`] of the keys.
pub fn lock_text(keys: &[(&str, Layout)]) -> String {
    of(keys).text()
}

/// The [`LockedKeys`] of `keys`.
fn of(keys: &[(&str, Layout)]) -> LockedKeys {
    keys.iter().fold(LockedKeys::new(), |locked, (name, layout)| locked.key(name, *layout))
}

/// The keys whose versions the derived types and the lock record differently.
fn version_differences(derived: &[Versions], locked: &[Versions]) -> Vec<LayoutDifference> {
    let older = |all: &[Versions], name: &str| all.iter().find(|v| v.current == name).map(|v| v.older.clone());
    let names: Vec<&str> = derived.iter().chain(locked).map(|v| v.current.as_str()).collect();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for name in names {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let (d, l) = (older(derived, name).unwrap_or_default(), older(locked, name).unwrap_or_default());
        if d != l {
            out.push(LayoutDifference::Versions { name: name.to_owned(), derived: d, locked: l });
        }
    }
    out
}

/// The attributes of tables whose layouts the table definitions and the lock record differently.
fn table_differences(derived: &[TableAttribute], locked: &[TableAttribute]) -> Vec<LayoutDifference> {
    let layouts = |all: &[TableAttribute], t: &TableAttribute| {
        all.iter().find(|o| o.table == t.table && o.attribute == t.attribute).map(|o| o.layouts.clone())
    };
    let mut out: Vec<LayoutDifference> = Vec::new();
    for t in derived.iter().chain(locked) {
        let (d, l) = (layouts(derived, t).unwrap_or_default(), layouts(locked, t).unwrap_or_default());
        let seen = out.iter().any(|o| {
            matches!(o, LayoutDifference::Tables { table, attribute, .. }
            if *table == t.table && *attribute == t.attribute)
        });
        if d != l && !seen {
            out.push(LayoutDifference::Tables {
                table: t.table.clone(),
                attribute: t.attribute.clone(),
                derived: d,
                locked: l,
            });
        }
    }
    out
}
