//! Where a migration's segments keep their place, a set of checkpoints per pass: files in a
//! folder (one machine, or a volume each worker keeps), or items of a DynamoDB table, each the
//! lease of its segment (workers on many machines: a worker takes a segment only when it is free,
//! its own, or its holder stopped renewing it, and resumes from the last page saved, wherever it
//! was saved).

use std::path::{Path, PathBuf};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use sortkey_core::KeyNames;
use sortkey_core::dynamodb::{
    Checkpoint, CheckpointError, FileCheckpoint, Progress, SegmentCursor, SegmentState, TableCheckpoint,
};

use serde::{Deserialize, Serialize};

use crate::ask::MigrationAsk;
use crate::migrate::verdict::MigrateDocument;
use crate::outcome::AskError;
use crate::table;

/// The file in a checkpoint folder that says whose checkpoints they are.
const MARK: &str = "migration.json";

/// Which migration checkpoints are of: its table and the layouts it moves from and to. Compared
/// as data, never as prose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MigrationIdentity {
    pub(crate) table: String,
    pub(crate) from: Vec<String>,
    pub(crate) to: String,
}

impl std::fmt::Display for MigrationIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "table {} from {} to {}", self.table, self.from.join(", "), self.to)
    }
}

/// Where the checkpoints of every pass are.
pub(crate) enum Store {
    /// A folder per pass (`pass-1`, ...) in this folder.
    Folder(PathBuf),
    /// Items of a table, the checkpoint's name ending in the pass.
    Table {
        client: Client,
        table: String,
        keys: KeyNames,
        /// The migration's name: `migrate-TABLE-FROM-TO`.
        name: String,
        /// This worker's name in the leases.
        worker: String,
        lease: Duration,
    },
}

/// A checkpoint of either kind.
pub(crate) enum AnyCheckpoint {
    File(FileCheckpoint),
    Table(TableCheckpoint),
}

impl Checkpoint for AnyCheckpoint {
    async fn load(&mut self, segment: i32, total: i32) -> Result<(SegmentCursor, Progress), CheckpointError> {
        match self {
            AnyCheckpoint::File(c) => c.load(segment, total).await,
            AnyCheckpoint::Table(c) => c.load(segment, total).await,
        }
    }

    async fn save(&mut self, cursor: &SegmentCursor, progress: &Progress) -> Result<(), CheckpointError> {
        match self {
            AnyCheckpoint::File(c) => c.save(cursor, progress).await,
            AnyCheckpoint::Table(c) => c.save(cursor, progress).await,
        }
    }
}

impl Store {
    /// The store `--checkpoint-table` or `--checkpoint` names (`.sortkey/migrate-TABLE-FROM-TO`
    /// by default), a worker's leases named `worker` (the machine's name by default) and lasting
    /// `lease` seconds.
    pub(crate) async fn open(
        client: &Client,
        m: &MigrationAsk,
        (worker, lease): (Option<&str>, u64),
        from: &str,
    ) -> Result<Store, AskError> {
        let name = format!("migrate-{}-{from}-{}", m.table, m.to);
        let Some(table) = &m.checkpoint_table else {
            let dir = m.checkpoint.clone().unwrap_or_else(|| Path::new(".sortkey").join(name));
            return Ok(Store::Folder(dir));
        };
        let (pk, sk) = table::key_names(client, table, None).await?;
        let keys = table::static_key_names(pk, sk);
        let worker = worker.map_or_else(host_name, str::to_owned);
        let lease = Duration::from_secs(lease);
        Ok(Store::Table { client: client.clone(), table: table.clone(), keys, name, worker, lease })
    }

