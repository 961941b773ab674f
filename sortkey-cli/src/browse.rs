//! `sortkey browse`: one partition in DynamoDB's order, its sort keys decoded by the lock's
//! layouts into aligned columns, one table per layout (a family's variants each as their own),
//! the raw key beside; keys no layout reads with their error.

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sortkey_core::dynamodb::{IndexVersionsQuery, VersionsQuery};
use sortkey_core::{
    DynLayout, DynValue, FieldCondition, KeyAudit, KeyExpression, KeyRole, LiveKey, LiveLayouts, LiveResults, LockFile,
    Outside, RankedField, read_furthest,
};

use crate::ask::{AskError, BrowseAsk, CommandLine, Context};
use crate::display::{sanitized, shown};
use crate::output::{self, Answer, Document, format_tag, outln};
use crate::session::Session;
use crate::sharded::{self, MergedKeys, Partition};
use crate::table::key_names;

format_tag! {
    /// The browse report's format.
    BrowseFormat = "sortkey browse 4"
}

/// The report of `sortkey browse` and of `sortkey query --table`: the sort keys of a partition
/// (under a condition), each read by the lock's layouts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BrowseDocument {
    pub(crate) format: BrowseFormat,
    pub(crate) table: String,
    pub(crate) index: Option<String>,
    /// The partition key's value.
    pub(crate) pk: String,
    /// The sort key condition (`sortkey query --table`); null for the whole partition.
    pub(crate) condition: Option<String>,
    /// The items: in the order DynamoDB returned them, or with a condition on a layout with older
    /// versions, in the current layout's order.
    pub(crate) items: Vec<BrowseItem>,
    /// With a condition: the items each live version of the layout gave, current first.
    pub(crate) versions: Vec<VersionCount>,
    /// With a condition: the keys the queries returned that are no result (read by no version
    /// of the layout, or outside the condition).
    pub(crate) outside: OutsideReport,
    /// What the answer cost: the items DynamoDB returned, and the read units it counted.
    pub(crate) read: ReadCost,
    /// The command line that gives this document (`sortkey browse`, or `sortkey query
    /// --table`), as its arguments.
    pub(crate) command: Vec<String>,
    /// The shard count when the partition is sharded (the lock says so): its items are then
    /// read merged over every shard, or from the one shard the ask names.
    pub(crate) shards: Option<u16>,
    /// Where the next page of a merged read starts (`--after`): `<shard>:<sort key>`.
    pub(crate) next: Option<String>,
    /// Whether its items were read merged over every shard (not one shard): what the terminal
    /// says; the JSON says it by `next` and each item's `shard`.
    #[serde(skip)]
    pub(crate) merged: bool,
}

/// What reading cost: the items DynamoDB returned (every Query asks for at most one more than
/// it still needs), and the read units of their `ConsumedCapacity`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ReadCost {
    pub(crate) items: u64,
    pub(crate) read_units: f64,
}

/// The items one version of a layout gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct VersionCount {
    /// The version's layout, by its name in the lock.
    pub(crate) layout: String,
    /// How many of the results are in it.
    pub(crate) items: u64,
    /// The items its Query read: one more than it gives when its keys sort as the current
    /// layout's, every key of the range when they sort otherwise (the merge needs them all to
    /// put them in the current order): what this version cost.
    pub(crate) read: u64,
}

/// Keys that are no result, counted, with the least of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct OutsideReport {
    pub(crate) keys: u64,
    pub(crate) samples: Vec<Outside>,
}

/// How many keys outside the condition a report keeps as samples.
const OUTSIDE_SAMPLES: usize = 5;

/// One sort key as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BrowseItem {
    /// The key as stored.
    pub(crate) sk: String,
    /// The layout that reads it; null when none does.
    pub(crate) layout: Option<String>,
    /// A family's variant (its prefix, or a unit variant's literal); null for a plain key.
    pub(crate) variant: Option<String>,
    /// Its fields by path, as JSON values (a layout's values, by sortkey-core's rules).
    pub(crate) fields: Map<String, Value>,
    /// When no layout reads it: the error of the layout that read furthest.
    pub(crate) error: Option<String>,
    /// When its layout is an older version of another (a key a migration has yet to move): the
    /// current layout.
    pub(crate) older_version_of: Option<String>,
    /// When no layout reads it but one would with a field of another width: which.
    pub(crate) mixed_width: Option<MixedWidthFlag>,
    /// Its shard, in a sharded partition.
    pub(crate) shard: Option<u16>,
    /// When it is a rank counter item of a ranked layout (`#RANK#...`, the library's own):
    /// which; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counter: Option<CounterItem>,
}

