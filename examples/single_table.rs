//! Single-table design: a customer's profile, orders (newest first), yearly order totals and
//! addresses in one DynamoDB partition, each entity with its own sort-key layout, read back
//! typed through one key family.
//!
//! Run with `cargo run --example single_table`. With the `dynamodb` feature and
//! `-- --endpoint URL [--table NAME]` the items are stored in and queried from a DynamoDB
//! endpoint instead; `SORTKEY_EXAMPLE=single_table bash examples/leaderboard-moto.sh` does all
//! of it against a local moto server, and the `aws` feature with `-- --aws` against a real
//! account.

#[cfg(feature = "dynamodb")]
use aws_sdk_dynamodb::types::AttributeValue;
use sortkey_core::{ItemKey, KeyNames, PartitionQuery, SortKey};
use sortkey_examples::{MemTable, Order, Query, Target, TextTable};

/// The partition of one customer: `CUST#000042`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 6)]
    customer_id: u32,
}

/// An order: newest first (`desc`), the order id as the tiebreaker.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 10, desc)]
    placed_at: u64,
    order_id: String,
}

/// The order totals of one year. Its prefix `ORDERS` begins with `ORDER`: a hand-written
/// `begins_with(sk, "ORDER")` returns these too; the family's query of orders does not.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDERS")]
struct TotalsKey {
    #[key(width = 4)]
    year: u16,
}

/// A delivery address, by its label.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
struct AddressKey {
    label: String,
}

/// Everything under one customer's partition, decoded by its leading prefix. The derive checks
/// at compile time that no variant's keys can begin with another's prefix and separator.
#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Totals(TotalsKey),
    Address(AddressKey),
}

/// The table's key attributes, named once.
const KEYS: KeyNames = KeyNames::DEFAULT;

type CustomerKey = ItemKey<CustomerPk, CustomerItem>;

/// One page of a query: the typed keys with their `detail` attribute, and where the next page
/// starts.
type Page = (Vec<(CustomerKey, String)>, Option<CustomerKey>);

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// 2024-06-23, 2024-11-02, 2025-01-15, 2025-03-08 and 2025-07-30, 00:00 UTC.
const ORDERS: [(u64, &str, &str); 5] = [
    (1719100800, "o-1001", "kettle, 24.50"),
    (1730505600, "o-1002", "lamp, 10.00"),
    (1736899200, "o-1003", "desk, 10250.00"),
    (1741392000, "o-1004", "mug, 9.50"),
    (1753833600, "o-1005", "chair, 149.00"),
];

fn main() -> Result<()> {
    let mut table = Table::from_args()?;
    println!("Store: {}", table.describe());
    let me = CustomerPk { customer_id: 42 };
    write_customer(&mut table, &me)?;
    write_customer(&mut table, &CustomerPk { customer_id: 43 })?;

    heading("1. By hand: begins_with(sk, \"ORDER\")");
    let by_hand = table.all(&KEYS.query(&me)?, Order::Ascending)?;
    let mut out = TextTable::new(["sort key", "detail"]);
    for (key, detail) in by_hand.iter().filter(|(k, _)| k.sort.encode().is_ok_and(|sk| sk.starts_with("ORDER"))) {
        out.row([key.sort.to_string(), detail.clone()]);
    }
    print!("{out}");
    println!("\nThe yearly totals (ORDERS#...) came back with the orders: their prefix begins with ORDER.");

    let orders = CustomerItem::query().order().begins_with()?;
    show(&table, "2. The orders, newest first", KEYS.query(&me)?.sort(orders.clone()), Order::Ascending)?;
    println!("\nThe family's order query is begins_with(sk, \"ORDER#\"): the separator keeps ORDERS out.");

    heading("3. The orders, two per page, each page resumed from a typed cursor");
    let query = KEYS.query(&me)?.sort(orders);
    let mut start = None;
    for n in 1.. {
        let (items, next) = table.page(&query, Order::Ascending, 2, start.as_ref())?;
        let ids: Vec<String> = items.iter().map(|(k, _)| order_id(&k.sort)).collect();
        let cursor = match &next {
            Some(k) => format!("LastEvaluatedKey {} / {}", k.partition, k.sort),
            None => "no LastEvaluatedKey: the last page".into(),
        };
        println!("page {n}: {:<16} {cursor}", ids.join(", "));
        match next {
            Some(k) => start = Some(k),
            None => break,
        }
    }

    let (from, to) = (1730419200, 1741478400); // 2024-11-01 to 2025-03-09
    let in_range = CustomerItem::query().order().placed_at_between(from, to)?;
    show(&table, "4. Orders placed from 2024-11-01 to 2025-03-09", KEYS.query(&me)?.sort(in_range), Order::Ascending)?;

    let addresses = CustomerItem::query().address().begins_with()?;
    show(&table, "5. The addresses", KEYS.query(&me)?.sort(addresses), Order::Ascending)?;

    let everything = KEYS.query(&me)?;
    show(&table, "6. The whole partition, one Query, decoded by prefix", everything, Order::Ascending)?;

    heading("7. The profile by its item key (GetItem)");
    let profile = ItemKey::new(me.clone(), CustomerItem::Profile);
    let (pk, sk) = profile.encode()?;
    println!("Key {{ pk: {pk}, sk: {sk} }} -> {}", table.get(&profile)?.unwrap_or_else(|| "(none)".into()));

    heading("8. What the family refuses");
    println!("{}", CustomerItem::decode("CART#1").unwrap_err());
    println!("{}", CustomerItem::decode("ORDER#17191008#o-1001").unwrap_err());
    Ok(())
}

