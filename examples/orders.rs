//! Orders as an entity: the domain struct declares its primary key (the customer's partition,
//! newest order first) and two global secondary indexes, `gsi1` by status and the sparse `gsi2`
//! of orders with a coupon. Every key attribute comes from the order itself, so a status change
//! or a removed coupon can never leave a stale index key.
//!
//! Shows `#[derive(Entity)]` with `#[derive(KeySegment)]` on a status enum, a descending
//! `SystemTime` in milliseconds, a sparse index, typed index queries, the update of every index
//! key, and the table definition.
//!
//! Run with `cargo run --example orders`. With the `dynamodb` feature and `-- --endpoint URL
//! [--table NAME]` the orders are stored in and queried from a DynamoDB table created from the
//! entity's definition; `SORTKEY_EXAMPLE=orders bash examples/leaderboard-moto.sh` does all of it
//! against a local moto server.

use std::time::{Duration, SystemTime};

#[cfg(feature = "dynamodb")]
use sortkey_core::dynamodb::{EntityItem, PutMode};
use sortkey_core::{Entity, KeySegment, SortKey, TableDefinition};
use sortkey_examples::{EntityTable, Order as Direction, Target, TextTable};

/// "Now", fixed so that the output is the same on every run: 2024-06-23T00:00:00Z.
const NOW_UNIX_SECS: u64 = 1_719_100_800;

/// Where an order is. Keys sort by the byte order of these names, not by declaration order.
#[derive(KeySegment, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "dynamodb", derive(serde::Serialize, serde::Deserialize))]
#[key(rename_all = "kebab-case")]
enum Status {
    Pending,
    ShipPending,
    Shipped,
    Cancelled,
}

/// An order as the shop records it, and where it is stored.
#[derive(Entity, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "dynamodb", derive(serde::Serialize, serde::Deserialize))]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", placed_at(unit = "ms", desc), order_no(width = 8)),
    index(
        by_status(name = "gsi1", pk(prefix = "STATUS", status), sk(placed_at(unit = "ms", desc), order_no(width = 8))),
        by_coupon(name = "gsi2", pk(prefix = "COUPON", coupon), sk(placed_at(unit = "ms"), order_no(width = 8))),
    )
)]
struct Order {
    customer_id: String,
    order_no: u32,
    status: Status,
    placed_at: SystemTime,
    coupon: Option<String>,
    total_cents: u64,
}

/// `(customer, order, status, days ago, coupon, total in cents)`.
type Row = (&'static str, u32, Status, u64, Option<&'static str>, u64);

const ORDERS: [Row; 9] = [
    ("c_1042", 1001, Status::Shipped, 45, None, 2599),
    ("c_1042", 1002, Status::Shipped, 29, Some("SUMMER"), 1250),
    ("c_1042", 1003, Status::Cancelled, 20, None, 800),
    ("c_1042", 1004, Status::Shipped, 12, None, 4999),
    ("c_1042", 1005, Status::ShipPending, 3, None, 1999),
    ("c_7", 1006, Status::Shipped, 2, Some("SUMMER"), 350),
    ("c_1042", 1007, Status::Pending, 0, Some("WELCOME"), 7200),
    ("c_7", 1008, Status::Shipped, 31, None, 990),
    ("c_7", 1009, Status::ShipPending, 1, Some("SUMMER"), 4100),
];

fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(NOW_UNIX_SECS)
}

fn days(n: u64) -> Duration {
    Duration::from_secs(n * 86_400)
}

