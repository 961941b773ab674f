//! Where the leaderboard and the catalogue keep their keys: the embedded byte-ordered table, or
//! a DynamoDB table (feature `dynamodb`, `--endpoint URL`; feature `aws`, `--aws`). Both answer the same typed conditions.

use sortkey_core::{KeyCondition, SortKey};
use sortkey_examples::{MemTable, Order, Query, Target};

/// A table of sort keys, one partition per season.
pub(crate) enum Store {
    /// The embedded table.
    Memory(MemTable<()>),
    /// A DynamoDB-compatible endpoint.
    #[cfg(feature = "dynamodb")]
    Dynamo(dynamo::Remote),
}

impl Store {
    /// The store chosen on the command line of the example `example` (its name in hints).
    pub(crate) fn from_args(example: &str) -> Result<Store, Box<dyn std::error::Error>> {
        match Target::from_args(example)? {
            Target::Embedded => Ok(Store::Memory(MemTable::new())),
            #[cfg(feature = "dynamodb")]
            target => {
                let remote = sortkey_examples::Remote::connect(&target)?;
                Ok(Store::Dynamo(dynamo::Remote { remote, described: target.to_string() }))
            }
            #[cfg(not(feature = "dynamodb"))]
            target => Err(format!("{target} needs the `dynamodb` feature").into()),
        }
    }

    /// Where the runs are, for the output.
    pub(crate) fn describe(&self) -> String {
        match self {
            Store::Memory(_) => Target::Embedded.to_string(),
            #[cfg(feature = "dynamodb")]
            Store::Dynamo(r) => r.described.clone(),
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
    use aws_sdk_dynamodb::types::AttributeValue;
    use sortkey_core::KeyCondition;
    use sortkey_examples::Order;

    /// A DynamoDB table of sort keys.
    pub(crate) struct Remote {
        pub(super) remote: sortkey_examples::Remote,
        pub(super) described: String,
    }

    type Result<T> = std::result::Result<T, sortkey_examples::Error>;

    impl Remote {
        pub(crate) fn put(&self, pk: &str, sk: String) -> Result<()> {
            let r = &self.remote;
            let put = r
                .client
                .put_item()
                .table_name(&r.table)
                .item("pk", AttributeValue::S(pk.to_owned()))
                .item("sk", AttributeValue::S(sk));
            r.block_on(put.send())?;
            Ok(())
        }

        pub(crate) fn query(
            &self,
            pk: &str,
            cond: &KeyCondition,
            order: Order,
            limit: Option<usize>,
        ) -> Result<Vec<String>> {
            let r = &self.remote;
            r.block_on(async {
                let mut out = Vec::new();
                let mut start = None;
                loop {
                    let left = limit.map(|l| (l - out.len()) as i32);
                    let q = r
                        .client
                        .query()
                        .table_name(&r.table)
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
