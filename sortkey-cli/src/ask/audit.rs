//! What an audit reads, the ask of `sortkey audit` and of the audit page: a table (or its index)
//! or an export, the key attributes an export needs, and the partial report it keeps.

use std::path::PathBuf;

use crate::ask::{AskError, CommandLine, Context};

/// What an audit reads: `sortkey audit`'s arguments (clap), and what the audit page asks with
/// the sources the server was started with (a Scan of a table it may read, saved in its audit
/// folder; its export, with the key attributes typed on the page).
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args)]
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
}

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
        line
    }
}
