//! What a user asks, once: per subcommand a plain type ([`BrowseAsk`], [`QueryAsk`],
//! [`MigrationAsk`] and [`MigrateAsk`], [`TablesAsk`], [`AuditAsk`]) that clap
//! parses the command line into and a page's query string deserializes into, validated once
//! against the [`Context`] (the tables a server may read, the lock's layouts, limits, values),
//! answered by one function that returns the document, and printed back as the one command
//! line that asks it again ([`CommandLine`]). The terminal, the JSON and the page only render
//! the answer.

mod audit;
mod browse;
mod command;
mod context;
mod migrate;
mod query;
mod rank;
#[cfg(feature = "serve")]
mod serve;
mod tables;

pub(crate) use audit::{AuditAsk, AuditCommand, MergeAsk};
#[cfg(feature = "serve")]
pub(crate) use audit::{AuditReads, HEADROOM, SEGMENTS};
pub(crate) use browse::BrowseAsk;
pub(crate) use command::CommandLine;
#[cfg(feature = "serve")]
pub(crate) use context::DEFAULT_ITEMS;
pub(crate) use context::{Connection, Context, no_layout};
pub(crate) use migrate::{MigrateAsk, MigrationAsk};
pub(crate) use query::QueryAsk;
pub(crate) use rank::RankAsk;
#[cfg(feature = "serve")]
pub(crate) use rank::RankForm;
#[cfg(feature = "serve")]
pub(crate) use serve::ServeAsk;
pub(crate) use tables::TablesAsk;

pub(crate) use crate::outcome::AskError;