/// A rank counter item: the ranked layout and field whose counts it holds, and its trie node
/// (the leading digits it counts under; empty for the root).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CounterItem {
    pub(crate) layout: String,
    pub(crate) field: String,
    pub(crate) node: String,
}

/// A key no layout reads that one would read with one field of another width: the trap of a
/// width changed without a migration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MixedWidthFlag {
    pub(crate) layout: String,
    /// The field, by path.
    pub(crate) field: String,
    /// Its width in the layout, and the digits the key has there.
    pub(crate) width: u32,
    pub(crate) seen: u32,
}

impl BrowseItem {
    /// What is wrong with the key, in a few words: an older version, a mixed width; none when
    /// nothing is (an unread key's error is beside it).
    pub(crate) fn flag(&self) -> Option<String> {
        if let Some(current) = &self.older_version_of {
            return Some(format!("older version of {current}"));
        }
        let m = self.mixed_width.as_ref()?;
        Some(format!("mixed width: {}.{} has {} digits, the layout {}", m.layout, m.field, m.seen, m.width))
    }
}

impl BrowseItem {
    /// The table the row belongs to: its layout and variant, or none.
    fn group(&self) -> Option<String> {
        if let Some(c) = &self.counter {
            return Some(format!("rank counters of {}.{}", c.layout, c.field));
        }
        let layout = self.layout.as_ref()?;
        Some(match &self.variant {
            Some(variant) => format!("{layout} {variant}"),
            None => layout.clone(),
        })
    }
}

/// Queries the partition and prints its items.
pub(crate) fn run(session: &Session, ask: &BrowseAsk) -> Result<Answer, AskError> {
    let (doc, _) =
        session.runtime.block_on(async { answer(&session.client().await, &session.context(), ask).await })?;
    Ok(if ask.group { Answer::of(Grouped(doc)) } else { Answer::of(doc) })
}

/// A partition's page printed as one table per layout (`--group`); its JSON is the page's.
#[derive(Serialize)]
#[serde(transparent)]
struct Grouped(BrowseDocument);

impl Document for Grouped {
    fn print_table(&self) {
        let doc = &self.0;
        outln!("{} `{}`: {} items", doc.table, shown(&doc.pk), doc.items.len());
        doc.print_groups();
        outln!("read {} items, {} read units", doc.read.items, doc.read.read_units);
    }
}

/// The answer to a browse ask, the command's and the page's: a page of the partition (of one
/// layout's versions, merged, when it names one), each key read by the lock's layouts; and the
/// read units it spent.
pub(crate) async fn answer(
    client: &Client,
    ctx: &Context<'_>,
    ask: &BrowseAsk,
) -> Result<(BrowseDocument, f64), AskError> {
    ask.validate(ctx)?;
    let target = Target {
        table: &ask.table,
        index: ask.index.as_deref(),
        pk: &ask.pk,
        after: ask.after.as_deref(),
        shard: ask.shard,
    };
    let read = match &ask.layout {
        Some(layout) => {
            let all = FieldCondition::new();
            query_versions(client, &target, ctx.lock, layout, &all, (ask.limit, ask.reverse)).await
        }
        None => partition(client, &target, ctx.lock, ask.limit, ask.reverse).await,
    };
    let (doc, units) = read?;
    Ok((BrowseDocument { command: ask.command_line(ctx).argv, ..doc }, units))
}

/// One page of the partition: at most `limit` items from the start (the end when `reverse`), or
/// after `target.after`, each read by the lock's sort key layouts; and the read units it spent.
pub(crate) async fn partition(
    client: &Client,
    target: &Target<'_>,
    lock: &LockFile,
    limit: usize,
    reverse: bool,
) -> Result<(BrowseDocument, f64), AskError> {
    let (one, shard, shards) = match sharded::resolve(client, lock, &target.place(), target.shard).await? {
        Partition::One { pk, shard, shards } => (pk, shard, shards),
        Partition::Merged(all, older) => {
            let expression = |pk_attr: &str, pk: &str, _: &str| KeyExpression::partition(pk_attr, pk);
            let place = (target.table, target.after);
            let read = sharded::read(client, place, (&all, &older), expression, (limit, !reverse)).await?;
            let units = read.read_units;
            return Ok((BrowseDocument::merged(target, lock, read, all.shards.count().get()), units));
        }
    };
    let target = &Target { pk: &one, ..*target };
    let expression = |pk: &str, _: &str| KeyExpression::partition(pk, target.pk);
    let read = query(client, target, expression, (limit, reverse), |_| true).await?;
    let mut doc = BrowseDocument::new(target, lock, &read.attribute, read.keys).in_shard(shard, shards);
    doc.read = ReadCost { items: read.items, read_units: read.read_units };
    Ok((doc, read.read_units))
}

