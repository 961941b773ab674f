//! What an audit reads, the ask of `sortkey audit` and of the audit page: a table (or its index)
//! or an export, the key attributes an export needs, and the partial report it keeps.

use std::path::{Path, PathBuf};

use crate::ask::command::CommandLine;
use crate::ask::context::Context;
use crate::outcome::AskError;

/// What an audit reads: `sortkey audit`'s arguments (clap), and what the audit page asks with
/// the sources the server was started with (a Scan of a table it may read, saved in its audit
/// folder; its export, with the key attributes typed on the page).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub(crate) struct AuditAsk {
    /// The table; with --export, the export's table, which the printed moves of old keys name.
    #[arg(long, required_unless_present = "export")]
    pub(crate) table: Option<String>,
    /// A DynamoDB export to read instead of the table (ExportTableToPointInTime in DynamoDB JSON,
    /// its `data/*.json.gz` files), at no read cost: its folder, or `s3://BUCKET/PREFIX` where it
    /// lies (its manifest lists the files; each is streamed); needs --pk and --sk.
    #[arg(long, value_name = "DIR|s3://BUCKET/PREFIX", conflicts_with_all = ["index", "rate"])]
    pub(crate) export: Option<String>,
    /// A global secondary index of the table to read instead, its key attributes from DescribeTable.
    #[arg(long, conflicts_with_all = ["pk", "sk"])]
    pub(crate) index: Option<String>,
    /// The partition key attribute (the table's, from DescribeTable, when not given).
    #[arg(long, value_name = "ATTR", requires = "sk")]
    pub(crate) pk: Option<String>,
    /// The sort key attribute (the table's, from DescribeTable, when not given).
    #[arg(long, value_name = "ATTR", requires = "pk")]
    pub(crate) sk: Option<String>,
    /// The partial report: saved after every page with where each segment stands, and resumed
    /// from when the file exists (an audit killed midway goes on where it saved).
    #[arg(long, value_name = "FILE")]
    pub(crate) report: Option<PathBuf>,
    /// Parallel Scan segments, all read by this process (a partial report is resumed with the
    /// segments it was saved with).
    #[arg(long, default_value_t = SEGMENTS, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(crate) segments: u32,
}

/// The Scan segments a process reads or moves side by side when the command line names none.
pub(crate) const SEGMENTS: u32 = 4;

impl Default for AuditAsk {
    /// Nothing to read yet, in the default segments.
    fn default() -> Self {
        AuditAsk { table: None, export: None, index: None, pk: None, sk: None, report: None, segments: SEGMENTS }
    }
}

/// The part of a field's range left under which its headroom is a finding, when the command
/// line names no `--headroom` (and on the audit page).
pub(crate) const HEADROOM: f64 = 0.1;

impl AuditAsk {
    /// The ask, when the command answers it: a table that may be read (a Scan's, or the one an
    /// export's moves name), and an export's key attributes.
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<(), AskError> {
        if let Some(table) = &self.table {
            ctx.may_read(table)?;
        }
        match (&self.table, &self.export, &self.pk) {
            (None, None, _) => Err(AskError::bad("expected a table to read, or an export")),
            (_, Some(_), None) => {
                Err(AskError::bad("--export needs --pk ATTR (and --sk ATTR): an export has no key schema"))
            }
            _ => Ok(()),
        }
    }

    /// The command line that asks the same.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("audit");
        line.option_if("--table", self.table.as_deref())
            .option_if("--index", self.index.as_deref())
            .option_if("--export", self.export.as_deref())
            .option_if("--pk", self.pk.as_deref())
            .option_if("--sk", self.sk.as_deref())
            .option_if("--report", self.report.as_ref().map(|p| p.display().to_string()));
        if self.segments != SEGMENTS && self.export.is_none() {
            line.option("--segments", self.segments.to_string());
        }
        line
    }

    /// `sortkey audit merge PARTS...`: the command line that merges partial reports.
    pub(crate) fn merge_command_line(ctx: &Context<'_>, parts: &[impl AsRef<Path>]) -> CommandLine {
        let mut line = ctx.command_of(&["audit", "merge"]);
        // A part named like an option (`-a.json`) is read as a part after `--`.
        line.flag("--", parts.iter().any(|p| p.as_ref().to_string_lossy().starts_with('-')));
        for part in parts {
            line.arg(part.as_ref().display().to_string());
        }
        line
    }
}
