//! Lock files: `name = layout` lines, each layout read by the layout parser, `Current > Older`
//! lines saying which layouts are older versions of which, and the check of derived layouts (and
//! their `legacy` layouts) against them.

use std::fmt;

use crate::dynamic::model::DynLayout;
use crate::dynamic::parse::LayoutParseError;
use crate::dynamic::ranked::RankLine;
use crate::encoding::key::KeyRole;
use crate::encoding::layout::LayoutMismatch;
use crate::table::rank::RankedField;

/// A lock file read: each key's name and its layout, in the file's order, and which layouts are
/// older versions of which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockFile {
    /// `(name, layout)` per `name = layout` line.
    pub entries: Vec<(String, DynLayout)>,
    /// Per `Current > Older > Oldest` line: a key and its older layouts (from `#[key(legacy =
    /// ...)]`), newest first, each an entry of the lock.
    pub versions: Vec<Versions>,
    /// Per `table TABLE ATTRIBUTE: Name, Other` line: which layouts an attribute of a table
    /// holds (a lock written from table definitions has them; a plain lock has none, and then
    /// every layout of a role is tried on every table).
    pub tables: Vec<TableAttribute>,
    /// Per `rank Layout.field levels=N` line: a sort key layout of the lock whose first field
    /// keeps rank counters (`RankedField`), and how many levels.
    pub ranks: Vec<RankLine>,
}

/// The layouts one attribute of one table holds, as a lock's `table TABLE ATTRIBUTE: Name,
/// Other` line records them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TableAttribute {
    /// The table.
    pub table: String,
    /// The attribute (a primary key's or an index's).
    pub attribute: String,
    /// The names of the layouts it holds, each a layout of the lock (its current version).
    pub layouts: Vec<String>,
}

impl fmt::Display for TableAttribute {
    /// `table orders sk: OrderSk, AddressSk`, as the lock writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table {} {}: {}", self.table, self.attribute, self.layouts.join(", "))
    }
}

/// A key's layouts over time, as a lock's `Current > Older > Oldest` line records them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Versions {
    /// The current layout's name.
    pub current: String,
    /// The older layouts' names, newest first.
    pub older: Vec<String>,
}

/// A lock file line that is neither `name = layout` with a layout the grammar allows nor
/// `Current > Older ...` naming layouts of the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockParseError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong in it: a layout error at its byte, the missing ` = `, or a version line's
    /// name.
    pub error: LayoutParseError,
}

impl fmt::Display for LockParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.error;
        write!(f, "line {}, byte {}: expected {}, found {}", self.line, e.offset, e.expected, e.found)
    }
}

impl std::error::Error for LockParseError {}