/// The sort keys a Query read, the items DynamoDB returned, and the read units it spent.
pub(crate) struct Keys {
    /// The sort key attribute they were read from.
    pub(crate) attribute: String,
    pub(crate) keys: Vec<String>,
    pub(crate) items: u64,
    pub(crate) read_units: f64,
}

/// The partition a browse or a query reads.
pub(crate) struct Target<'a> {
    pub(crate) table: &'a str,
    pub(crate) index: Option<&'a str>,
    /// The partition key's value.
    pub(crate) pk: &'a str,
    /// The sort key to start after (a page's last), for the table's own key: none from the start.
    /// In a merged read of a sharded partition, the cursor `<shard>:<sort key>`.
    pub(crate) after: Option<&'a str>,
    /// One shard of a sharded partition (`--shard I`).
    pub(crate) shard: Option<u16>,
}

impl Target<'_> {
    /// Where the read is, as the sharded reads take it.
    fn place(&self) -> sharded::Place<'_> {
        sharded::Place { table: self.table, index: self.index, pk: self.pk }
    }
}

impl BrowseDocument {
    /// The document of `keys` of `target`'s partition, read from its sort key attribute
    /// `attribute` by the lock's layouts of it (those the lock records for the table's attribute,
    /// or every sort key layout).
    pub(crate) fn new(target: &Target<'_>, lock: &LockFile, attribute: &str, keys: Vec<String>) -> Self {
        let mut reader = Reader::new(lock, target.table, attribute);
        let items = keys.into_iter().map(|sk| reader.read(sk)).collect();
        BrowseDocument {
            format: BrowseFormat,
            table: target.table.to_owned(),
            index: target.index.map(str::to_owned),
            pk: target.pk.to_owned(),
            condition: None,
            items,
            versions: Vec::new(),
            outside: OutsideReport::default(),
            read: ReadCost::default(),
            command: Vec::new(),
            shards: None,
            next: None,
            merged: false,
        }
    }

    /// The document of a merged read of a sharded partition: `keys` with their shards, read as
    /// [`new`](Self::new) reads them.
    fn merged(target: &Target<'_>, lock: &LockFile, read: MergedKeys, shards: u16) -> Self {
        let (shard_of, keys): (Vec<u16>, Vec<String>) = read.keys.into_iter().unzip();
        let mut doc = BrowseDocument::new(target, lock, &read.attribute, keys);
        for (item, shard) in doc.items.iter_mut().zip(shard_of) {
            item.shard = Some(shard);
        }
        doc.read = ReadCost { items: read.items, read_units: read.read_units };
        doc.shards = Some(shards);
        doc.next = read.next.map(|c| c.to_string());
        doc.merged = true;
        doc
    }

    /// The command line of the next page of a merged read: this document's, starting after its
    /// cursor.
    fn next_command(&self) -> Option<CommandLine> {
        let next = self.next.as_ref()?;
        let mut argv = self.command.clone();
        match argv.iter().position(|a| a == "--after") {
            Some(at) if at + 1 < argv.len() => argv[at + 1] = next.clone(),
            _ => {
                let end = argv.iter().position(|a| a == "--").unwrap_or(argv.len());
                argv.splice(end..end, ["--after".to_owned(), next.clone()]);
            }
        }
        Some(CommandLine { argv })
    }

    /// Marks the document as one shard's (`shard` of `shards`), each item with it.
    fn in_shard(mut self, shard: Option<u16>, shards: Option<u16>) -> Self {
        for item in &mut self.items {
            item.shard = shard;
        }
        self.shards = shards;
        self
    }
}

