//! The command line: global options (where the layouts are, how to print) and the subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[cfg(feature = "serve")]
use crate::ask::ServeAsk;
use crate::ask::{AuditAsk, BrowseAsk, Connection, MigrateAsk, QueryAsk, RankAsk, TablesAsk};
use crate::output::Output;

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

/// What to do.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The lock's layouts: each field with its type, width, desc, max and the largest value it can hold.
    Layouts,
    /// Reads every item of a table (or index) and classifies its keys by the lock's layouts:
    /// keys per layout, mixed widths, headroom, keys no layout reads. Exit status 1 when it finds
    /// anything. Read only.
    Audit(AuditAsk),
    /// The expression builder: a key condition on a layout's fields, by name and typed as the
    /// layout says, printed as its KeyConditionExpression with its names and values.
    Query(QueryAsk),
    /// Moves every item whose sort key is in one layout of the lock to another, fields matched by
    /// name, through conditional moves that lose no write; resumable, in segments, and checked at
    /// the end by a read of the whole table. Exit status 1 when keys are left in the old layout.
    Migrate(MigrateAsk),
    /// One partition in the order DynamoDB returns it, as one table: each sort key, the layout
    /// that reads it, its fields decoded, and its flag (`--group`: one table per layout).
    Browse(BrowseAsk),
    /// A value's rank on a partition (every shard of a sharded one): one more than the items
    /// that sort before it, read from the rank counters the lock's `rank Layout.field levels=N`
    /// line says the layout keeps, in N + 2 requests over N shards whatever the rank.
    Rank(RankAsk),
    /// The tables the connection sees (or those named), each with its key attributes, its global
    /// secondary indexes and its item count.
    Tables(TablesAsk),
    /// The same reports in a browser: a local web server, on 127.0.0.1, reached through the URL it
    /// prints (a one-time token). Read only.
    #[cfg(feature = "serve")]
    Serve(ServeAsk),
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
            Command::Audit(audit) => !audit.is_merge(),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{Args, Command};
    use crate::ask::{AuditCommand, Context};

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
