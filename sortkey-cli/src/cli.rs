//! The command line: global options (where the layouts are, how to print) and the subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Audit, browse and query a DynamoDB table through the layouts of its keys.
#[derive(Debug, Parser)]
#[command(name = "sortkey", version, about)]
pub(crate) struct Args {
    /// The lock file with the layouts, one `Name = layout` line per key type.
    #[arg(long, global = true, default_value = "layouts.lock", value_name = "FILE")]
    pub(crate) lock: PathBuf,

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
}

impl Args {
    /// The output asked for, or the default: a table on a terminal, JSON otherwise.
    pub(crate) fn output(&self) -> Output {
        self.output.unwrap_or(if std::io::stdout().is_terminal() { Output::Table } else { Output::Json })
    }
}
