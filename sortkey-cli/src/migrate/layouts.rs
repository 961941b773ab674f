//! Which layouts a migration moves keys from and to, read from the lock and refused before
//! anything is read when the lock does not allow them.

use sortkey_core::{KeyRole, LockFile};

use crate::ask::MigrationAsk;
use crate::outcome::AskError;

/// The layouts the keys move from, newest first: `--from` when given, every older version of
/// `--to` otherwise. `--from` must be an older version of `--to` when the lock records versions
/// of either; refused before anything is read. A partition key sharded `by` a field without
/// older versions moves from itself: its items in another shard than their sort key's.
pub(super) fn sources(lock: &LockFile, lock_path: &str, m: &MigrationAsk) -> Result<Vec<String>, AskError> {
    for name in m.from.iter().chain([&m.to]) {
        entry(lock, lock_path, name)?;
    }
    if let Some(v) = lock.versions_of(&m.to).filter(|v| v.current != m.to) {
        return Err(AskError::bad(format!(
            "{lock_path}: `{}` is an older layout of `{}` ({v}); expected --to the current one",
            m.to, v.current
        )));
    }
    let versions = lock.versions_of(&m.to);
    match (&m.from, versions) {
        (Some(from), Some(v)) if v.older.contains(from) => Ok(vec![from.clone()]),
        (Some(from), Some(v)) => Err(AskError::bad(format!(
            "{lock_path}: `{from}` is not an older version of `{}` (the lock records {v}); expected one of {}",
            m.to,
            v.older.join(", ")
        ))),
        (None, Some(v)) => Ok(v.older.clone()),
        (Some(from), None) => match lock.versions_of(from) {
            Some(v) => Err(AskError::bad(format!(
                "{lock_path}: `{from}` is a layout of the key of `{}` ({v}), not of `{}`; expected layouts of one key",
                v.current, m.to
            ))),
            None => Ok(vec![from.clone()]),
        },
        // A partition key sharded by a field, without older versions: its items in another
        // shard than the one their sort key gives are moved there (`from` it, `to` it).
        (None, None) if sharded_by_field(lock, &m.to) => Ok(vec![m.to.clone()]),
        (None, None) => Err(AskError::bad(format!(
            "{lock_path}: the lock records no older version of `{}` (a `{} > Older` line); expected --from LAYOUT",
            m.to, m.to
        ))),
    }
}

/// Whether the lock's layout `name` is a partition key's sharded `by` a field.
fn sharded_by_field(lock: &LockFile, name: &str) -> bool {
    let by = |l: &sortkey_core::DynLayout| {
        l.shard_field().is_some_and(|(_, s)| matches!(s.rule(), sortkey_core::ShardRule::By(_)))
    };
    lock.get(name).is_some_and(|l| l.role == KeyRole::Partition && by(l))
}

/// The layout `name` of the lock, with its name.
pub(super) fn entry(
    lock: &LockFile,
    lock_path: &str,
    name: &str,
) -> Result<(String, sortkey_core::DynLayout), AskError> {
    lock.entries
        .iter()
        .find(|(n, _)| n == name)
        .cloned()
        .ok_or_else(|| AskError::not_found(crate::ask::no_layout(lock, lock_path, name)))
}
