//! Where `sortkey serve` listens and what its pages may read: the ask the web view starts with.

/// Where `sortkey serve` listens, and what it shows.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeAsk {
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