    /// A checkpoint of pass `pass`, for one segment.
    pub(crate) fn checkpoint(&self, pass: u32) -> Result<AnyCheckpoint, AskError> {
        Ok(match self {
            Store::Folder(dir) => {
                let dir = dir.join(format!("pass-{pass}"));
                std::fs::create_dir_all(&dir).map_err(|e| {
                    AskError::local(format!("cannot make the checkpoint folder {}: {e}", dir.display()))
                })?;
                AnyCheckpoint::File(FileCheckpoint::new(dir))
            }
            Store::Table { client, table, keys, name, worker, lease } => {
                let name = format!("{name}-pass-{pass}");
                AnyCheckpoint::Table(TableCheckpoint::new(client.clone(), table, *keys, &name, worker, *lease))
            }
        })
    }

    /// The pass a migration resumes: the last one that saved a page of one of the segments
    /// `mine` of `total` (1 when none has).
    pub(crate) async fn last_pass(&self, total: u32, mine: &[u32]) -> Result<u32, AskError> {
        match self {
            Store::Folder(dir) => {
                let passes = std::fs::read_dir(dir).into_iter().flatten().flatten();
                let numbers = passes.filter_map(|e| e.file_name().to_str()?.strip_prefix("pass-")?.parse::<u32>().ok());
                Ok(numbers.max().unwrap_or(1))
            }
            Store::Table { .. } => {
                let mut pass = 1;
                while self.saved_in(pass + 1, total, mine).await? {
                    pass += 1;
                }
                Ok(pass)
            }
        }
    }

    /// What pass `pass` saved of segment `segment` of `total`, read without taking its lease;
    /// `None` when nothing was saved.
    pub(crate) async fn saved(
        &self,
        pass: u32,
        segment: i32,
        total: i32,
    ) -> Result<Option<(SegmentCursor, Progress)>, AskError> {
        Ok(match self.checkpoint(pass)? {
            // A file checkpoint leases nothing: its load only reads.
            AnyCheckpoint::File(mut file) => Some(file.load(segment, total).await?),
            AnyCheckpoint::Table(table) => table.saved(segment, total).await?,
        })
    }

