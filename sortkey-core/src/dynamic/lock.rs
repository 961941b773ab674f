//! Lock files: `name = layout` lines, each layout read by the layout parser, and the check of
//! derived layouts against them.

use std::fmt;

use crate::dynamic::{DynLayout, LayoutParseError};
use crate::encoding::layout::Layout;

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
/// let e = check_lock_file(&path, &[("RankKey", RankKey::LAYOUT)]).unwrap_err();
/// assert!(e.contains("`RankKey`") && e.contains("differs from its lock at byte 21"), "{e}");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn check_lock_file(path: impl AsRef<std::path::Path>, keys: &[(&str, Layout)]) -> Result<(), String> {
    let path = path.as_ref();
    if std::env::var_os(UPDATE_LOCK_VAR).is_some() {
        let text: String = keys.iter().map(|(name, layout)| format!("{name} = {layout}\n")).collect();
        return std::fs::write(path, text).map_err(|e| format!("cannot write the layout lock {}: {e}", path.display()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!("cannot read the layout lock {}: {e}; create it with {UPDATE_LOCK_VAR}=1", path.display())
    })?;
    // The lock is read by the layout parser, so a line the grammar does not allow is an error
    // of its own, at its line and byte.
    let lock = LockFile::parse(&text).map_err(|e| format!("the layout lock {}: {e}", path.display()))?;
    let texts: Vec<(String, String)> = lock.entries.iter().map(|(n, l)| (n.clone(), l.to_string())).collect();
    let locked: Vec<(&str, &str)> = texts.iter().map(|(n, l)| (n.as_str(), l.as_str())).collect();
    let mut problems = Vec::new();
    for (name, layout) in keys {
        match locked.iter().find(|(n, _)| n == name) {
            Some((_, lock)) => {
                if let Err(m) = layout.check(lock) {
                    problems.push(format!("`{name}`: {m}"));
                }
            }
            None => problems.push(format!("`{name}` is not in the lock; derived: {layout}")),
        }
    }
    for (name, lock) in &locked {
        if !keys.iter().any(|(n, _)| n == name) {
            problems.push(format!("`{name}` is in the lock ({lock}) but not among the keys checked"));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} from the lock {}:\n{}\n(a change on purpose: rerun with {UPDATE_LOCK_VAR}=1 and commit the lock)",
        if problems.len() == 1 { "1 layout differs".to_owned() } else { format!("{} layouts differ", problems.len()) },
        path.display(),
        problems.join("\n")
    ))
}
