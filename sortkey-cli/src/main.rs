//! `sortkey`: audit, browse, query and migrate a DynamoDB table through the layouts of its keys
//! (`layouts.lock`), with no Rust code of the table's own.
//!
//! The binary is thin: arguments ([`cli`]), reading the lock ([`lock`]), output ([`output`])
//! and one module per subcommand; every rule (decoding, capacity, conditions) is
//! sortkey-core's. Errors for people are one line on standard error and exit status 2;
//! findings are exit status 1.

mod ask;
mod audit;
mod browse;
mod cli;
mod connect;
mod display;
mod layouts;
mod lock;
mod migrate;
mod outcome;
mod output;
mod pages;
mod query;
#[cfg(test)]
mod readme_test;
#[cfg(feature = "serve")]
mod serve;
mod sharded;
mod table;
mod tables;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Args, Command};
use crate::outcome::Outcome;

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match &args.command {
        Command::Layouts => layouts::run(&args).map(|()| Outcome::Clean),
        Command::Audit(audit) => audit::run(&args, audit),
        Command::Query(query) => query::run(&args, query).map(|()| Outcome::Clean),
        Command::Browse(browse) => browse::run(&args, browse).map(|()| Outcome::Clean),
        Command::Migrate(migrate) => migrate::run(&args, migrate),
        Command::Tables(t) => tables::run(&args, t).map(|()| Outcome::Clean),
        #[cfg(feature = "serve")]
        Command::Serve(serve) => serve::run(&args, serve).map(|()| Outcome::Clean),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Found) => ExitCode::from(1),
        Err(error) => {
            eprintln!("sortkey: {}{}", display::sanitized(&error.message), connect::aws_hint(&args, &error));
            ExitCode::from(error.exit_code())
        }
    }
}