fn heading(title: &str) {
    println!("\n== {title} ==\n");
}

/// The profile, orders, yearly totals and addresses of `customer`.
fn write_customer(table: &mut Table, customer: &CustomerPk) -> Result<()> {
    let mut items = vec![(CustomerItem::Profile, format!("customer {}, since 2024", customer.customer_id))];
    for (placed_at, id, what) in ORDERS {
        items.push((CustomerItem::Order(OrderKey { placed_at, order_id: id.into() }), what.into()));
    }
    items.push((CustomerItem::Totals(TotalsKey { year: 2024 }), "2 orders, 34.50".into()));
    items.push((CustomerItem::Totals(TotalsKey { year: 2025 }), "3 orders, 10408.50".into()));
    for (label, at) in [("home", "Rue de la Paix 1, Paris"), ("work", "Main St 5, Springfield")] {
        items.push((CustomerItem::Address(AddressKey { label: label.into() }), at.into()));
    }
    for (sort, detail) in items {
        table.put(&ItemKey::new(customer.clone(), sort), &detail)?;
    }
    Ok(())
}

/// Prints every item `query` returns, with its variant and its decoded fields.
fn show(table: &Table, title: &str, query: PartitionQuery<CustomerPk, CustomerItem>, order: Order) -> Result<()> {
    heading(title);
    println!("{}\n", query.expression().expression);
    let mut out = TextTable::new(["sort key", "entity", "fields", "detail"]);
    for (key, detail) in table.all(&query, order)? {
        let (entity, fields) = match &key.sort {
            CustomerItem::Profile => ("profile", String::new()),
            CustomerItem::Order(o) => ("order", format!("placed_at {}, order_id {}", o.placed_at, o.order_id)),
            CustomerItem::Totals(t) => ("totals", format!("year {}", t.year)),
            CustomerItem::Address(a) => ("address", format!("label {}", a.label)),
        };
        out.row([key.sort.to_string(), entity.into(), fields, detail]);
    }
    print!("{out}");
    Ok(())
}

fn order_id(item: &CustomerItem) -> String {
    match item {
        CustomerItem::Order(o) => o.order_id.clone(),
        other => format!("{other:?}"),
    }
}

/// The `detail` attribute of a DynamoDB item.
#[cfg(feature = "dynamodb")]
fn detail(item: &sortkey_core::dynamodb::Attributes) -> Result<String> {
    match item.get("detail") {
        Some(AttributeValue::S(s)) => Ok(s.clone()),
        other => Err(format!("expected the attribute `detail` as a string (S), found {other:?}").into()),
    }
}

/// Where the items are: the embedded byte-ordered table, or a DynamoDB table.
enum Table {
    Memory(MemTable<String>),
    #[cfg(feature = "dynamodb")]
    Dynamo(sortkey_examples::Remote, String),
}