impl LockFile {
    /// Reads a lock file's text: one `name = layout` line per key and one `Current > Older ...`
    /// line per key with older layouts (names of the lock's layouts, newest first, of one role,
    /// each in one such line at most), blank lines ignored.
    pub fn parse(text: &str) -> Result<LockFile, LockParseError> {
        let mut entries = Vec::new();
        let mut chains = Vec::new();
        let mut tables = Vec::new();
        let mut ranks = Vec::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let fail = |error| LockParseError { line: i + 1, error };
            if let Some(rest) = line.strip_prefix("table ") {
                tables.push((i + 1, rest));
            } else if let Some(rest) = line.strip_prefix("rank ") {
                ranks.push((i + 1, rest));
            } else if let Some((name, layout)) = line.split_once(" = ") {
                let layout = DynLayout::parse(layout).map_err(|mut e| {
                    e.offset += name.len() + 3;
                    fail(e)
                })?;
                entries.push((name.to_owned(), layout.named(name)));
            } else if line.contains(" > ") {
                chains.push((i + 1, line));
            } else {
                let found = format!("`{line}`");
                let expected =
                    "`name = layout`, `Current > Older`, `table TABLE ATTRIBUTE: Name` or `rank Name.field levels=N`"
                        .into();
                return Err(fail(LayoutParseError { offset: 0, expected, found }));
            }
        }
        let mut lock = LockFile { entries, versions: Vec::new(), tables: Vec::new(), ranks: Vec::new() };
        for (line, text) in chains {
            let versions = lock.chain(text).map_err(|error| LockParseError { line, error })?;
            lock.versions.push(versions);
        }
        for (line, text) in tables {
            let attribute = lock.table_line(text).map_err(|error| LockParseError { line, error })?;
            lock.tables.push(attribute);
        }
        for (line, text) in ranks {
            let fail = |expected: String| LockParseError {
                line,
                error: LayoutParseError { offset: 5, expected, found: format!("`rank {text}`") },
            };
            let rank = RankLine::parse(text).map_err(fail)?;
            let Some((_, layout)) = lock.entries.iter().find(|(n, _)| *n == rank.layout) else {
                return Err(fail(format!("a layout of the lock named `{}`", rank.layout)));
            };
            RankedField::of_layout(&rank.layout, layout, &rank.field, rank.levels).map_err(|e| fail(e.to_string()))?;
            if lock.ranks.iter().any(|r| r.layout == rank.layout) {
                return Err(fail(format!("one `rank` line for `{}`", rank.layout)));
            }
            lock.ranks.push(rank);
        }
        Ok(lock)
    }

    /// A `table TABLE ATTRIBUTE: Name, Other` line (after `table `) read against the entries:
    /// each name a layout of the lock, one role for all, the attribute in one such line at most.
    fn table_line(&self, text: &str) -> Result<TableAttribute, LayoutParseError> {
        // Offsets count from the line's start, after `table `.
        let error = |offset: usize, expected: &str, found: &str| LayoutParseError {
            offset: offset + 6,
            expected: expected.to_owned(),
            found: format!("`{found}`"),
        };
        let Some((head, names)) = text.split_once(": ") else {
            return Err(error(0, "`table TABLE ATTRIBUTE: Name, Other`", text));
        };
        let Some((table, attribute)) = head.split_once(' ').filter(|(t, a)| !t.is_empty() && !a.is_empty()) else {
            return Err(error(0, "a table and an attribute, `table TABLE ATTRIBUTE:`", head));
        };
        if self.tables.iter().any(|t| t.table == table && t.attribute == attribute) {
            return Err(error(table.len() + 1, "each attribute of a table in one line", attribute));
        }
        let mut offset = head.len() + 2;
        let mut layouts: Vec<String> = Vec::new();
        for name in names.split(", ") {
            let Some(layout) = self.get(name) else {
                return Err(error(offset, "the name of a layout of the lock (a `name = layout` line)", name));
            };
            if let Some(first) = layouts.first().and_then(|n| self.get(n))
                && first.role != layout.role
            {
                return Err(error(offset, &format!("a layout of the same role as `{}`", layouts[0]), name));
            }
            layouts.push(name.to_owned());
            offset += name.len() + 2;
        }
        Ok(TableAttribute { table: table.to_owned(), attribute: attribute.to_owned(), layouts })
    }

    /// The layouts of the lock the attribute `attribute` of `table` holds, each with its name
    /// (every version of each: the current one, then its older ones), when the lock says which
    /// (a `table` line of that table); `None` when the lock says nothing of the table, and then
    /// every layout of the attribute's role is the one to try.
    pub fn layouts_of(&self, table: &str, attribute: &str) -> Option<Vec<(&str, &DynLayout)>> {
        if !self.tables.iter().any(|t| t.table == table) {
            return None;
        }
        let line = self.tables.iter().find(|t| t.table == table && t.attribute == attribute);
        let names = line.map(|t| t.layouts.as_slice()).unwrap_or_default();
        Some(names.iter().flat_map(|n| self.live(n)).collect())
    }

    /// The layouts that read the attribute `attribute` of `table`, each with its name: those
    /// [`layouts_of`](Self::layouts_of) gives when the lock says which, every layout of `role`
    /// otherwise (a lock without `table` lines of the table, or no table named).
    pub fn layouts_reading(&self, table: Option<&str>, attribute: &str, role: KeyRole) -> Vec<(&str, &DynLayout)> {
        match table.and_then(|t| self.layouts_of(t, attribute)) {
            Some(own) => own,
            None => self.entries.iter().filter(|(_, l)| l.role == role).map(|(n, l)| (n.as_str(), l)).collect(),
        }
    }

    /// A `Current > Older ...` line read against the entries and the chains read so far.
    fn chain(&self, text: &str) -> Result<Versions, LayoutParseError> {
        let mut names: Vec<String> = Vec::new();
        let mut offset = 0;
        for name in text.split(" > ") {
            let error = |expected: String| LayoutParseError { offset, expected, found: format!("`{name}`") };
            let Some(layout) = self.get(name) else {
                return Err(error("the name of a layout of the lock (a `name = layout` line)".into()));
            };
            if names.iter().any(|n| n == name) || self.versions.iter().any(|v| v.names().any(|n| n == name)) {
                return Err(error("a layout in one version line at most, once".into()));
            }
            if let Some(first) = names.first().and_then(|n| self.get(n))
                && first.role != layout.role
            {
                return Err(error(format!("a layout of the same role as `{}`", names[0])));
            }
            // Two versions that write every key alike are one layout: a migration from one to the
            // other moves nothing, and a key would belong to both.
            if let Some(same) = names.iter().find(|n| self.get(n).is_some_and(|l| l == layout)) {
                return Err(error(format!(
                    "a layout that differs from `{same}`, whose text `{name}` has too ({layout}): versions of \
                     a key are different layouts"
                )));
            }
            // Two shard counts written alike would share partitions: a copy mid-move could not
            // be told from the other version's item.
            if let Some(same) = names.iter().find(|n| self.get(n).is_some_and(|l| same_partitions(l, layout))) {
                return Err(error(format!(
                    "a shard count whose partitions differ from `{same}`'s: both write the shard in the same digits \
                     after the same fields, so their partitions coincide; expected another width of the shard \
                     (a count past 10, 100 or 1000) or another prefix"
                )));
            }
            names.push(name.to_owned());
            offset += name.len() + 3;
        }
        let current = names.remove(0);
        Ok(Versions { current, older: names })
    }

    /// The layout locked under `name`.
    pub fn get(&self, name: &str) -> Option<&DynLayout> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, l)| l)
    }

    /// The versions `name` belongs to (as the current layout or an older one), if any.
    pub fn versions_of(&self, name: &str) -> Option<&Versions> {
        self.versions.iter().find(|v| v.names().any(|n| n == name))
    }

    /// The live layouts of the key `name` is a layout of: the current one first, then the older
    /// ones, newest first, each with its name; `name` alone when it has no versions.
    pub fn live(&self, name: &str) -> Vec<(&str, &DynLayout)> {
        let entry = |n: &str| self.entries.iter().find(|(e, _)| e == n).map(|(e, l)| (e.as_str(), l));
        match self.versions_of(name) {
            Some(v) => v.names().filter_map(entry).collect(),
            None => entry(name).into_iter().collect(),
        }
    }

    /// The ranked field of layout `name` and its counters, when a `rank` line names it.
    pub fn ranked(&self, name: &str) -> Option<RankedField> {
        let line = self.ranks.iter().find(|r| r.layout == name)?;
        let (_, layout) = self.entries.iter().find(|(n, _)| *n == name)?;
        RankedField::of_layout(name, layout, &line.field, line.levels).ok()
    }

    /// The lock's text: its `name = layout` lines, then its version lines, then its table
    /// lines, then its rank lines.
    pub fn text(&self) -> String {
        let mut text: String = self.entries.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
        for v in &self.versions {
            text.push_str(&v.to_string());
            text.push('\n');
        }
        for t in &self.tables {
            text.push_str(&t.to_string());
            text.push('\n');
        }
        for r in &self.ranks {
            text.push_str(&r.to_string());
            text.push('\n');
        }
        text
    }
}

