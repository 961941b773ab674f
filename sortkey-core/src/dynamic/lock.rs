//! Lock files: `name = layout` lines, each layout read by the layout parser, and the check of
//! derived layouts against them.

use std::fmt;

use crate::dynamic::{DynLayout, LayoutParseError};
use crate::encoding::layout::{Layout, LayoutMismatch};

/// A lock file read: each key's name and its layout, in the file's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockFile {
    /// `(name, layout)` per line.
    pub entries: Vec<(String, DynLayout)>,
}

/// A lock file line that is not `name = layout` with a layout the grammar allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockParseError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong in it: a layout error at its byte, or the missing ` = `.
    pub error: LayoutParseError,
}

impl fmt::Display for LockParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for LockParseError {}

impl LockFile {
    /// Reads a lock file's text: one `name = layout` line per key, blank lines ignored.
    pub fn parse(text: &str) -> Result<LockFile, LockParseError> {
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let fail = |error| LockParseError { line: i + 1, error };
            let Some((name, layout)) = line.split_once(" = ") else {
                let found = format!("`{line}`");
                return Err(fail(LayoutParseError { offset: 0, expected: "`name = layout`".into(), found }));
            };
            let layout = DynLayout::parse(layout).map_err(|mut e| {
                e.offset += name.len() + 3;
                fail(e)
            })?;
            entries.push((name.to_owned(), layout.named(name)));
        }
        Ok(LockFile { entries })
    }

    /// The layout locked under `name`.
    pub fn get(&self, name: &str) -> Option<&DynLayout> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, l)| l)
    }
}

/// The environment variable that makes [`check_lock_file`] write the lock instead of checking it.
pub const UPDATE_LOCK_VAR: &str = "SORTKEY_UPDATE_LOCK";

/// Checks the layouts of `keys` (a name and a layout each) against the lock file `path`, one
/// `name = layout` line per key: `Ok` when every key is in the file with its layout and the file
/// names no other key, else an error that lists every difference (each with both texts and the
/// first differing byte). With the environment variable `SORTKEY_UPDATE_LOCK` set, the file is
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
    if std::env::var_os(UPDATE_LOCK_VAR).is_some() {
        let text: String = keys.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
        return std::fs::write(path, text).map_err(|e| error(LockErrorKind::Write(e)));
    }
    let text = std::fs::read_to_string(path).map_err(|e| error(LockErrorKind::Read(e)))?;
    // The lock is read by the layout parser, so a line the grammar does not allow is an error
    // of its own, at its line and byte.
    let lock = LockFile::parse(&text).map_err(|e| error(LockErrorKind::Parse(e)))?;
    let texts: Vec<(String, String)> = lock.entries.iter().map(|(n, l)| (n.clone(), l.to_string())).collect();
    let mut differences = Vec::new();
    for (name, layout) in keys {
        let name = (*name).to_owned();
        match texts.iter().find(|(n, _)| *n == name) {
            Some((_, locked)) => {
                if let Err(mismatch) = layout.check(locked) {
                    differences.push(LayoutDifference::Changed { name, mismatch });
                }
            }
            None => differences.push(LayoutDifference::NotLocked { name, derived: layout.to_string() }),
        }
    }
    for (name, locked) in &texts {
        if !keys.iter().any(|(n, _)| n == name) {
            differences.push(LayoutDifference::NotChecked { name: name.clone(), locked: locked.clone() });
        }
    }
    if differences.is_empty() { Ok(()) } else { Err(error(LockErrorKind::Differs(differences))) }
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
