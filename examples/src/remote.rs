//! A DynamoDB client for the examples (feature `dynamodb`): plain HTTP to a local endpoint, or
//! (feature `aws`) the AWS default chain over TLS; and the examples' table.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use sortkey_core::{KeyNames, TableDefinition, TableError};

use crate::Target;

/// What the examples' DynamoDB calls return on failure.
pub type Error = Box<dyn std::error::Error>;

/// A client of one table, with the runtime that waits on its answers.
pub struct Remote {
    /// The SDK client.
    pub client: Client,
    /// The table the example uses.
    pub table: String,
    rt: tokio::runtime::Runtime,
}

impl Remote {
    /// The client `target` asks for, an error for [`Target::Embedded`]. The table is created
    /// (string `pk` and `sk`, on demand, from a `TableDefinition`) unless it exists.
    ///
    /// For `--endpoint`, credentials come from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` when
    /// set, the region from `AWS_REGION` (`us-east-1` otherwise); local servers take any.
    pub fn connect(target: &Target) -> Result<Remote, Error> {
        Remote::connect_with(target, |name| Ok(TableDefinition::new(name, KeyNames::DEFAULT)))
    }

    /// The same, creating the table as `definition` (given the table's name) defines it: the
    /// key schema and indexes of the entities stored in it; its error (entities that conflict)
    /// is returned before any request.
    pub fn connect_with(
        target: &Target,
        definition: impl FnOnce(&str) -> Result<TableDefinition, TableError>,
    ) -> Result<Remote, Error> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let (client, table) = match target {
            Target::Embedded => return Err("the embedded table needs no DynamoDB client".into()),
            Target::Endpoint { url, table } => (local(url), table),
            Target::Aws { table } => (rt.block_on(aws())?, table),
        };
        let definition = definition(table)?;
        let remote = Remote { client, table: table.clone(), rt };
        remote.ensure_table(&definition)?;
        Ok(remote)
    }

    /// Runs `f` to completion on the example's runtime.
    pub fn block_on<F: Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }

    fn ensure_table(&self, def: &TableDefinition) -> Result<(), Error> {
        let (client, table) = (&self.client, def.name());
        self.block_on(async {
            if client.describe_table().table_name(table).send().await.is_ok() {
                return Ok(());
            }
            def.apply_to_create(client.create_table())?.send().await?;
            for _ in 0..600 {
                let t = client.describe_table().table_name(table).send().await?;
                if t.table().and_then(|t| t.table_status()).is_some_and(|s| s.as_str() == "ACTIVE") {
                    return Ok(());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(format!("table {table} did not become ACTIVE").into())
        })
    }
}

/// Plain HTTP to a local endpoint: no TLS stack, no aws-config.
fn local(url: &str) -> Client {
    use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_owned());
    let creds = Credentials::new(
        env("AWS_ACCESS_KEY_ID", "local"),
        env("AWS_SECRET_ACCESS_KEY", "local"),
        None,
        None,
        "environment",
    );
    let conf = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new(env("AWS_REGION", "us-east-1")))
        .credentials_provider(creds)
        .endpoint_url(url)
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .build();
    Client::from_conf(conf)
}

/// The AWS default chain, over rustls with ring (which builds far faster than aws-lc).
#[cfg(feature = "aws")]
async fn aws() -> Result<Client, Error> {
    use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode};
    let https =
        aws_smithy_http_client::Builder::new().tls_provider(tls::Provider::Rustls(CryptoMode::Ring)).build_https();
    let conf = aws_config::defaults(aws_config::BehaviorVersion::latest()).http_client(https).load().await;
    Ok(Client::new(&conf))
}

#[cfg(not(feature = "aws"))]
async fn aws() -> Result<Client, Error> {
    Err("--aws needs the `aws` feature".into())
}