/// The sort keys of the partition under the expression `expression(pk_attr, sk_attr)` gives, in
/// DynamoDB's order, until `limit` of them are ones `counts` (or the partition ends).
pub(crate) async fn query(
    client: &Client,
    target: &Target<'_>,
    expression: impl Fn(&str, &str) -> KeyExpression,
    (limit, reverse): (usize, bool),
    counts: impl Fn(&str) -> bool,
) -> Result<Keys, AskError> {
    let table = target.table;
    let (pk_attr, sk_attr) = key_names(client, table, target.index).await?;
    let sk_attr = sk_attr.ok_or_else(|| AskError::not_found(format!("table {table} has no sort key to browse")))?;
    let expression = expression(&pk_attr, &sk_attr);
    let (mut keys, mut counted, mut read_units, mut items) = (Vec::new(), 0, 0.0, 0u64);
    let mut start = match (target.after, target.index) {
        (Some(after), None) => Some(HashMap::from([
            (pk_attr.clone(), AttributeValue::S(target.pk.to_owned())),
            (sk_attr.clone(), AttributeValue::S(after.to_owned())),
        ])),
        (Some(_), Some(index)) => {
            return Err(AskError::bad(format!("--after starts a page of the table, not of the index {index}")));
        }
        (None, _) => None,
    };
    loop {
        let request = client
            .query()
            .table_name(table)
            .scan_index_forward(!reverse)
            .set_index_name(target.index.map(str::to_owned))
            .set_exclusive_start_key(start.take())
            // Pay for what is shown: at most one item more than are still needed (a key that does
            // not count may make another page necessary; an unbounded read takes DynamoDB's pages).
            .set_limit((limit != usize::MAX).then(|| i32::try_from(limit - counted + 1).unwrap_or(i32::MAX)))
            .return_consumed_capacity(ReturnConsumedCapacity::Total);
        let page = expression
            .apply_to_query(request)
            .send()
            .await
            .map_err(|e| AskError::request(format!("cannot query {table}"), &e))?;
        read_units += page.consumed_capacity().and_then(|c| c.capacity_units()).unwrap_or_default();
        items += page.items().len() as u64;
        for item in page.items() {
            if let Some(sk) = item.get(&sk_attr).and_then(|v| v.as_s().ok()) {
                counted += usize::from(counts(sk));
                keys.push(sk.clone());
            }
            if counted == limit {
                return Ok(Keys { attribute: sk_attr, keys, items, read_units });
            }
        }
        start = page.last_evaluated_key().cloned();
        if start.is_none() {
            return Ok(Keys { attribute: sk_attr, keys, items, read_units });
        }
    }
}

/// `condition` on the layout `layout` of the lock and each of its other live versions: one
/// Query per version that has keys the condition can select, each read until it gives `limit`
/// results (to its end when its keys sort otherwise than the current layout's), merged in the
/// current layout's order; the keys the queries returned that are no result are counted beside;
/// and the read units the Queries spent.
pub(crate) async fn query_versions(
    client: &Client,
    target: &Target<'_>,
    lock: &LockFile,
    layout: &str,
    condition: &FieldCondition,
    (limit, reverse): (usize, bool),
) -> Result<(BrowseDocument, f64), AskError> {
    let live = LiveLayouts::new(lock.live(layout));
    let conditions = live.conditions(condition)?;
    let (one, shard, shards) = match sharded::resolve(client, lock, &target.place(), target.shard).await? {
        Partition::One { pk, shard, shards } => (pk, shard, shards),
        Partition::Merged(all, older) => {
            let [Some(c)] = conditions.as_slice() else {
                return Err(AskError::bad(format!(
                    "{layout} has older versions: a sharded partition is read merged in one version; name one \
                     shard with --shard I to read its versions"
                )));
            };
            let expression = |pk_attr: &str, pk: &str, sk_attr: &str| c.with_partition_key(pk_attr, pk, sk_attr);
            let place = (target.table, target.after);
            let read = sharded::read(client, place, (&all, &older), expression, (limit, !reverse)).await?;
            let units = read.read_units;
            let mut doc = BrowseDocument::merged(target, lock, read, all.shards.count().get());
            doc.condition = Some(c.to_string());
            let read = doc.read.items;
            doc.versions = vec![VersionCount { layout: layout.to_owned(), items: doc.items.len() as u64, read }];
            return Ok((doc, units));
        }
    };
    let target = &Target { pk: &one, ..*target };
    let read = match target.index {
        None => table_versions(client, target, &live, layout, &conditions, (limit, reverse)).await?,
        Some(index) => index_versions(client, target, index, &live, &conditions, (limit, reverse)).await?,
    };
    let read_units = read.cost.read_units;
    let doc = versions_document(target, &live, &conditions, read);
    Ok((doc.in_shard(shard, shards), read_units))
}

