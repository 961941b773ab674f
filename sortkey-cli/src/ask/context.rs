//! The context every ask is validated and answered against ([`Context`]: the lock, the tables
//! the asker may read, the connection options) and the limits every answer keeps to.

use serde::{Deserialize, Serialize};
use sortkey_core::LockFile;

use crate::ask::command::CommandLine;
use crate::outcome::AskError;

/// The connection options as the command line gave them (`--endpoint-url`, `--region`,
/// `--profile`): what the clients are made from, and what every printed command and an audit's
/// partial report name, so that a command pasted from them goes to the same server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Connection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) endpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) profile: Option<String>,
}

impl Connection {
    /// The connection of the asks in `ctx`.
    pub(crate) fn of(ctx: &Context<'_>) -> Connection {
        let owned = |o: Option<&str>| o.map(str::to_owned);
        Connection { endpoint: owned(ctx.endpoint), region: owned(ctx.region), profile: owned(ctx.profile) }
    }
}

/// What every ask is validated and answered against: the lock, and what the asker may read.
pub(crate) struct Context<'a> {
    /// The lock's layouts, and its path as the command line gave it.
    pub(crate) lock: &'a LockFile,
    pub(crate) lock_path: &'a str,
    /// The tables that may be read: every one when empty (the command), those `sortkey serve
    /// --table` named otherwise.
    pub(crate) tables: &'a [String],
    /// The connection options, as the command line gave them (for the printed commands).
    pub(crate) endpoint: Option<&'a str>,
    pub(crate) region: Option<&'a str>,
    pub(crate) profile: Option<&'a str>,
}

/// The most items a page or a command shows at once.
pub(crate) const MOST_ITEMS: usize = 1000;

/// The items a browse or a query shows when the ask names no limit.
pub(crate) const DEFAULT_ITEMS: usize = 100;

impl<'a> Context<'a> {
    /// The context of `lock` (read from `lock_path`), `tables` (every one when empty) and the
    /// `connection`.
    pub(crate) fn of(
        lock: &'a LockFile,
        lock_path: &'a str,
        tables: &'a [String],
        connection: &'a Connection,
    ) -> Context<'a> {
        Context {
            lock,
            lock_path,
            tables,
            endpoint: connection.endpoint.as_deref(),
            region: connection.region.as_deref(),
            profile: connection.profile.as_deref(),
        }
    }

    /// Whether `table` may be read: a table name DynamoDB allows (3 to 255 letters, digits, `_`,
    /// `-` and `.`), and one of those the asker was given when it was given some.
    pub(crate) fn may_read(&self, table: &str) -> Result<(), AskError> {
        let named = (3..=255).contains(&table.len())
            && table.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
        if !named {
            return Err(AskError::bad(format!(
                "{} is no table name; expected 3 to 255 letters, digits, `_`, `-` or `.`",
                crate::display::quoted(table)
            )));
        }
        if !self.tables.is_empty() && !self.tables.iter().any(|t| t == table) {
            return Err(AskError::not_allowed(format!(
                "the table `{table}` is not one of those the server was started with ({})",
                self.tables.join(", ")
            )));
        }
        Ok(())
    }

    /// The layout `name` of the lock.
    pub(crate) fn layout(&self, name: &str) -> Result<&'a sortkey_core::DynLayout, AskError> {
        self.lock.get(name).ok_or_else(|| AskError::not_found(no_layout(self.lock, self.lock_path, name)))
    }

    /// `limit` when it is one an answer shows: 1 to [`MOST_ITEMS`].
    pub(crate) fn limit(&self, limit: usize) -> Result<usize, AskError> {
        if (1..=MOST_ITEMS).contains(&limit) {
            Ok(limit)
        } else {
            Err(AskError::bad(format!("expected a limit of 1 to {MOST_ITEMS} items, found {limit}")))
        }
    }

    /// `sortkey SUBCOMMAND --lock PATH` and the connection options: the start of every command
    /// line printed for an ask.
    pub(crate) fn command(&self, subcommand: &str) -> CommandLine {
        self.command_of(&[subcommand])
    }

    /// `sortkey SUBCOMMAND... --lock PATH` and the connection options, after the last
    /// subcommand (where `sortkey audit merge` reads them, as every subcommand does).
    pub(crate) fn command_of(&self, subcommands: &[&str]) -> CommandLine {
        let mut line = CommandLine::new("sortkey");
        for subcommand in subcommands {
            line.arg(*subcommand);
        }
        line.option("--lock", self.lock_path);
        line.option_if("--endpoint-url", self.endpoint)
            .option_if("--region", self.region)
            .option_if("--profile", self.profile);
        line
    }
}

/// The one message for a layout `name` that the lock at `lock_path` does not have, with those it
/// has: the command's arguments, its pages' asks and the migration's all say it so.
pub(crate) fn no_layout(lock: &sortkey_core::LockFile, lock_path: &str, name: &str) -> String {
    let names: Vec<&str> = lock.entries.iter().map(|(n, _)| n.as_str()).collect();
    format!("{lock_path}: no layout {}; expected one of {}", crate::display::quoted(name), names.join(", "))
}
