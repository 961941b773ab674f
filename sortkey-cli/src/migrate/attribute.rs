//! Which attribute a migration rewrites: the table's sort key (or partition key), whose items
//! move, or a secondary index's key, rewritten in place. `--index` names the index; without it
//! the lock's `table` lines say where the layout `--to` lives. A `--to` that the lock puts in
//! another attribute than the one read is refused, naming the attribute it expected: a
//! migration that read the wrong attribute would find no key to move and say "complete".

use aws_sdk_dynamodb::Client;
use sortkey_core::{KeyRole, LockFile};

use crate::ask::MigrationAsk;
use crate::outcome::AskError;
use crate::table;

/// The attribute a migration rewrites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// The table's own key: items move to their new primary key.
    Primary,
    /// A secondary index's key attribute, rewritten in place.
    Index {
        /// The index.
        index: String,
        /// Its key attribute the layouts live in.
        attribute: String,
    },
}

/// What the migration `m` (of layouts of `role`) rewrites in its table, whose primary key
/// attributes are `primary`.
pub(crate) async fn target(
    client: &Client,
    (lock, lock_path): (&LockFile, &str),
    m: &MigrationAsk,
    role: KeyRole,
    primary: (&str, Option<&str>),
) -> Result<Target, AskError> {
    let table = m.table.as_str();
    let sharded = lock.get(&m.to).is_some_and(|l| l.shard_field().is_some());
    let index_attribute = |index: &str, keys| index_attribute(table, index, (role, sharded), keys);
    let target = match &m.index {
        Some(index) => {
            let (pk, sk) = table::key_names(client, table, Some(index)).await?;
            Target::Index { index: index.clone(), attribute: index_attribute(index, (Some(pk), sk))? }
        }
        None => match lives_in(lock, table, &m.to) {
            Some(attribute) if !is_primary(&attribute, role, primary) => {
                match table::index_keyed_by(client, table, &attribute).await? {
                    Some((index, keys)) => {
                        let attribute = index_attribute(&index, keys)?;
                        Target::Index { index, attribute }
                    }
                    None => {
                        return Err(AskError::bad(format!(
                            "{lock_path}: its `table {table} {attribute}` line holds `{}`, and {attribute} is no key \
                             attribute of table {table} or of its indexes; expected the lock's table lines to name \
                             the table's key attributes",
                            m.to
                        )));
                    }
                }
            }
            _ => Target::Primary,
        },
    };
    let (read, flag) = match &target {
        Target::Primary => {
            let attribute = if role == KeyRole::Partition { Some(primary.0) } else { primary.1 };
            (attribute.unwrap_or(primary.0).to_owned(), String::new())
        }
        Target::Index { index, attribute } => (attribute.clone(), format!(" (--index {index})")),
    };
    if let Some(held) = lock.layouts_of(table, &read)
        && !held.iter().any(|(name, _)| *name == m.to)
    {
        let names: Vec<&str> = held.iter().map(|(n, _)| *n).collect();
        let home =
            lives_in(lock, table, &m.to).map(|a| format!("; the lock puts `{}` in {a}", m.to)).unwrap_or_default();
        return Err(AskError::bad(format!(
            "--to {}: the attribute {read} of table {table}{flag} holds {} by the lock's table lines, not `{}`{home}; \
             expected --to one of them, or the --index whose key `{}` is",
            m.to,
            if names.is_empty() { "no layout".to_owned() } else { names.join(", ") },
            m.to,
            m.to
        )));
    }
    Ok(target)
}

/// The attribute of `table` whose `table` line in the lock holds the layout `name`.
fn lives_in(lock: &LockFile, table: &str, name: &str) -> Option<String> {
    lock.tables.iter().find(|t| t.table == table && t.layouts.iter().any(|l| l == name)).map(|t| t.attribute.clone())
}

/// Whether `attribute` is the primary key attribute a layout of `role` lives in.
fn is_primary(attribute: &str, role: KeyRole, (pk, sk): (&str, Option<&str>)) -> bool {
    match role {
        KeyRole::Partition => attribute == pk,
        KeyRole::Sort => Some(attribute) == sk,
    }
}

/// The key attribute of `index` a layout of `role` lives in, `(pk, sk)` the index's. An index's
/// partition key is rewritten in place like its sort key, unless its new layout is sharded: a
/// shard is calculated from the sort key, which an in-place rewrite of one attribute does not read.
fn index_attribute(
    table: &str,
    index: &str,
    (role, sharded): (KeyRole, bool),
    (pk, sk): (Option<String>, Option<String>),
) -> Result<String, AskError> {
    match role {
        KeyRole::Sort => sk.ok_or_else(|| {
            AskError::bad(format!(
                "index {index} of table {table} has a partition key alone; expected an index with a sort key for a \
                 sort key's layouts"
            ))
        }),
        KeyRole::Partition if sharded => Err(AskError::bad(format!(
            "index {index} of table {table}: a sharded partition key of an index is not migrated in place (its \
             shard is calculated from the sort key); expected a layout without shards, or the table's own key"
        ))),
        KeyRole::Partition => pk.ok_or_else(|| {
            AskError::not_found(format!("index {index} of table {table}: no partition key attribute found"))
        }),
    }
}
