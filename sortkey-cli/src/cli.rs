//! The command line: global options (where the layouts are, how to print) and the subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::ask::{
    AuditAsk, BrowseAsk, CommandLine, Connection, Context, HEADROOM, MigrationAsk, QueryAsk, SEGMENTS, TablesAsk,
};

/// Audit, browse, query and migrate a DynamoDB table through the layouts of its keys.
#[derive(Debug, Parser)]
#[command(name = "sortkey", version, about)]
pub(crate) struct Args {
    /// The lock file with the layouts, one `Name = layout` line per key type.
    #[arg(long, global = true, default_value = "layouts.lock", value_name = "FILE")]
    pub(crate) lock: PathBuf,

    /// The DynamoDB endpoint (a local server: `http://localhost:8000`); AWS's otherwise, or
    /// `AWS_ENDPOINT_URL_DYNAMODB`, or the profile's `endpoint_url`.
    #[arg(long, global = true, value_name = "URL")]
    pub(crate) endpoint_url: Option<String>,

    /// The AWS region; the default chain's otherwise (`AWS_REGION`, the profile), `us-east-1` last.
    #[arg(long, global = true)]
    pub(crate) region: Option<String>,

    /// The profile of the AWS config and credentials files.
    #[arg(long, global = true)]
    pub(crate) profile: Option<String>,

    /// Output: an aligned table (the default on a terminal) or one JSON document (otherwise).
    #[arg(short = 'o', long, global = true, value_enum)]
    pub(crate) output: Option<Output>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Output {
    /// Aligned columns, for people.
    Table,
    /// One JSON document on standard output, for programs (its shape is in the README).
    Json,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The lock's layouts: each field with its type, width, desc, max and the largest value it can hold.
    Layouts,
    /// Reads every item of a table (or index) and classifies its keys by the lock's layouts:
    /// keys per layout, mixed widths, headroom, keys no layout reads. Exit status 1 when it finds
    /// anything. Read only.
    Audit(AuditArgs),
    /// The expression builder: a key condition on a layout's fields, by name and typed as the
    /// layout says, printed as its KeyConditionExpression with its names and values.
    Query(QueryAsk),
    /// Moves every item whose sort key is in one layout of the lock to another, fields matched by
    /// name, through conditional moves that lose no write; resumable, in segments, and checked at
    /// the end by a read of the whole table. Exit status 1 when keys are left in the old layout.
    Migrate(MigrateArgs),
    /// One partition in the order DynamoDB returns it, as one table: each sort key, the layout
    /// that reads it, its fields decoded, and its flag (`--group`: one table per layout).
    Browse(BrowseAsk),
    /// The tables the connection sees (or those named), each with its key attributes, its global
    /// secondary indexes and its item count.
    Tables(TablesAsk),
    /// The same reports in a browser: a local web server, on 127.0.0.1, reached through the URL it
    /// prints (a one-time token). Read only.
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
}

/// Where `sortkey serve` listens, and what it shows.
#[cfg(feature = "serve")]
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// The port (0: any free one).
    #[arg(long, default_value_t = 7878)]
    pub(crate) port: u16,
    /// Another address than 127.0.0.1 to listen on: anyone who reaches it and holds the printed
    /// URL reads the tables with your credentials (a warning says so).
    #[arg(long, value_name = "ADDRESS")]
    pub(crate) bind: Option<std::net::IpAddr>,
    /// The tables the pages may read (every table the connection sees when none is given).
    #[arg(long)]
    pub(crate) table: Vec<String>,
    /// The partial reports of an audit (`sortkey audit --report FILE`, every segment) the audit
    /// page shows, merged as `sortkey audit merge` does.
    #[arg(long, value_name = "FILE")]
    pub(crate) report: Vec<std::path::PathBuf>,
    /// A DynamoDB export (DynamoDB JSON) the audit page may read, its folder or
    /// `s3://BUCKET/PREFIX`, as `sortkey audit --export` does.
    #[arg(long, value_name = "DIR|s3://BUCKET/PREFIX")]
    pub(crate) export: Option<String>,
    /// Where the scans started from the audit page save their partial reports (`TABLE.json`,
    /// what `sortkey audit --report` writes), made when the first starts.
    #[arg(long, value_name = "DIR", default_value = "sortkey-audits")]
    pub(crate) audit_dir: std::path::PathBuf,
    /// The folder of the checkpoints of the migrations the migration page shows, as `sortkey
    /// migrate --checkpoint` was given it (`.sortkey/migrate-TABLE-FROM-TO` by default).
    #[arg(long, value_name = "DIR")]
    pub(crate) checkpoint: Option<std::path::PathBuf>,
    /// The table of the checkpoints of the migrations the migration page shows, as `sortkey
    /// migrate --checkpoint-table` was given it.
    #[arg(long, value_name = "TABLE", conflicts_with = "checkpoint")]
    pub(crate) checkpoint_table: Option<String>,
}