fn orders() -> Vec<Order> {
    ORDERS
        .iter()
        .map(|&(customer, order_no, status, days_ago, coupon, total_cents)| Order {
            customer_id: customer.into(),
            order_no,
            status,
            // At noon, `days_ago` days before now.
            placed_at: now() - days(days_ago) + Duration::from_secs(12 * 3600),
            coupon: coupon.map(str::to_owned),
            total_cents,
        })
        .collect()
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn main() -> Result<()> {
    let mut shop = Shop::from_args()?;
    println!("Store: {}", shop.describe());
    for order in orders() {
        shop.put(&order)?;
    }

    heading("1. One order's key attributes, primary and both indexes");
    let order = &orders()[1];
    let mut out = TextTable::new(["attribute", "value"]);
    for (name, value) in order.key_attributes()?.present() {
        out.row([(*name).to_owned(), value.as_str().to_owned()]);
    }
    print!("{out}");
    let plain = &orders()[0];
    println!("\nOrder 1001 has no coupon, so it has no gsi2 attributes at all: {:?}", plain.key_attributes()?.absent());

    let newest = sortkey_core::KeyNames::DEFAULT
        .query(&OrderPk { customer_id: "c_1042".into() })?
        .sort(OrderSk::query().begins_with()?);
    show("2. Customer c_1042, newest order first (the table)", shop.query(&newest)?)?;

    let since = now() - days(30);
    let shipped = Order::by_status(&OrderByStatusPk { status: Status::Shipped })?
        .sort(OrderByStatusSk::query().placed_at_range().gte(since)?);
    println!("\n{}", shipped.expression().expression);
    show("3. Shipped in the last 30 days, every customer, newest first (gsi1)", shop.query_index(&shipped)?)?;

    let summer = Order::by_coupon(&OrderByCouponPk { coupon: "SUMMER".into() })?;
    show("4. Orders with the coupon SUMMER, oldest first (gsi2, sparse)", shop.query_index(&summer)?)?;

    heading("5. Ship order 1005 and take the coupon off 1009: one update each");
    let mut shipped_now = orders()[4].clone();
    shipped_now.status = Status::Shipped;
    let mut uncouponed = orders()[8].clone();
    uncouponed.coupon = None;
    for o in [&shipped_now, &uncouponed] {
        let update = o.key_attributes()?.update(Order::KEYS);
        println!("order {}: UpdateExpression {}", o.order_no, update.expression_with(&["#status = :status"], &[]));
        for (placeholder, name) in &update.names {
            println!("    {placeholder} = {name}");
        }
        shop.update(o)?;
    }
    show("Shipped in the last 30 days, after the update (gsi1)", shop.query_index(&shipped)?)?;
    show("SUMMER, after the update (gsi2)", shop.query_index(&summer)?)?;

    heading("6. The table definition the entity gives");
    let def = TableDefinition::of::<Order>("orders");
    println!("attributes {:?}", def.attributes());
    for index in def.indexes() {
        println!("index {}: keys {}, projection {:?}", index.names.name(), index.names.keys(), index.projection);
    }

    heading("7. What the keys refuse");
    let before_1970 = Order { placed_at: SystemTime::UNIX_EPOCH - days(1), ..orders()[0].clone() };
    println!("{}", before_1970.key_attributes().unwrap_err());
    let too_wide = Order { order_no: 123_456_789, ..orders()[0].clone() };
    println!("{}", too_wide.key_attributes().unwrap_err());
    println!("Either way no attribute is written: key_attributes gives all of an item's keys or none.");
    Ok(())
}

fn heading(title: &str) {
    println!("\n== {title} ==\n");
}

fn show(title: &str, orders: Vec<Order>) -> Result<()> {
    heading(title);
    let mut out = TextTable::new(["order", "customer", "status", "placed", "coupon", "total"]).right(0).right(5);
    for o in orders {
        let placed = o.placed_at.duration_since(SystemTime::UNIX_EPOCH)?.as_secs();
        let ago = (NOW_UNIX_SECS + 12 * 3600 - placed) / 86_400;
        out.row([
            o.order_no.to_string(),
            o.customer_id.clone(),
            format!("{:?}", o.status),
            format!("{ago} days ago"),
            o.coupon.clone().unwrap_or_else(|| "-".into()),
            format!("{}.{:02}", o.total_cents / 100, o.total_cents % 100),
        ]);
    }
    print!("{out}");
    Ok(())
}

/// Where the orders are: the embedded table with its indexes, or a DynamoDB table.
enum Shop {
    Memory(EntityTable<Order>),
    #[cfg(feature = "dynamodb")]
    Dynamo(sortkey_examples::Remote, String),
}

impl Shop {
    fn from_args() -> Result<Shop> {
        match Target::from_args("orders")? {
            Target::Embedded => Ok(Shop::Memory(EntityTable::new())),
            #[cfg(feature = "dynamodb")]
            target => {
                let remote =
                    sortkey_examples::Remote::connect_with(&target, |name| Ok(TableDefinition::of::<Order>(name)))?;
                Ok(Shop::Dynamo(remote, target.to_string()))
            }
            #[cfg(not(feature = "dynamodb"))]
            target => Err(format!("{target} needs the `dynamodb` feature").into()),
        }
    }

    fn describe(&self) -> String {
        match self {
            Shop::Memory(_) => "the embedded table, its indexes kept by key_attributes".into(),
            #[cfg(feature = "dynamodb")]
            Shop::Dynamo(_, described) => described.clone(),
        }
    }

    /// Writes the whole order: its fields and every key attribute.
    fn put(&mut self, order: &Order) -> Result<()> {
        match self {
            Shop::Memory(t) => t.put(order.clone())?,
            #[cfg(feature = "dynamodb")]
            Shop::Dynamo(r, _) => {
                let put = order.apply_to_put(r.client.put_item().table_name(&r.table), PutMode::Overwrite)?;
                r.block_on(put.send())?;
            }
        }
        Ok(())
    }

    /// Updates a stored order to `order`: on DynamoDB the whole update (every field and index
    /// key, the sparse index's attributes removed when it leaves it, never creating an item).
    fn update(&mut self, order: &Order) -> Result<()> {
        match self {
            Shop::Memory(t) => t.put(order.clone())?,
            #[cfg(feature = "dynamodb")]
            Shop::Dynamo(r, _) => {
                r.block_on(sortkey_core::dynamodb::update_item(&r.client, &r.table, order))?;
            }
        }
        Ok(())
    }

    fn query(&self, query: &sortkey_core::PartitionQuery<OrderPk, OrderSk>) -> Result<Vec<Order>> {
        match self {
            Shop::Memory(t) => Ok(t.query(query, Direction::Ascending).into_iter().cloned().collect()),
            #[cfg(feature = "dynamodb")]
            Shop::Dynamo(r, _) => r.block_on(async {
                let (mut out, mut start) = (Vec::new(), None);
                loop {
                    let page =
                        query.apply_to_query(r.client.query().table_name(&r.table), start.as_ref())?.send().await?;
                    for item in page.items() {
                        out.push(Order::from_item(item)?);
                    }
                    match query.next_start(&page)? {
                        Some(next) => start = Some(next),
                        None => return Ok(out),
                    }
                }
            }),
        }
    }

    fn query_index<P, S>(&self, query: &sortkey_core::IndexQuery<Order, P, S>) -> Result<Vec<Order>>
    where
        P: SortKey + for<'k> sortkey_core::DecodeKey<'k>,
        S: SortKey + for<'k> sortkey_core::DecodeKey<'k>,
    {
        match self {
            Shop::Memory(t) => Ok(t.query_index(query, Direction::Ascending).into_iter().cloned().collect()),
            #[cfg(feature = "dynamodb")]
            Shop::Dynamo(r, _) => r.block_on(async {
                let (mut out, mut start) = (Vec::new(), None);
                loop {
                    let q = r.client.query().table_name(&r.table).limit(2);
                    let page = query.apply_to_query(q, start.as_ref())?.send().await?;
                    for item in page.items() {
                        out.push(Order::from_item(item)?);
                    }
                    match query.next_start(&page)? {
                        Some(next) => start = Some(next),
                        None => return Ok(out),
                    }
                }
            }),
        }
    }
}
