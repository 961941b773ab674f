//! What every subcommand runs with, built once by `main` from the arguments: the lock and the
//! path it was read from, the connection options, the output asked for, and the one async
//! runtime every request runs on. A subcommand reads its ask and this, and no argument of the
//! command line beyond them.

use std::path::Path;

use aws_sdk_dynamodb::Client;
use indicatif::ProgressBar;
use sortkey_core::LockFile;
use tokio::runtime::Runtime;

use crate::ask::{Connection, Context};
use crate::outcome::AskError;
use crate::output::Output;
use crate::{connect, lock, pages};

/// The command's context: see the module.
pub(crate) struct Session {
    /// The lock's layouts: none for a subcommand that reads no lock (`tables`, `audit merge`).
    pub(crate) lock: LockFile,
    /// The lock's path as the command line gave it (for messages and printed commands).
    pub(crate) lock_path: String,
    pub(crate) connection: Connection,
    pub(crate) output: Output,
    pub(crate) runtime: Runtime,
}

impl Session {
    /// The session of a subcommand: the lock at `lock` read when `reads_lock`, one runtime.
    pub(crate) fn new(lock: &Path, reads_lock: bool, connection: Connection, output: Output) -> Result<Self, AskError> {
        let layouts = match reads_lock {
            true => lock::read(lock)?,
            false => LockFile { entries: Vec::new(), versions: Vec::new(), tables: Vec::new(), ranks: Vec::new() },
        };
        let runtime = Runtime::new().map_err(|e| AskError::local(format!("cannot start the async runtime: {e}")))?;
        Ok(Session { lock: layouts, lock_path: lock.display().to_string(), connection, output, runtime })
    }

    /// The context of the command's asks: its lock, every table, its connection options.
    pub(crate) fn context(&self) -> Context<'_> {
        Context::of(&self.lock, &self.lock_path, &[], &self.connection)
    }

    /// The DynamoDB client of the connection options.
    pub(crate) async fn client(&self) -> Client {
        connect::client(&self.connection).await
    }

    /// A progress bar of items, when one is shown (see [`pages::progress_bar`]).
    pub(crate) fn progress_bar(&self) -> Option<ProgressBar> {
        pages::progress_bar(self.output)
    }

    /// A progress bar of bytes, when one is shown.
    pub(crate) fn bytes_bar(&self) -> Option<ProgressBar> {
        pages::bytes_bar(self.output)
    }
}
