//! Which migration a user asks about: what `sortkey migrate` moves and where it keeps its place,
//! the ask of `sortkey migrate --status` and of the migration page.

use std::path::PathBuf;

use serde::Deserialize;

use crate::ask::command::CommandLine;
use crate::ask::context::Context;

/// A migration: the table, the layouts its keys move from and to, and where its checkpoints
/// are. The page reads the first three from its query string; the checkpoints are always the
/// server's own (`sortkey serve --checkpoint` or `--checkpoint-table`), never a page's.
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct MigrationAsk {
    /// The table.
    #[arg(long)]
    pub(crate) table: String,
    /// One older layout to move from, by its name in the lock; every older version of --to
    /// (its `To > Older` line in the lock) when not given. Required when the lock records no
    /// versions of --to.
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) from: Option<String>,
    /// The layout the keys move to, by its name in the lock: the current layout of their key, the
    /// same fields by name.
    #[arg(long, value_name = "LAYOUT")]
    pub(crate) to: String,
    /// The global secondary index whose sort key the layouts are of: its key attribute is
    /// rewritten in place on every item (the item keeps its primary key). Found from the lock's
    /// `table` lines when not given.
    #[arg(long, value_name = "INDEX")]
    pub(crate) index: Option<String>,
    /// The folder where each segment's place is saved after every page, so that a migration
    /// killed midway resumes where it saved; `.sortkey/migrate-TABLE-FROM-TO` by default, a
    /// folder per pass.
    #[arg(long, value_name = "DIR")]
    #[serde(skip)]
    pub(crate) checkpoint: Option<PathBuf>,
    /// Keeps each segment's place in this table instead of a folder (any table with string key
    /// attributes; the migrated one will do, its checkpoint items being in no layout it moves), as
    /// a lease: a worker takes a segment only when it is free, its own, or its holder stopped
    /// renewing it (--lease), and waits for one another worker holds. So the same command run on
    /// many machines shares the segments, and a worker restarted anywhere resumes from the last
    /// page saved.
    #[arg(long, value_name = "TABLE", conflicts_with = "checkpoint")]
    #[serde(skip)]
    pub(crate) checkpoint_table: Option<String>,
    /// The page's own parameter: its JSON instead of HTML.
    #[arg(skip)]
    pub(crate) format: Option<String>,
}

impl MigrationAsk {
    /// The migration of `table`'s keys (of `index`'s, when given) to `to`, from every older
    /// version, its checkpoints where the command keeps them by default: what an audit and the
    /// reshape page tell a user to run.
    pub(crate) fn to(table: &str, index: Option<&str>, to: &str) -> Self {
        MigrationAsk {
            table: table.to_owned(),
            index: index.map(str::to_owned),
            to: to.to_owned(),
            ..MigrationAsk::default()
        }
    }

    /// The ask, when the command answers it: a table that may be read, layouts of the lock.
    #[cfg(feature = "serve")]
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<(), crate::outcome::AskError> {
        ctx.may_read(&self.table)?;
        for layout in self.from.iter().chain([&self.to]) {
            ctx.layout(layout)?;
        }
        Ok(())
    }

    /// `sortkey migrate` for this migration: its table, layouts and checkpoints.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("migrate");
        line.option("--table", &self.table)
            .option_if("--index", self.index.as_deref())
            .option("--to", &self.to)
            .option_if("--from", self.from.as_deref());
        line.option_if("--checkpoint", self.checkpoint.as_ref().map(|p| p.display().to_string()))
            .option_if("--checkpoint-table", self.checkpoint_table.as_deref());
        line
    }

    /// `sortkey migrate --status` for this migration.
    pub(crate) fn status_command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = self.command_line(ctx);
        line.arg("--status");
        line
    }
}