impl Versions {
    /// The current layout's name, then the older ones'.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.current.as_str()).chain(self.older.iter().map(String::as_str))
    }
}

impl fmt::Display for Versions {
    /// `Current > Older > Oldest`, as the lock writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.names().collect();
        f.write_str(&names.join(" > "))
    }
}

/// The environment variable that makes [`check_lock_file`](crate::check_lock_file) and
/// [`LockedKeys::check`](crate::LockedKeys::check) write the lock instead of checking it.
pub const UPDATE_LOCK_VAR: &str = "SORTKEY_UPDATE_LOCK";

/// Why [`check_lock_file`](crate::check_lock_file) failed: the lock file, and what is wrong with it. Its `Debug` is its
/// message, so that a lock test's `unwrap()` prints the differences as they read.
pub struct LockError {
    /// The lock file.
    pub path: std::path::PathBuf,
    /// What is wrong.
    pub kind: LockErrorKind,
}

/// What is wrong in a [`LockError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum LockErrorKind {
    /// The lock file cannot be read (it does not exist yet: create it with `SORTKEY_UPDATE_LOCK=1`).
    Read(std::io::Error),
    /// The lock file cannot be written (with `SORTKEY_UPDATE_LOCK` set).
    Write(std::io::Error),
    /// A line of the lock is not `name = layout` with a layout the grammar allows.
    Parse(LockParseError),
    /// Layouts differ from the lock, each named.
    Differs(Vec<LayoutDifference>),
}

