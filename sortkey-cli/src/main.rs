//! `sortkey`: audit, browse, query and migrate a DynamoDB table through the layouts of its keys
//! (`layouts.lock`), with no Rust code of the table's own.
//!
//! The binary is thin: arguments ([`cli`]), reading the lock ([`lock`]), output ([`output`])
//! and one module per subcommand; every rule (decoding, capacity, conditions) is
//! sortkey-core's. Errors for people are one line on standard error and exit status 2.

mod cli;
mod layouts;
mod lock;
mod output;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Args, Command};

/// Why the command stopped: a message for people (exit status 2).
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match &args.command {
        Command::Layouts => layouts::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("sortkey: {message}");
            ExitCode::from(2)
        }
    }
}