/// What `sortkey migrate` moves, and how.
#[derive(Debug, clap::Args)]
pub(crate) struct MigrateArgs {
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

/// What `sortkey audit` reads: a table (all of it, or one segment of a split) or an export.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct AuditArgs {
    #[command(subcommand)]
    pub(crate) command: Option<AuditCommand>,
    /// What the audit reads: a table, its index or an export, its partial report and segments.
    #[command(flatten)]
    pub(crate) what: AuditAsk,
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
    Merge(MergeArgs),
}

/// What `sortkey audit merge` combines.
#[derive(Debug, clap::Args)]
pub(crate) struct MergeArgs {
    /// The partial reports, one or more per segment's worker; every segment once.
    #[arg(required = true, value_name = "PARTS")]
    pub(crate) parts: Vec<PathBuf>,
    /// A field whose headroom is under this is a finding: `10%` or `0.1`.
    #[arg(long, default_value = "10%", value_parser = fraction)]
    pub(crate) headroom: f64,
}

/// The passes a migration makes at most when the command line names none.
const PASSES: u32 = 3;

/// How long a lease lasts when the command line names no --lease, in seconds.
const LEASE: u64 = 60;

impl AuditArgs {
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

impl MergeArgs {
    /// The command line that merges the same parts again, with the same threshold.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = AuditAsk::merge_command_line(ctx, &self.parts);
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

impl MigrateArgs {
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

impl Args {
    /// The connection options the command line gives.
    pub(crate) fn connection(&self) -> Connection {
        Connection { endpoint: self.endpoint_url.clone(), region: self.region.clone(), profile: self.profile.clone() }
    }

    /// The output asked for, or the default: a table on a terminal, JSON otherwise.
    pub(crate) fn output(&self) -> Output {
        self.output.unwrap_or(if std::io::stdout().is_terminal() { Output::Table } else { Output::Json })
    }
}

impl Command {
    /// Whether the subcommand reads the lock: all but `tables` and `audit merge` (whose partial
    /// reports carry theirs).
    pub(crate) fn reads_lock(&self) -> bool {
        match self {
            Command::Tables(_) => false,
            Command::Audit(audit) => !matches!(audit.command, Some(AuditCommand::Merge(_))),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Args, AuditCommand, Command, Context, HEADROOM, fraction};

    #[test]
    fn a_headroom_threshold_is_a_percentage_or_a_fraction() {
        assert_eq!(fraction("10%"), Ok(HEADROOM), "the default `--headroom` is the audit page's");
        assert_eq!(fraction("0.25"), Ok(0.25));
        assert!(fraction("150%").unwrap_err().contains("`150%`"));
        assert!(fraction("ten").is_err());
    }

    /// The command line an audit or a migration prints in its document is read back by clap as
    /// the same arguments: every option that changes what it does, and none that would not.
    #[test]
    fn an_audit_and_a_migration_print_the_command_lines_that_ask_them_again() {
        let lock = sortkey_core::LockFile::parse("").unwrap();
        for line in [
            "sortkey audit --table Runs",
            "sortkey --lock 'my layouts.lock' --region eu-west-1 audit --table Runs --index ByStatus --segments 8 \
             --rate 100 --headroom 25%",
            "sortkey audit --table Runs --total 4 --segment 2 --report part.json",
            "sortkey --endpoint-url http://localhost:8000 audit --export s3://b/p --pk pk --sk sk --table Runs",
            "sortkey audit merge a.json 'b c.json' --headroom 0.2",
            "sortkey audit merge -- -a.json",
            "sortkey migrate --table Runs --to RankKey --compare-attributes --may-add a,b --total 3 --segment 1 \
             --passes 5 --checkpoint dir",
            "sortkey migrate --table Runs --to RankKey --from V1 --version-attribute v --checkpoint-table Cp \
             --worker w --lease 30 --rate 50 --segments 2",
            "sortkey migrate --table Runs --to RankKey --dry-run",
            "sortkey migrate --table Runs --to RankKey --status --checkpoint-table Cp",
        ] {
            let args = Args::try_parse_from(shlex::split(line).unwrap()).unwrap();
            let (lock_path, connection) = (args.lock.display().to_string(), args.connection());
            let ctx = Context::of(&lock, &lock_path, &[], &connection);
            let printed = match &args.command {
                Command::Audit(a) => match &a.command {
                    Some(AuditCommand::Merge(m)) => m.command_line(&ctx),
                    None => a.command_line(&ctx),
                },
                Command::Migrate(m) => m.command_line(&ctx),
                other => panic!("{other:?} is no audit or migration"),
            };
            let again = Args::try_parse_from(&printed.argv).unwrap_or_else(|e| panic!("{printed}: {e}"));
            assert_eq!(format!("{:?}", again.command), format!("{:?}", args.command), "{line} printed {printed}");
            assert_eq!(
                (&again.lock, &again.region, &again.endpoint_url),
                (&args.lock, &args.region, &args.endpoint_url)
            );
            assert_eq!(shlex::split(&printed.to_string()).unwrap(), printed.argv);
        }
    }
}
