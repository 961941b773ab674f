//! Where the leaderboard keeps its runs: the embedded byte-ordered table, or a DynamoDB
//! endpoint (feature `dynamodb`, `--endpoint URL`). Both answer the same typed conditions.

use sortkey_core::{KeyCondition, SortKey};
use sortkey_examples::{MemTable, Order, Query};

/// A table of sort keys, one partition per season.
pub(crate) enum Store {
    /// The embedded table.
    Memory(MemTable<()>),
    /// A DynamoDB-compatible endpoint.
    #[cfg(feature = "dynamodb")]
    Dynamo(dynamo::Remote),
}

impl Store {
    /// The store chosen on the command line.
    pub(crate) fn from_args() -> Result<Store, Box<dyn std::error::Error>> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
        match value("--endpoint") {
            None if args.is_empty() => Ok(Store::Memory(MemTable::new())),
            None => Err(format!("unknown arguments {args:?}; expected [--endpoint URL [--table NAME]]").into()),
            #[cfg(feature = "dynamodb")]
            Some(url) => {
                let table = value("--table").unwrap_or_else(|| "sortkey-leaderboard".into());
                Ok(Store::Dynamo(dynamo::Remote::connect(&url, &table)?))
            }
            #[cfg(not(feature = "dynamodb"))]
            Some(_) => Err("--endpoint needs the `dynamodb` feature: \
                 cargo run -p sortkey-examples --features dynamodb --example leaderboard -- --endpoint URL"
                .into()),
        }
    }

    /// Where the runs are, for the output.
    pub(crate) fn describe(&self) -> String {
        match self {
            Store::Memory(_) => "the embedded byte-ordered table".into(),
            #[cfg(feature = "dynamodb")]
            Store::Dynamo(r) => format!("DynamoDB table {} at {}", r.table, r.endpoint),
        }
    }

    /// Writes `key` in partition `pk`; on an `EncodeError` nothing is written.
    pub(crate) fn put<K: SortKey>(&mut self, pk: &str, key: &K) -> Result<(), Box<dyn std::error::Error>> {
        let sk = key.encode()?;
        match self {
            Store::Memory(t) => {
                t.put(pk, sk, ());
            }
            #[cfg(feature = "dynamodb")]
            Store::Dynamo(r) => r.put(pk, sk)?,
        }
        Ok(())
    }

    /// The sort keys of partition `pk` that satisfy `cond`, in `order`, at most `limit`.
    pub(crate) fn query(
        &self,
        pk: &str,
        cond: &KeyCondition,
        order: Order,
        limit: Option<usize>,
    ) -> Result<Vec<String>, Box<dyn std::error::Error>> {
        match self {
            Store::Memory(t) => {
                let q = Query { order, limit };
                Ok(t.query_where(pk, cond, q).map(|(sk, ())| sk.to_owned()).collect())
            }
            #[cfg(feature = "dynamodb")]
            Store::Dynamo(r) => r.query(pk, cond, order, limit),
        }
    }
}

#[cfg(feature = "dynamodb")]
mod dynamo {
    use aws_sdk_dynamodb::Client;
    use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    use sortkey_core::KeyCondition;
    use sortkey_examples::Order;

    /// A DynamoDB endpoint and table, with a runtime to wait on its answers.
    pub(crate) struct Remote {
        client: Client,
        rt: tokio::runtime::Runtime,
        pub(super) table: String,
        pub(super) endpoint: String,
    }

    type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

    impl Remote {
        /// Connects over plain HTTP (a local DynamoDB-compatible server) and creates the table
        /// (`pk` and `sk`, both strings) unless it exists. Credentials come from
        /// `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` when set; local servers take any.
        pub(crate) fn connect(endpoint: &str, table: &str) -> Result<Remote> {
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
                .endpoint_url(endpoint)
                .http_client(aws_smithy_http_client::Builder::new().build_http())
                .build();
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            let remote =
                Remote { client: Client::from_conf(conf), rt, table: table.to_owned(), endpoint: endpoint.to_owned() };
            remote.ensure_table()?;
            Ok(remote)
        }

        fn ensure_table(&self) -> Result<()> {
            self.rt.block_on(async {
                if self.client.describe_table().table_name(&self.table).send().await.is_ok() {
                    return Ok(());
                }
                let attr = |n: &str| {
                    AttributeDefinition::builder().attribute_name(n).attribute_type(ScalarAttributeType::S).build()
                };
                let key = |n: &str, t| KeySchemaElement::builder().attribute_name(n).key_type(t).build();
                self.client
                    .create_table()
                    .table_name(&self.table)
                    .attribute_definitions(attr("pk")?)
                    .attribute_definitions(attr("sk")?)
                    .key_schema(key("pk", KeyType::Hash)?)
                    .key_schema(key("sk", KeyType::Range)?)
                    .billing_mode(BillingMode::PayPerRequest)
                    .send()
                    .await?;
                for _ in 0..600 {
                    let t = self.client.describe_table().table_name(&self.table).send().await?;
                    if t.table().and_then(|t| t.table_status()).is_some_and(|s| s.as_str() == "ACTIVE") {
                        return Ok(());
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                Err(format!("table {} did not become ACTIVE", self.table).into())
            })
        }

        pub(crate) fn put(&self, pk: &str, sk: String) -> Result<()> {
            let put = self
                .client
                .put_item()
                .table_name(&self.table)
                .item("pk", AttributeValue::S(pk.to_owned()))
                .item("sk", AttributeValue::S(sk));
            self.rt.block_on(put.send())?;
            Ok(())
        }

        pub(crate) fn query(
            &self,
            pk: &str,
            cond: &KeyCondition,
            order: Order,
            limit: Option<usize>,
        ) -> Result<Vec<String>> {
            self.rt.block_on(async {
                let mut out = Vec::new();
                let mut start = None;
                loop {
                    let left = limit.map(|l| (l - out.len()) as i32);
                    let q = self
                        .client
                        .query()
                        .table_name(&self.table)
                        .scan_index_forward(order == Order::Ascending)
                        .set_limit(left)
                        .set_exclusive_start_key(start);
                    let page = cond.apply_to_query(q, "pk", AttributeValue::S(pk.to_owned()), "sk").send().await?;
                    for item in page.items() {
                        out.push(item["sk"].as_s().map_err(|_| "sort key is not a string")?.clone());
                    }
                    match page.last_evaluated_key() {
                        Some(k) if !k.is_empty() && limit.is_none_or(|l| out.len() < l) => start = Some(k.clone()),
                        _ => return Ok(out),
                    }
                }
            })
        }
    }
}