/// A read across a layout's versions: the results (their items left out), the items each
/// version's Query returned, what the read cost, and where the next page starts.
struct VersionsRead {
    merged: LiveResults<()>,
    read_per_version: Vec<u64>,
    cost: ReadCost,
    next: Option<String>,
}

/// The table's own key: paged by sortkey-core's VersionsQuery, each version's Query started
/// after the cursor as its own layout writes it.
async fn table_versions(
    client: &Client,
    target: &Target<'_>,
    live: &LiveLayouts<'_>,
    layout: &str,
    conditions: &[Option<sortkey_core::KeyCondition>],
    (limit, reverse): (usize, bool),
) -> Result<VersionsRead, AskError> {
    let (pk_attr, sk_attr) = key_names(client, target.table, None).await?;
    let sk_attr =
        sk_attr.ok_or_else(|| AskError::not_found(format!("table {} has no sort key to browse", target.table)))?;
    let cursor = target.after.map(|after| current_key(live, layout, after)).transpose()?;
    let query = VersionsQuery {
        table: target.table,
        partition: target.pk,
        partition_attribute: &pk_attr,
        sort_attribute: &sk_attr,
        forward: !reverse,
        limit,
    };
    let page = query.run(client, live, conditions, cursor.as_deref()).await?;
    Ok(VersionsRead {
        merged: keys_only(page.results),
        read_per_version: page.read_per_version,
        cost: ReadCost { items: page.read as u64, read_units: page.read_units },
        next: page.next,
    })
}

/// An index: its first page, by sortkey-core's IndexVersionsQuery (an index key is not unique:
/// items that share one are each a result, ordered by their primary key).
async fn index_versions(
    client: &Client,
    target: &Target<'_>,
    index: &str,
    live: &LiveLayouts<'_>,
    conditions: &[Option<sortkey_core::KeyCondition>],
    (limit, reverse): (usize, bool),
) -> Result<VersionsRead, AskError> {
    let (pk_attr, sk_attr) = key_names(client, target.table, Some(index)).await?;
    let sk_attr = sk_attr
        .ok_or_else(|| AskError::not_found(format!("index {index} of table {} has no sort key", target.table)))?;
    let (table_pk, table_sk) = key_names(client, target.table, None).await?;
    let query = IndexVersionsQuery {
        table: target.table,
        index,
        partition: target.pk,
        partition_attribute: &pk_attr,
        sort_attribute: &sk_attr,
        table_keys: (&table_pk, table_sk.as_deref()),
        forward: !reverse,
        limit,
    };
    let page = query.run(client, live, conditions, None).await?;
    Ok(VersionsRead {
        merged: keys_only(page.results),
        read_per_version: page.read_per_version,
        cost: ReadCost { items: page.read as u64, read_units: page.read_units },
        next: None,
    })
}

/// The results without their items: the document shows each key's fields.
fn keys_only<V>(results: LiveResults<V>) -> LiveResults<()> {
    LiveResults {
        results: (results.results.into_iter())
            .map(|r| LiveKey { key: r.key, version: r.version, value: r.value, current_key: r.current_key, item: () })
            .collect(),
        outside: results.outside,
        per_version: results.per_version,
    }
}

/// The document of a read across `live`'s versions of the partition `target`.
fn versions_document(
    target: &Target<'_>,
    live: &LiveLayouts<'_>,
    conditions: &[Option<sortkey_core::KeyCondition>],
    read: VersionsRead,
) -> BrowseDocument {
    let VersionsRead { merged, read_per_version, cost, next } = read;
    let names: Vec<&str> = live.layouts().iter().map(|(n, _)| *n).collect();
    let items = merged
        .results
        .iter()
        .map(|r| {
            let older_of = (r.version > 0).then(|| names[0]);
            item(names[r.version], older_of, r.key.clone(), &r.value)
        })
        .collect();
    // The results shown, per version (those read beyond the limit are not counted).
    let versions = names
        .iter()
        .enumerate()
        .map(|(v, name)| VersionCount {
            layout: (*name).to_owned(),
            items: merged.per_version.get(v).copied().unwrap_or_default(),
            read: read_per_version.get(v).copied().unwrap_or_default(),
        })
        .collect();
    let mut outside = merged.outside;
    let keys = outside.len() as u64;
    outside.truncate(OUTSIDE_SAMPLES);
    BrowseDocument {
        format: BrowseFormat,
        table: target.table.to_owned(),
        index: target.index.map(str::to_owned),
        pk: target.pk.to_owned(),
        condition: conditions.first().and_then(|c| c.as_ref()).map(ToString::to_string),
        items,
        versions,
        outside: OutsideReport { keys, samples: outside },
        read: cost,
        command: Vec::new(),
        shards: None,
        next,
        merged: false,
    }
}