/// One way a key's layout differs from the lock.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutDifference {
    /// The key's derived layout is not the locked one.
    Changed {
        /// The key.
        name: String,
        /// Both texts and the first byte where they differ.
        mismatch: LayoutMismatch,
        /// The tables that hold the key, by the table definitions checked (none for a key type
        /// checked by itself): the advice names them in the commands it prints.
        tables: Vec<String>,
    },
    /// The key is not in the lock.
    NotLocked {
        /// The key.
        name: String,
        /// Its derived layout.
        derived: String,
    },
    /// The lock names a key that was not among those checked.
    NotChecked {
        /// The key.
        name: String,
        /// Its locked layout.
        locked: String,
    },
    /// The key's older layouts (`#[key(legacy = ...)]`) are not those its version line records.
    Versions {
        /// The key.
        name: String,
        /// Its older layouts' names as the derived types give them, newest first.
        derived: Vec<String>,
        /// As the lock records them.
        locked: Vec<String>,
    },
    /// One name given two layouts that differ (two entities sharing a key type's name, say).
    TwoLayouts {
        /// The name.
        name: String,
        /// The layout given first.
        first: String,
        /// The other.
        second: String,
    },
    /// The layouts an attribute of a table holds, as the table definitions and the lock record
    /// them, differ (an entity added to the table, a key of another type).
    Tables {
        /// The table.
        table: String,
        /// The attribute.
        attribute: String,
        /// Its layouts' names as the table definitions give them (none: not a key of the tables
        /// checked).
        derived: Vec<String>,
        /// As the lock records them.
        locked: Vec<String>,
    },
}

impl fmt::Display for LayoutDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutDifference::Changed { name, mismatch, .. } => write!(f, "`{name}`: {mismatch}"),
            LayoutDifference::NotLocked { name, derived } => {
                write!(f, "`{name}` is not in the lock; derived: {derived}")
            }
            LayoutDifference::NotChecked { name, locked } => {
                write!(f, "`{name}` is in the lock ({locked}) but not among the keys checked")
            }
            LayoutDifference::Versions { name, derived, locked } => {
                let list = |names: &[String]| if names.is_empty() { "none".to_owned() } else { names.join(" > ") };
                write!(
                    f,
                    "`{name}`: its older layouts are {} (legacy = ...), but the lock records {}",
                    list(derived),
                    list(locked)
                )
            }
            LayoutDifference::TwoLayouts { name, first, second } => {
                write!(f, "`{name}` names two layouts, {first} and {second}; expected one layout per name")
            }
            LayoutDifference::Tables { table, attribute, derived, locked } => {
                let list = |names: &[String]| if names.is_empty() { "none".to_owned() } else { names.join(", ") };
                write!(
                    f,
                    "table `{table}`, attribute `{attribute}`: the table definitions give it {}, but the lock records {}",
                    list(derived),
                    list(locked)
                )
            }
        }
    }
}

