//! The lock file: its layouts, read through sortkey-core's parser.

use std::path::Path;

use sortkey_core::LockFile;

use crate::outcome::AskError;

/// The lock file at `path`, or a one-line error that names it.
pub(crate) fn read(path: &Path) -> Result<LockFile, AskError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        AskError::unreadable(
            &e,
            format!("cannot read the lock file {}: {e} (give another with --lock FILE)", path.display()),
        )
    })?;
    let lock = LockFile::parse(&text).map_err(|e| AskError::bad(format!("{}: {e}", path.display())))?;
    if lock.entries.is_empty() {
        return Err(AskError::bad(format!("{}: no layouts in it (expected `Name = layout` lines)", path.display())));
    }
    Ok(lock)
}
