//! Which migration a user asks about: what `sortkey migrate` moves and where it keeps its place,
//! the ask of `sortkey migrate --status` and of the migration page.

use std::path::PathBuf;

use serde::Deserialize;

use crate::ask::audit::SEGMENTS;
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

/// What `sortkey migrate` moves, and how.
#[derive(Debug, clap::Args)]
pub(crate) struct MigrateAsk {
    /// Which migration: the table, the layouts, the checkpoints.
    #[command(flatten)]
    pub(crate) which: MigrationAsk,
    /// Writes nothing: reports what would move, and every key that cannot (a value that does not
    /// fit the new layout).
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Writes and moves nothing: reads the migration's checkpoints (--checkpoint or
    /// --checkpoint-table, as the migration was given them) and says where it stands: each pass's
    /// segments, their pages, counts and leases, and the last report the migration kept.
    #[arg(long, conflicts_with_all = ["dry_run", "total"])]
    pub(crate) status: bool,
    /// The version attribute every write of the application sets anew: a move deletes the old
    /// item only if its version is still the one read. Exact.
    #[arg(long, value_name = "ATTR", conflicts_with = "compare_attributes")]
    pub(crate) version_attribute: Option<String>,
    /// Without a version attribute: a move deletes the old item only if every attribute read is
    /// unchanged and those of --may-add are still absent (an attribute outside them that a writer
    /// adds meanwhile is lost: the README says when this is safe).
    #[arg(long)]
    pub(crate) compare_attributes: bool,
    /// With --compare-attributes: the attributes the application may add to an item, comma-separated.
    #[arg(long, value_name = "ATTRS", value_delimiter = ',', requires = "compare_attributes")]
    pub(crate) may_add: Vec<String>,
    /// Parallel Scan segments, all moved by this process.
    #[arg(long, default_value_t = SEGMENTS, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(crate) segments: u32,
    /// Splits the table into this many segments, of which this process moves one (--segment, or
    /// the job's index: JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX); no verdict then, as the
    /// other workers may not be done: a --dry-run afterwards gives it.
    #[arg(long, value_name = "N", conflicts_with_all = ["segments", "dry_run"],
          value_parser = clap::value_parser!(u32).range(1..=1000000))]
    pub(crate) total: Option<u32>,
    /// With --total: the segment this process moves, from 0.
    #[arg(long, value_name = "I", requires = "total")]
    pub(crate) segment: Option<u32>,
    /// With --checkpoint-table: this worker's name in the leases (the machine's name by default,
    /// so that a worker restarted on it takes its own lease back).
    #[arg(long, value_name = "NAME", requires = "checkpoint_table")]
    pub(crate) worker: Option<String>,
    /// With --checkpoint-table: how long a lease lasts after the last page saved, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = LEASE, requires = "checkpoint_table")]
    pub(crate) lease: u64,
    /// At most this many items a second, read and moved, over the segments of this process.
    #[arg(long, value_name = "ITEMS", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) rate: Option<u64>,
    /// Passes over the table at most: another pass moves the items that changed while the last
    /// one moved them.
    #[arg(long, default_value_t = PASSES, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) passes: u32,
}

/// The passes a migration makes at most when the command line names none.
const PASSES: u32 = 3;

/// How long a lease lasts when the command line names no --lease, in seconds.
const LEASE: u64 = 60;

impl MigrateAsk {
    /// The command line that runs this migration again (or reads it, with --dry-run or
    /// --status): which migration, how moves are checked, the segments, leases, rate and passes,
    /// each option given only where it differs from its default.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        if self.status {
            return self.which.status_command_line(ctx);
        }
        let mut line = self.which.command_line(ctx);
        line.flag("--dry-run", self.dry_run)
            .option_if("--version-attribute", self.version_attribute.as_deref())
            .flag("--compare-attributes", self.compare_attributes);
        if !self.may_add.is_empty() {
            line.option("--may-add", self.may_add.join(","));
        }
        if self.total.is_none() && self.segments != SEGMENTS {
            line.option("--segments", self.segments.to_string());
        }
        line.option_if("--total", self.total.map(|n| n.to_string()))
            .option_if("--segment", self.segment.map(|n| n.to_string()))
            .option_if("--worker", self.worker.as_deref());
        if self.which.checkpoint_table.is_some() && self.lease != LEASE {
            line.option("--lease", self.lease.to_string());
        }
        line.option_if("--rate", self.rate.map(|n| n.to_string()));
        if self.passes != PASSES {
            line.option("--passes", self.passes.to_string());
        }
        line
    }
}