/// `--after` of a read across `layout`'s versions as the current layout's key (what the pages'
/// `next` gives): a key of an older version is read by it and written in the current layout.
fn current_key(live: &LiveLayouts<'_>, layout: &str, after: &str) -> Result<String, AskError> {
    let read = live.layouts().iter().enumerate().find_map(|(v, (_, l))| l.decode(after).ok().map(|value| (v, value)));
    match read {
        Some((0, _)) => Ok(after.to_owned()),
        Some((_, value)) => live.layouts()[0].1.encode(&value).map_err(|e| {
            AskError::bad(format!("--after {after:?}: its value has no key in the current layout of {layout}: {e}"))
        }),
        None => Err(AskError::bad(format!("--after {after:?}: no live version of {layout} reads it"))),
    }
}

/// A key read by the layout `layout` (an older version of `older_of`) as `value`.
fn item(layout: &str, older_of: Option<&str>, sk: String, value: &DynValue) -> BrowseItem {
    let mut fields = Map::new();
    let mut variants = Vec::new();
    flatten(value, "", &mut fields, &mut variants);
    let variant = (!variants.is_empty()).then(|| variants.join(" "));
    BrowseItem {
        sk,
        layout: Some(layout.to_owned()),
        variant,
        fields,
        error: None,
        older_version_of: older_of.map(str::to_owned),
        mixed_width: None,
        shard: None,
        counter: None,
    }
}

/// The lock's sort key layouts, reading a partition's keys one by one.
struct Reader<'l> {
    lock: &'l LockFile,
    layouts: Vec<&'l DynLayout>,
    names: Vec<&'l str>,
    /// The same layouts as an audit, which tells a key of a mixed width.
    audit: KeyAudit,
    /// The lock's ranked layouts, whose counter items the partition may hold.
    ranked: Vec<(String, RankedField)>,
}

impl<'l> Reader<'l> {
    /// The layouts of the attribute `attribute` of `table` the lock records, or every sort key
    /// layout of a lock that says nothing of the table.
    fn new(lock: &'l LockFile, table: &str, attribute: &str) -> Self {
        let layouts = lock.layouts_reading(Some(table), attribute, KeyRole::Sort);
        Reader {
            lock,
            layouts: layouts.iter().map(|(_, l)| *l).collect(),
            names: layouts.iter().map(|(n, _)| *n).collect(),
            audit: KeyAudit::new(layouts.iter().map(|(n, l)| ((*n).to_owned(), (*l).clone()))),
            ranked: lock.ranks.iter().filter_map(|r| Some((r.layout.clone(), lock.ranked(&r.layout)?))).collect(),
        }
    }

    /// `sk` read by the first layout that reads it, flagged as the audit would.
    fn read(&mut self, sk: String) -> BrowseItem {
        let counter = self.ranked.iter().find_map(|(layout, r)| {
            let node = r.node_of(&sk)?;
            Some(CounterItem { layout: layout.clone(), field: r.field().to_owned(), node: node.to_owned() })
        });
        if let Some(counter) = counter {
            let (fields, error, older_version_of, mixed_width) = (Map::new(), None, None, None);
            let (layout, variant, shard, counter) = (None, None, None, Some(counter));
            return BrowseItem { sk, layout, variant, fields, error, older_version_of, mixed_width, shard, counter };
        }
        match read_furthest(self.layouts.iter().copied(), &sk) {
            Ok((i, value)) => {
                let name = self.names[i];
                let older_of = self.lock.versions_of(name).map(|v| v.current.as_str()).filter(|c| *c != name);
                item(name, older_of, sk, &value)
            }
            Err(furthest) => {
                let error =
                    furthest.map_or_else(|| "no sort key layout in the lock".to_owned(), |(_, e)| e.to_string());
                let mixed_width = self.audit.width_mismatch(&sk).map(|m| MixedWidthFlag {
                    layout: self.names[m.layout].to_owned(),
                    field: m.field,
                    width: m.width,
                    seen: m.seen,
                });
                BrowseItem {
                    sk,
                    layout: None,
                    variant: None,
                    fields: Map::new(),
                    error: Some(error),
                    older_version_of: None,
                    mixed_width,
                    shard: None,
                    counter: None,
                }
            }
        }
    }
}

