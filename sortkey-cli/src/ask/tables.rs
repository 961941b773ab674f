//! What `sortkey tables` and the overview page ask: the tables to describe.

use serde::Deserialize;

use crate::ask::command::CommandLine;
use crate::ask::context::Context;
use crate::outcome::AskError;

/// The tables to describe: those named, or every table the connection sees (the overview asks
/// for those the server was started with).
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct TablesAsk {
    /// A table to describe (every table the connection sees when none is given).
    #[arg(long)]
    pub(crate) table: Vec<String>,
}

impl TablesAsk {
    /// The ask, when every table it names may be read.
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<(), AskError> {
        self.table.iter().try_for_each(|t| ctx.may_read(t))
    }

    /// The command line that asks the same.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("tables");
        for table in &self.table {
            line.option("--table", table);
        }
        line
    }
}
