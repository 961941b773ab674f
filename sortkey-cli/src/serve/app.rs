//! What every request of the server reads ([`App`]): the client, the lock, the tables it may
//! read, the sources of its audit and migration pages, its token and session, the hosts it
//! answers to; fixed when it starts.

use std::net::IpAddr;
use std::sync::atomic::AtomicBool;

use sortkey_core::LockFile;

use crate::ask::Connection;
use crate::ask::ServeAsk;
use crate::outcome::AskError;
use crate::serve::scans;
use crate::session::Session;

/// What every request of the server reads: fixed when it starts.
pub(crate) struct App {
    /// The connection to DynamoDB, made once.
    pub(crate) client: aws_sdk_dynamodb::Client,
    /// The lock and where it was read from.
    pub(crate) lock: LockFile,
    pub(crate) lock_path: String,
    /// The connection, as the command line gave it (for the frame of every page).
    pub(crate) connection: Connection,
    /// The tables the pages may read (all the connection sees when empty).
    pub(crate) tables: Vec<String>,
    /// The partial reports of an audit the audit page shows, merged.
    pub(crate) reports: Vec<std::path::PathBuf>,
    /// The export folder the audit page reads when asked.
    pub(crate) export: Option<String>,
    /// The S3 client an export in S3 is read through (the same connection options).
    pub(crate) s3: Option<aws_sdk_s3::Client>,
    /// The scans started from the audit page, and the folder they save their partial reports in.
    pub(crate) scans: scans::Scans,
    /// Where the migrations the migration page shows keep their checkpoints (as `sortkey
    /// migrate` was given them; `.sortkey/migrate-TABLE-FROM-TO` when neither).
    pub(crate) checkpoint: Option<std::path::PathBuf>,
    pub(crate) checkpoint_table: Option<String>,
    /// The one-time token of the printed URL, and whether it was traded already.
    pub(crate) token: String,
    pub(crate) token_used: AtomicBool,
    /// The session the token was traded for, the value of the cookie.
    pub(crate) session: String,
    /// The Host header values the server answers to.
    pub(crate) hosts: Vec<String>,
    /// Whether it listens on every address (`--bind 0.0.0.0` or `::`).
    pub(crate) every_address: bool,
}

impl App {
    pub(super) fn new(
        session: &Session,
        serve: &ServeAsk,
        (client, s3): (aws_sdk_dynamodb::Client, Option<aws_sdk_s3::Client>),
        (address, port): (IpAddr, u16),
    ) -> Result<App, AskError> {
        let mut hosts = match address {
            IpAddr::V4(a) if a.is_loopback() => vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")],
            IpAddr::V6(a) if a.is_loopback() => vec![format!("[::1]:{port}"), format!("localhost:{port}")],
            IpAddr::V4(a) => vec![format!("{a}:{port}")],
            IpAddr::V6(a) => vec![format!("[{a}]:{port}")],
        };
        hosts.dedup();
        Ok(App {
            client,
            lock: session.lock.clone(),
            lock_path: session.lock_path.clone(),
            connection: session.connection.clone(),
            tables: serve.table.clone(),
            reports: serve.report.clone(),
            export: serve.export.clone(),
            s3,
            scans: scans::Scans::new(serve.audit_dir.clone()),
            checkpoint: serve.checkpoint.clone(),
            checkpoint_table: serve.checkpoint_table.clone(),
            token: random_hex()?,
            token_used: AtomicBool::new(false),
            session: random_hex()?,
            hosts,
            every_address: address.is_unspecified(),
        })
    }
}

impl App {
    /// The context every page's ask is validated and answered against: the server's lock, the
    /// tables it was started with, its connection options.
    pub(crate) fn context(&self) -> crate::ask::Context<'_> {
        crate::ask::Context::of(&self.lock, &self.lock_path, &self.tables, &self.connection)
    }

    /// Whether the server answers a request whose Host header is `host`: one of its own addresses
    /// (127.0.0.1 and `localhost` on loopback, the address given with `--bind`); bound to every
    /// address (`0.0.0.0`, `::`), any IP address with the server's port, and `localhost`, but no
    /// other name (a name is what a DNS rebinding points at the server).
    pub(crate) fn answers_to(&self, host: &str) -> bool {
        if self.hosts.iter().any(|h| h == host) {
            return true;
        }
        if !self.every_address {
            return false;
        }
        let Some((name, port)) = host.rsplit_once(':') else { return false };
        let ours = self.hosts.first().and_then(|h| h.rsplit_once(':')).map(|(_, p)| p);
        let ip = name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().is_ok();
        Some(port) == ours && (ip || name == "localhost")
    }

    /// Whether a page may read `table` (the asks' own check, [`Context::may_read`](crate::ask::Context::may_read)).
    pub(crate) fn may_read(&self, table: &str) -> Result<(), crate::ask::AskError> {
        self.context().may_read(table)
    }

    /// The export folder, as the command line gave it.
    pub(crate) fn export_text(&self) -> String {
        self.export.clone().unwrap_or_default()
    }
}

/// 128 random bits in hexadecimal, from the operating system.
fn random_hex() -> Result<String, AskError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| AskError::local(format!("cannot draw a random token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