/// The fields of `value` by path into `out`, and the names of the family variants it is in.
fn flatten(value: &DynValue, path: &str, out: &mut Map<String, Value>, variants: &mut Vec<String>) {
    let join = |name: &str| if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") };
    match value {
        DynValue::Key(fields) => {
            for (name, field) in fields {
                match field {
                    DynValue::Key(_) => flatten(field, &join(name), out, variants),
                    _ => {
                        out.insert(join(name), serde_json::to_value(field).unwrap_or_default());
                    }
                }
            }
        }
        DynValue::Variant(name, inner) => {
            variants.push(name.clone());
            if let Some(inner) = inner {
                flatten(inner, path, out, variants);
            }
        }
        other => {
            out.insert(path.to_owned(), serde_json::to_value(other).unwrap_or_default());
        }
    }
}

/// A value in a cell: text as it is, anything else as JSON.
fn cell(value: &Value) -> String {
    shown(&text(value)).into_owned()
}

/// A value as text: a string as it is, anything else as JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Document for BrowseDocument {
    fn print_table(&self) {
        outln!("{} `{}`: {} items", self.table, shown(&self.pk), self.items.len());
        if self.versions.is_empty() {
            self.print_rows();
        } else {
            self.print_versions();
        }
        if let Some(shards) = self.shards {
            let how =
                if self.merged { format!("merged over {shards} shards") } else { format!("one of {shards} shards") };
            outln!("sharded partition: {how}");
        }
        outln!("read {} items, {} read units", self.read.items, self.read.read_units);
        if let Some(next) = self.next_command() {
            outln!("next page: {next}");
        }
    }
}

impl BrowseDocument {
    /// The items of a query across a layout's versions: one table in the current layout's order,
    /// the version each key is in beside it; then the counts and the keys that are no result.
    fn print_versions(&self) {
        let mut header: Vec<&str> =
            self.items.first().map(|i| i.fields.keys().map(String::as_str).collect()).unwrap_or_default();
        header.extend(["version", "sk"]);
        if self.shards.is_some() {
            header.push("shard");
        }
        let mut t = output::table(&header);
        for item in &self.items {
            let mut cells: Vec<String> = item.fields.values().map(cell).collect();
            cells.push(shown(item.layout.as_deref().unwrap_or_default()).into_owned());
            cells.push(shown(&item.sk).into_owned());
            cells.extend(self.shards.map(|_| item.shard.map(|s| s.to_string()).unwrap_or_default()));
            t.add_row(cells);
        }
        outln!("{t}");
        let counts: Vec<String> =
            self.versions.iter().map(|v| format!("{} {} (read {})", v.layout, v.items, v.read)).collect();
        outln!("items per version: {}", counts.join(", "));
        if self.outside.keys > 0 {
            outln!(
                "{} the queries returned {} no result:",
                output::counted(self.outside.keys, "key"),
                match self.outside.keys {
                    1 => "is",
                    _ => "are",
                }
            );
            let mut t = output::table(&["not a result", "read by", "why"]);
            for o in &self.outside.samples {
                let layout = o.layout.clone().unwrap_or_default();
                t.add_row([shown(&o.key).into_owned(), layout, sanitized(&o.reason).into_owned()]);
            }
            outln!("{t}");
        }
    }

    /// A partition's items in its order, one table: each key's layout (and variant), its fields,
    /// and what is wrong with it (an older version, a mixed width, no layout reading it).
    fn print_rows(&self) {
        let header: &[&str] = match self.shards {
            Some(_) => &["sk", "shard", "layout", "fields", "flag"],
            None => &["sk", "layout", "fields", "flag"],
        };
        let mut t = output::table(header);
        for row in self.rows() {
            let mut cells = vec![shown(&row.sk).into_owned()];
            cells.extend(self.shards.map(|_| row.shard.clone()));
            cells.extend([shown(&row.layout).into_owned(), row.fields, row.flag]);
            t.add_row(cells);
        }
        outln!("{t}");
    }