    /// Whether pass `pass` saved a page of one of the segments `mine`.
    async fn saved_in(&self, pass: u32, total: u32, mine: &[u32]) -> Result<bool, AskError> {
        for &segment in mine {
            if self.saved(pass, segment as i32, total as i32).await?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

impl Store {
    /// Where the store is, in words.
    /// Makes the checkpoints the migration `identity`'s: a folder that holds another's is refused
    /// (resuming there would skip segments that migration finished), one that holds none is
    /// marked (`migration.json`). A table's checkpoints are named by the migration already.
    pub(crate) fn claim(&self, identity: &MigrationIdentity) -> Result<(), AskError> {
        let Store::Folder(dir) = self else { return Ok(()) };
        if self.holds_another(identity)?.is_none() {
            let failed = |e: std::io::Error| {
                AskError::local(format!("cannot mark the checkpoint folder {}: {e}", dir.display()))
            };
            std::fs::create_dir_all(dir).map_err(failed)?;
            let text = serde_json::to_string_pretty(identity).unwrap_or_default();
            std::fs::write(dir.join(MARK), text + "\n").map_err(failed)?;
        }
        Ok(())
    }

    /// Whether the checkpoints are of the migration `identity`: an error naming the one they are
    /// of when they are another's; `Some(())` when they say whose they are, `None` when they
    /// say nothing (a new folder, or checkpoints saved before migrations were named).
    pub(crate) fn holds_another(&self, identity: &MigrationIdentity) -> Result<Option<()>, AskError> {
        let Store::Folder(dir) = self else { return Ok(Some(())) };
        let found: MigrationIdentity = match std::fs::read_to_string(dir.join(MARK)) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| AskError::bad(format!("{}: not a migration's mark: {e}", dir.join(MARK).display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(AskError::unreadable(&e, format!("cannot read {}: {e}", dir.join(MARK).display()))),
        };
        if &found != identity {
            return Err(AskError::bad(format!(
                "{} holds the checkpoints of the migration of {found}, not of {identity}; expected the folder of that \
                 migration (give another --checkpoint)",
                dir.display()
            )));
        }
        Ok(Some(()))
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            Store::Folder(dir) => format!("the folder {}", dir.display()),
            Store::Table { table, name, .. } => format!("the table {table}, migration {name}"),
        }
    }

    /// Every segment pass `pass` saved, read without taking a lease; and the read units spent.
    pub(crate) async fn segments(&self, pass: u32) -> Result<(Vec<SegmentState>, f64), AskError> {
        match self {
            Store::Folder(dir) => Ok((FileCheckpoint::new(dir.join(format!("pass-{pass}"))).segments()?, 0.0)),
            Store::Table { client, table, keys, name, worker, lease } => {
                let name = format!("{name}-pass-{pass}");
                Ok(TableCheckpoint::new(client.clone(), table, *keys, &name, worker, *lease).segments().await?)
            }
        }
    }

    /// The key of the item that keeps the migration's report, in a table.
    fn report_key(&self) -> Option<std::collections::HashMap<String, AttributeValue>> {
        let Store::Table { keys, name, .. } = self else { return None };
        let mut key = std::collections::HashMap::from([(
            keys.partition().to_owned(),
            AttributeValue::S(format!("REPORT#{name}")),
        )]);
        if let Some(sort) = keys.sort() {
            key.insert(sort.to_owned(), AttributeValue::S("REPORT".to_owned()));
        }
        Some(key)
    }

    /// Keeps the migration's last report (its passes and verdict) beside its checkpoints, where a
    /// view of the migration reads it.
    pub(crate) async fn save_report(&self, doc: &MigrateDocument) -> Result<(), AskError> {
        let text = serde_json::to_string_pretty(doc)
            .map_err(|e| AskError::local(format!("cannot write the migration's report: {e}")))?;
        match self {
            Store::Folder(dir) => {
                let failed =
                    |e: std::io::Error| AskError::local(format!("cannot write the report in {}: {e}", dir.display()));
                std::fs::create_dir_all(dir).map_err(failed)?;
                let temporary = dir.join("report.json.tmp");
                std::fs::write(&temporary, text).map_err(failed)?;
                std::fs::rename(&temporary, dir.join("report.json")).map_err(failed)
            }
            Store::Table { client, table, .. } => {
                let mut item = self.report_key().unwrap_or_default();
                item.insert("report".to_owned(), AttributeValue::S(text));
                client
                    .put_item()
                    .table_name(table)
                    .set_item(Some(item))
                    .send()
                    .await
                    .map(|_| ())
                    .map_err(|e| AskError::request(format!("cannot keep the report in {table}"), &e))
            }
        }
    }

    /// The migration's last report, if one was kept; and the read units spent.
    pub(crate) async fn report(&self) -> Result<(Option<MigrateDocument>, f64), AskError> {
        let text = match self {
            Store::Folder(dir) => match std::fs::read_to_string(dir.join("report.json")) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => {
                    return Err(AskError::unreadable(&e, format!("cannot read the report in {}: {e}", dir.display())));
                }
            },
            Store::Table { client, table, .. } => {
                let got = client
                    .get_item()
                    .table_name(table)
                    .set_key(self.report_key())
                    .consistent_read(true)
                    .return_consumed_capacity(ReturnConsumedCapacity::Total)
                    .send()
                    .await
                    .map_err(|e| AskError::request(format!("cannot read the report in {table}"), &e))?;
                let units = got.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
                let text = got.item().and_then(|i| i.get("report")).and_then(|v| v.as_s().ok()).cloned();
                return Ok((text.as_deref().map(kept).transpose()?, units));
            }
        };
        Ok((text.as_deref().map(kept).transpose()?, 0.0))
    }
}

/// This machine's name (`HOSTNAME`, else /etc/hostname), the default worker name in the leases:
/// the same after a restart on the same machine, so that the worker takes its own lease back.
fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "sortkey".to_owned())
}

/// A kept report read back: one this command did not write is refused, not shown.
fn kept(text: &str) -> Result<MigrateDocument, AskError> {
    MigrateDocument::read_kept(text).map_err(|e| AskError::bad(format!("the migration's kept report: {e}")))
}