impl fmt::Debug for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            LockErrorKind::Read(e) => {
                write!(f, "cannot read the layout lock {path}: {e}; create it with {UPDATE_LOCK_VAR}=1")
            }
            LockErrorKind::Write(e) => write!(f, "cannot write the layout lock {path}: {e}"),
            LockErrorKind::Parse(e) => write!(f, "the layout lock {path}: {e}"),
            LockErrorKind::Differs(differences) => {
                match differences.len() {
                    1 => write!(f, "1 layout differs from the lock {path}:")?,
                    n => write!(f, "{n} layouts differ from the lock {path}:")?,
                }
                for difference in differences {
                    write!(f, "\n{difference}")?;
                }
                let changed: Vec<(&str, &[String])> = differences
                    .iter()
                    .filter_map(|d| match d {
                        LayoutDifference::Changed { name, tables, .. } => Some((name.as_str(), tables.as_slice())),
                        _ => None,
                    })
                    .collect();
                if let Some((first, tables)) = changed.first() {
                    write!(
                        f,
                        "\nA changed layout is a new storage format: the keys a table already holds in the locked \
                         layout stop decoding (and sort apart from new ones). If any were written, keep the locked \
                         layout as an older version: a key type with it (`{first}V1`, `From<{first}V1> for {first}`) \
                         and `legacy = {first}V1` on the key, so that `decode_any` reads both and the lock records \
                         the versions; "
                    )?;
                    if tables.is_empty() {
                        write!(
                            f,
                            "then `sortkey audit --table TABLE` counts the stored keys of the older layout and \
                             `sortkey migrate --table TABLE --to {first} --compare-attributes` moves them."
                        )?;
                    }
                    for table in *tables {
                        let command = |then: &str| {
                            let lock = self.path.to_string_lossy();
                            format!(
                                "sortkey --lock {} migrate --table {} --to {first} {then}",
                                quote(&lock),
                                quote(table)
                            )
                        };
                        write!(
                            f,
                            "then, for table {table}, `{}` counts the stored keys of the older layout and `{}` moves \
                             them.",
                            command("--dry-run"),
                            command("--compare-attributes")
                        )?;
                    }
                    write!(
                        f,
                        " If none was ever written, or once `legacy` is declared: rerun with {UPDATE_LOCK_VAR}=1 and \
                         commit the lock."
                    )
                } else {
                    write!(f, "\n(a change on purpose: rerun with {UPDATE_LOCK_VAR}=1 and commit the lock)")
                }
            }
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LockErrorKind::Read(e) | LockErrorKind::Write(e) => Some(e),
            LockErrorKind::Parse(e) => Some(e),
            LockErrorKind::Differs(_) => None,
        }
    }
}

/// `word` as one word of a POSIX shell (a table name needs none; a path with a space does).
fn quote(word: &str) -> std::borrow::Cow<'_, str> {
    shlex::try_quote(word).unwrap_or(word.into())
}

/// Whether two sharded layouts differ only in their shard's count and rule, the shard written in
/// the same digits: then their partitions coincide.
fn same_partitions(a: &DynLayout, b: &DynLayout) -> bool {
    let (Some((at_a, sa)), Some((at_b, sb))) = (a.shard_field(), b.shard_field()) else { return false };
    if at_a != at_b || sa.width() != sb.width() || sa == sb {
        return false;
    }
    let strip = |l: &DynLayout| {
        let mut l = l.clone();
        if let crate::dynamic::model::DynBody::Fields(fields) = &mut l.key.body {
            fields.remove(at_a);
        }
        l
    };
    strip(a) == strip(b)
}