    /// The items as one table's rows, in the document's order.
    pub(crate) fn rows(&self) -> Vec<Row> {
        self.items
            .iter()
            .map(|item| {
                let layout = item.group().unwrap_or_else(|| "no layout reads".to_owned());
                let mut fields: Vec<String> =
                    item.fields.iter().map(|(k, v)| format!("{k}={}", shown(&text(v)))).collect();
                fields.extend(item.counter.as_ref().map(|c| format!("node={}", c.node)));
                let flag = match (&item.error, item.flag()) {
                    (_, Some(flag)) => flag,
                    (Some(e), None) => sanitized(e).into_owned(),
                    (None, None) => String::new(),
                };
                let shard = item.shard.map(|s| s.to_string()).unwrap_or_default();
                Row {
                    sk: item.sk.clone(),
                    shard,
                    layout,
                    fields: fields.join(" "),
                    flag,
                    flagged: item.flag().is_some(),
                }
            })
            .collect()
    }

    /// A partition's items, one table per layout (a family's variants each apart), in the order
    /// each first appears, rows in DynamoDB's order.
    pub(crate) fn print_groups(&self) {
        for group in self.groups() {
            let flagged = group.flagged();
            let flag = |row: &GroupRow| row.flag.clone().unwrap_or_default();
            let Some(title) = &group.title else {
                let header: &[&str] =
                    if flagged { &["no layout reads", "error", "flag"] } else { &["no layout reads", "error"] };
                let mut t = output::table(header);
                for row in &group.rows {
                    let error = sanitized(row.error.as_deref().unwrap_or_default()).into_owned();
                    let mut cells = vec![shown(&row.sk).into_owned(), error];
                    cells.extend(flagged.then(|| flag(row)));
                    t.add_row(cells);
                }
                outln!("{t}");
                continue;
            };
            let mut header: Vec<&str> = group.columns.iter().map(String::as_str).collect();
            header.push("sk");
            header.extend(flagged.then_some("flag"));
            let mut t = output::table(&header);
            for row in &group.rows {
                let mut cells: Vec<String> = row.cells.iter().map(|c| shown(c).into_owned()).collect();
                cells.push(shown(&row.sk).into_owned());
                cells.extend(flagged.then(|| flag(row)));
                t.add_row(cells);
            }
            outln!("{title}");
            outln!("{t}");
        }
    }

    /// The items by group (a layout, a family's variant, or none), in the order each group first
    /// appears, rows in the items' order: what the table and the page show.
    pub(crate) fn groups(&self) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for item in &self.items {
            let title = item.group();
            let at = match groups.iter().position(|g| g.title == title) {
                Some(at) => at,
                None => {
                    let mut columns: Vec<String> = item.fields.keys().cloned().collect();
                    columns.extend(item.counter.as_ref().map(|_| "node".to_owned()));
                    groups.push(Group { title, columns, rows: Vec::new() });
                    groups.len() - 1
                }
            };
            let mut cells: Vec<String> = item.fields.values().map(text).collect();
            cells.extend(item.counter.as_ref().map(|c| c.node.clone()));
            let (sk, error, flag) = (item.sk.clone(), item.error.clone(), item.flag());
            groups[at].rows.push(GroupRow { cells, sk, error, flag });
        }
        groups
    }
}

/// One key of a partition in one table: the key, its layout and variant, its fields as
/// `name=value`, and its flag (or, read by no layout, the error).
pub(crate) struct Row {
    pub(crate) sk: String,
    /// Its shard, in a sharded partition; empty otherwise.
    pub(crate) shard: String,
    pub(crate) layout: String,
    pub(crate) fields: String,
    pub(crate) flag: String,
    /// Whether the flag says something is wrong with a key a layout reads.
    #[cfg_attr(not(feature = "serve"), allow(dead_code, reason = "the web view's browse page reads it"))]
    pub(crate) flagged: bool,
}

/// The items of one layout (or none) of a browse.
pub(crate) struct Group {
    /// The layout and variant; `None` for the keys no layout reads.
    pub(crate) title: Option<String>,
    /// The fields, by path.
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<GroupRow>,
}

/// One key of a group: its fields as text, the key, the error when no layout reads it, and what
/// is wrong with it.
pub(crate) struct GroupRow {
    pub(crate) cells: Vec<String>,
    pub(crate) sk: String,
    pub(crate) error: Option<String>,
    pub(crate) flag: Option<String>,
}

impl Group {
    /// Whether a row of the group has a flag (the table then has a column of them).
    pub(crate) fn flagged(&self) -> bool {
        self.rows.iter().any(|r| r.flag.is_some())
    }
}