impl Table {
    fn from_args() -> Result<Table> {
        match Target::from_args("single_table")? {
            Target::Embedded => Ok(Table::Memory(MemTable::new())),
            #[cfg(feature = "dynamodb")]
            target => Ok(Table::Dynamo(sortkey_examples::Remote::connect(&target)?, target.to_string())),
            #[cfg(not(feature = "dynamodb"))]
            target => Err(format!("{target} needs the `dynamodb` feature").into()),
        }
    }

    fn describe(&self) -> String {
        match self {
            Table::Memory(_) => Target::Embedded.to_string(),
            #[cfg(feature = "dynamodb")]
            Table::Dynamo(_, described) => described.clone(),
        }
    }

    /// Writes the item `key` with its `detail`; nothing is written when a key does not encode.
    fn put(&mut self, key: &CustomerKey, detail: &str) -> Result<()> {
        match self {
            Table::Memory(t) => {
                let (pk, sk) = key.encode()?;
                t.put(pk, sk, detail.to_owned());
            }
            #[cfg(feature = "dynamodb")]
            Table::Dynamo(r, _) => {
                let mut item = key.to_attributes(KEYS)?;
                item.insert("detail".into(), AttributeValue::S(detail.into()));
                r.block_on(r.client.put_item().table_name(&r.table).set_item(Some(item)).send())?;
            }
        }
        Ok(())
    }

    /// The `detail` of the item `key` (GetItem).
    fn get(&self, key: &CustomerKey) -> Result<Option<String>> {
        match self {
            Table::Memory(t) => {
                let (pk, sk) = key.encode()?;
                Ok(t.get(&pk, &sk).cloned())
            }
            #[cfg(feature = "dynamodb")]
            Table::Dynamo(r, _) => {
                let get = r.client.get_item().table_name(&r.table).set_key(Some(key.to_attributes(KEYS)?));
                let out = r.block_on(get.send())?;
                out.item().map(detail).transpose()
            }
        }
    }

    /// One page of `query`: at most `limit` items after `start`, and where the next page starts.
    fn page(
        &self,
        query: &PartitionQuery<CustomerPk, CustomerItem>,
        order: Order,
        limit: usize,
        start: Option<&CustomerKey>,
    ) -> Result<Page> {
        match self {
            Table::Memory(t) => {
                let start = start.map(|k| k.sort.encode()).transpose()?;
                let q = Query { order, limit: Some(limit) };
                let (items, next) =
                    t.page(query.partition(), q, start.as_deref(), |sk| query.matches(query.partition(), sk));
                // The embedded table holds strings; decode them as a Query's reader would.
                let pk = CustomerPk::decode(query.partition())?;
                let key = |sk: &str| {
                    Ok::<_, sortkey_core::DecodeError>(CustomerKey::new(pk.clone(), CustomerItem::decode(sk)?))
                };
                let items = items.into_iter().map(|(sk, d)| Ok((key(sk)?, d.clone()))).collect::<Result<_>>()?;
                let next = next.map(|sk| key(&sk)).transpose()?;
                Ok((items, next))
            }
            #[cfg(feature = "dynamodb")]
            Table::Dynamo(r, _) => {
                let q = r
                    .client
                    .query()
                    .table_name(&r.table)
                    .scan_index_forward(order == Order::Ascending)
                    .limit(limit as i32);
                let page = r.block_on(query.apply_to_query(q, start)?.send())?;
                let keys = query.keys(&page)?;
                let details = page.items().iter().map(detail).collect::<Result<Vec<_>>>()?;
                Ok((keys.into_iter().zip(details).collect(), query.next_start(&page)?))
            }
        }
    }

    /// Every item `query` returns, page after page.
    fn all(
        &self,
        query: &PartitionQuery<CustomerPk, CustomerItem>,
        order: Order,
    ) -> Result<Vec<(CustomerKey, String)>> {
        let (mut items, mut start) = (Vec::new(), None);
        loop {
            let (page, next) = self.page(query, order, 100, start.as_ref())?;
            items.extend(page);
            match next {
                Some(k) => start = Some(k),
                None => return Ok(items),
            }
        }
    }
}
