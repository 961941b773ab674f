//! What an audit reads, the ask of `sortkey audit` and of the audit page: a table (or its index)
//! or an export, the key attributes an export needs, and the partial report it keeps.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::ask::command::CommandLine;
use crate::ask::context::Context;
use crate::outcome::AskError;

/// What an audit reads: `sortkey audit`'s arguments (clap), and what the audit page asks with
/// the sources the server was started with (a Scan of a table it may read, saved in its audit
/// folder; its export, with the key attributes typed on the page).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub(crate) struct AuditReads {
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

impl Default for AuditReads {
    /// Nothing to read yet, in the default segments.
    fn default() -> Self {
        AuditReads { table: None, export: None, index: None, pk: None, sk: None, report: None, segments: SEGMENTS }
    }
}

/// The part of a field's range left under which its headroom is a finding, when the command
/// line names no `--headroom` (and on the audit page).
pub(crate) const HEADROOM: f64 = 0.1;

impl AuditReads {
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

/// What `sortkey audit` reads: a table (all of it, or one segment of a split) or an export.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct AuditAsk {
    #[command(subcommand)]
    pub(crate) command: Option<AuditCommand>,
    /// What the audit reads: a table, its index or an export, its partial report and segments.
    #[command(flatten)]
    pub(crate) what: AuditReads,
    /// Splits the table into this many Scan segments, of which this process reads one (--segment,
    /// or the job's index: JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX); each process writes
    /// its --report, and `sortkey audit merge` combines them.
    #[arg(long, value_name = "N", requires = "report", conflicts_with = "segments",
          value_parser = clap::value_parser!(u32).range(1..=1000000))]
    pub(crate) total: Option<u32>,
    /// With --total: the segment this process reads, from 0.
    #[arg(long, value_name = "I", requires = "total")]
    pub(crate) segment: Option<u32>,
    /// At most this many items a second, over all the segments this process reads (the Scan's
    /// read capacity: an item up to 4 KB is half a read unit); unlimited by default.
    #[arg(long, value_name = "ITEMS", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) rate: Option<u64>,
    /// A field whose headroom (the part of its range left above the largest value seen) is under
    /// this is a finding: `10%` or `0.1`.
    #[arg(long, default_value = "10%", value_parser = fraction)]
    pub(crate) headroom: f64,
}

/// `sortkey audit`'s own subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum AuditCommand {
    /// Combines the partial reports of every segment of a split audit (--total N --report FILE)
    /// into the report of the whole table.
    Merge(MergeAsk),
}

/// What `sortkey audit merge` combines.
#[derive(Debug, clap::Args)]
pub(crate) struct MergeAsk {
    /// The partial reports, one or more per segment's worker; every segment once.
    #[arg(required = true, value_name = "PARTS")]
    pub(crate) parts: Vec<PathBuf>,
    /// A field whose headroom is under this is a finding: `10%` or `0.1`.
    #[arg(long, default_value = "10%", value_parser = fraction)]
    pub(crate) headroom: f64,
}

impl AuditAsk {
    /// Whether this is `sortkey audit merge`, which reads no lock (its partial reports carry theirs).
    pub(crate) fn is_merge(&self) -> bool {
        matches!(self.command, Some(AuditCommand::Merge(_)))
    }

    /// The command line that asks this audit again: what it reads, how (segments, a split, a
    /// rate) and the threshold, each option given only where it differs from its default.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = self.what.command_line(ctx);
        line.option_if("--total", self.total.map(|n| n.to_string()))
            .option_if("--segment", self.segment.map(|n| n.to_string()))
            .option_if("--rate", self.rate.map(|n| n.to_string()));
        headroom(&mut line, self.headroom);
        line
    }
}

impl MergeAsk {
    /// The command line that merges the same parts again, with the same threshold.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = AuditReads::merge_command_line(ctx, &self.parts);
        headroom(&mut line, self.headroom);
        line
    }
}

/// `--headroom` when `threshold` is not the default.
fn headroom(line: &mut CommandLine, threshold: f64) {
    if threshold != HEADROOM {
        line.option("--headroom", threshold.to_string());
    }
}

/// `10%` or `0.1` as a fraction from 0 to 1.
fn fraction(text: &str) -> Result<f64, String> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(percent) => (percent, 100.0),
        None => (text, 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&(v / scale)) => Ok(v / scale),
        _ => Err(format!("expected a fraction such as `10%` or `0.1`, found `{text}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::{HEADROOM, fraction};

    #[test]
    fn a_headroom_threshold_is_a_percentage_or_a_fraction() {
        assert_eq!(fraction("10%"), Ok(HEADROOM), "the default `--headroom` is the audit page's");
        assert_eq!(fraction("0.25"), Ok(0.25));
        assert!(fraction("150%").unwrap_err().contains("`150%`"));
        assert!(fraction("ten").is_err());
    }
}
