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
mod counters;
mod display;
mod layouts;
mod lock;
mod migrate;
mod outcome;
mod output;
mod pages;
mod query;
mod rank;
#[cfg(test)]
mod readme_test;
#[cfg(feature = "serve")]
mod serve;
mod session;
mod sharded;
mod table;
mod tables;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Args, Command};
use crate::outcome::{AskError, Outcome};
use crate::output::Answer;
use crate::session::Session;

fn main() -> ExitCode {
    let args = Args::parse();
    let session = Session::new(&args.lock, args.command.reads_lock(), args.connection(), args.output());
    let answered = session.and_then(|session| {
        let answer = run(&session, &args.command)?;
        answer.print(session.output);
        Ok(answer.outcome)
    });
    match answered {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Found) => ExitCode::from(1),
        Err(error) => {
            let hint = connect::aws_hint(&args.connection(), &error);
            eprintln!("sortkey: {}{hint}", display::sanitized(&error.message));
            ExitCode::from(error.exit_code())
        }
    }
}

/// The answer of the subcommand in the session built from the command line (`serve` answers
/// its pages until it is stopped, and prints nothing of its own).
fn run(session: &Session, command: &Command) -> Result<Answer, AskError> {
    match command {
        Command::Layouts => layouts::run(session),
        Command::Audit(audit) => audit::run(session, audit),
        Command::Query(query) => query::run(session, query),
        Command::Browse(browse) => browse::run(session, browse),
        Command::Rank(ask) => rank::run(session, ask),
        Command::Migrate(migrate) => migrate::run(session, migrate),
        Command::Tables(t) => tables::run(session, t),
        #[cfg(feature = "serve")]
        Command::Serve(serve) => serve::run(session, serve).map(|()| Answer::nothing()),
    }
}
