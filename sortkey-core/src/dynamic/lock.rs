//! Lock files: `name = layout` lines, each layout read by the layout parser, `Current > Older`
//! lines saying which layouts are older versions of which, and the check of derived layouts (and
//! their `legacy` layouts) against them.

use std::fmt;

use crate::dynamic::{DynLayout, LayoutParseError};
use crate::encoding::layout::{Layout, LayoutMismatch};

/// A lock file read: each key's name and its layout, in the file's order, and which layouts are
/// older versions of which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockFile {
    /// `(name, layout)` per `name = layout` line.
    pub entries: Vec<(String, DynLayout)>,
    /// Per `Current > Older > Oldest` line: a key and its older layouts (from `#[key(legacy =
    /// ...)]`), newest first, each an entry of the lock.
    pub versions: Vec<Versions>,
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
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let fail = |error| LockParseError { line: i + 1, error };
            if let Some((name, layout)) = line.split_once(" = ") {
                let layout = DynLayout::parse(layout).map_err(|mut e| {
                    e.offset += name.len() + 3;
                    fail(e)
                })?;
                entries.push((name.to_owned(), layout.named(name)));
            } else if line.contains(" > ") {
                chains.push((i + 1, line));
            } else {
                let found = format!("`{line}`");
                let expected = "`name = layout` or `Current > Older`".into();
                return Err(fail(LayoutParseError { offset: 0, expected, found }));
            }
        }
        let mut lock = LockFile { entries, versions: Vec::new() };
        for (line, text) in chains {
            let versions = lock.chain(text).map_err(|error| LockParseError { line, error })?;
            lock.versions.push(versions);
        }
        Ok(lock)
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

    /// The lock's text: its `name = layout` lines, then its version lines.
    pub fn text(&self) -> String {
        let mut text: String = self.entries.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
        for v in &self.versions {
            text.push_str(&v.to_string());
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

/// The environment variable that makes [`check_lock_file`] write the lock instead of checking it.
pub const UPDATE_LOCK_VAR: &str = "SORTKEY_UPDATE_LOCK";

/// Checks the layouts of `keys` (a name and a layout each) against the lock file `path`, one
/// `name = layout` line per key and one `Current > Older` line per key with older layouts
/// (`#[key(legacy = ...)]`, named after the key of `keys` with that layout, or `Key@v1`, `Key@v2`
/// when none has it): `Ok` when every key is in the file with its layout and its versions and the
/// file names no other key, else an error that lists every difference (each layout with both texts
/// and the first differing byte). With the environment variable `SORTKEY_UPDATE_LOCK` set, the file is
/// written from `keys` instead: the way to change a layout on purpose, in a reviewed commit.
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
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn check_lock_file(path: impl AsRef<std::path::Path>, keys: &[(&str, Layout)]) -> Result<(), LockError> {
    let path = path.as_ref();
    let error = |kind| LockError { path: path.to_owned(), kind };
    let (derived, versions) = derived_lock(keys);
    if std::env::var_os(UPDATE_LOCK_VAR).is_some() {
        return std::fs::write(path, lock_text(keys)).map_err(|e| error(LockErrorKind::Write(e)));
    }
    let text = std::fs::read_to_string(path).map_err(|e| error(LockErrorKind::Read(e)))?;
    // The lock is read by the layout parser, so a line the grammar does not allow is an error
    // of its own, at its line and byte.
    let lock = LockFile::parse(&text).map_err(|e| error(LockErrorKind::Parse(e)))?;
    let texts: Vec<(String, String)> = lock.entries.iter().map(|(n, l)| (n.clone(), l.to_string())).collect();
    let mut differences = Vec::new();
    for (name, layout) in &derived {
        match texts.iter().find(|(n, _)| n == name) {
            Some((_, locked)) => {
                if let Err(mismatch) = layout.check(locked) {
                    differences.push(LayoutDifference::Changed { name: name.clone(), mismatch });
                }
            }
            None => differences.push(LayoutDifference::NotLocked { name: name.clone(), derived: layout.to_string() }),
        }
    }
    for (name, locked) in &texts {
        if !derived.iter().any(|(n, _)| n == name) {
            differences.push(LayoutDifference::NotChecked { name: name.clone(), locked: locked.clone() });
        }
    }
    differences.extend(version_differences(&versions, &lock.versions));
    if differences.is_empty() { Ok(()) } else { Err(error(LockErrorKind::Differs(differences))) }
}

/// The text of the lock of `keys` (a name and a layout each), as [`check_lock_file`] writes it
/// with `SORTKEY_UPDATE_LOCK` set: a `name = layout` line per key and per older layout of a key
/// that no key of `keys` has (named `Key@v1`, `Key@v2`, ...), then a `Current > Older` line per key
/// with older layouts (`#[key(legacy = ...)]`, newest first).
pub fn lock_text(keys: &[(&str, Layout)]) -> String {
    let (entries, versions) = derived_lock(keys);
    let mut text: String = entries.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
    versions.iter().for_each(|v| text.push_str(&format!("{v}\n")));
    text
}

/// The lock `keys` derive: each key's layout, each older layout of a key (`#[key(legacy = ...)]`)
/// under the name of the key among `keys` that has it, or `Key@vN` (the N-th older one) when
/// none does; and each key's versions, newest first.
fn derived_lock(keys: &[(&str, Layout)]) -> (Vec<(String, Layout)>, Vec<Versions>) {
    let mut entries: Vec<(String, Layout)> = keys.iter().map(|(n, l)| ((*n).to_owned(), *l)).collect();
    let mut versions = Vec::new();
    for (name, layout) in keys {
        let mut older = Vec::new();
        for (i, old) in layout.legacy().iter().enumerate() {
            let text = old.to_string();
            let known = keys.iter().find(|(n, l)| n != name && l.to_string() == text).map(|(n, _)| (*n).to_owned());
            let old_name = known.unwrap_or_else(|| {
                let synthetic = format!("{name}@v{}", i + 1);
                entries.push((synthetic.clone(), **old));
                synthetic
            });
            older.push(old_name);
        }
        if !older.is_empty() {
            versions.push(Versions { current: (*name).to_owned(), older });
        }
    }
    (entries, versions)
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

/// Why [`check_lock_file`] failed: the lock file, and what is wrong with it. Its `Debug` is its
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
}

impl fmt::Display for LayoutDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutDifference::Changed { name, mismatch } => write!(f, "`{name}`: {mismatch}"),
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
                write!(f, "\n(a change on purpose: rerun with {UPDATE_LOCK_VAR}=1 and commit the lock)")
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
