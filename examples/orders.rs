//! An order history per customer in one DynamoDB partition: the sort key is the order's
//! status, then the time it was placed, newest first, then the order number. One Query then
//! answers "shipped orders of the last 30 days", newest first, without a filter.
//!
//! Shows `#[derive(KeySegment)]` on a status enum, a descending `SystemTime` segment in
//! milliseconds, an `Option` segment, and the typed query builder.
//!
//! Run with `cargo run --example orders`.

use std::time::{Duration, SystemTime};

use sortkey_core::{KeySegment, SortKey};
use sortkey_examples::{MemTable, Query, TextTable};

/// One customer's partition.
const CUSTOMER: &str = "CUSTOMER#c_1042";

/// "Now", fixed so that the output is the same on every run: 2024-06-23T00:00:00Z.
const NOW_UNIX_SECS: u64 = 1_719_100_800;

/// Where an order is. Keys sort by the byte order of these names (`cancelled` < `pending` <
/// `ship-pending` < `shipped`), not by declaration order.
#[derive(KeySegment, Debug, Clone, Copy, PartialEq, Eq)]
#[key(rename_all = "kebab-case")]
enum Status {
    Pending,
    ShipPending,
    Shipped,
    Cancelled,
}

/// The sort key: `ORDER#<status>#<placed_at, newest first>#<coupon>#<order number>`.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    status: Status,
    /// Milliseconds since 1970, descending: the newest order has the smallest key.
    #[key(unit = "ms", desc)]
    placed_at: SystemTime,
    /// `0` without a coupon, `1` and the code with one.
    coupon: Option<String>,
    #[key(width = 8)]
    order_no: u32,
}

/// An order as the shop records it.
#[derive(Debug, Clone)]
struct Order {
    order_no: u32,
    status: Status,
    days_ago: u64,
    coupon: Option<&'static str>,
    total_cents: u64,
}

const ORDERS: [Order; 8] = [
    Order { order_no: 1001, status: Status::Shipped, days_ago: 45, coupon: None, total_cents: 2599 },
    Order { order_no: 1002, status: Status::Shipped, days_ago: 29, coupon: Some("SUMMER"), total_cents: 1250 },
    Order { order_no: 1003, status: Status::Cancelled, days_ago: 20, coupon: None, total_cents: 800 },
    Order { order_no: 1004, status: Status::Shipped, days_ago: 12, coupon: None, total_cents: 4999 },
    Order { order_no: 1005, status: Status::ShipPending, days_ago: 3, coupon: None, total_cents: 1999 },
    Order { order_no: 1006, status: Status::Shipped, days_ago: 2, coupon: None, total_cents: 350 },
    Order { order_no: 1007, status: Status::Pending, days_ago: 0, coupon: Some("WELCOME"), total_cents: 7200 },
    Order { order_no: 1008, status: Status::Shipped, days_ago: 31, coupon: None, total_cents: 990 },
];

fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(NOW_UNIX_SECS)
}

fn days(n: u64) -> Duration {
    Duration::from_secs(n * 86_400)
}

impl Order {
    /// The order was placed `days_ago` days before now, at noon.
    fn placed_at(&self) -> SystemTime {
        now() - days(self.days_ago) + Duration::from_secs(12 * 3600)
    }

    fn key(&self) -> OrderKey {
        OrderKey {
            status: self.status,
            placed_at: self.placed_at(),
            coupon: self.coupon.map(str::to_owned),
            order_no: self.order_no,
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut table = MemTable::new();
    for order in ORDERS {
        table.put_key(CUSTOMER, &order.key(), order)?;
    }

    println!("Customer {CUSTOMER}: every order, in the table's (and DynamoDB's) order");
    let mut out = TextTable::new(["sort key", "status", "days ago", "order"]).right(2).right(3);
    for (sk, order) in table.query(CUSTOMER, Query::forward()) {
        let key = OrderKey::decode(sk)?;
        assert_eq!(key, order.key(), "the key reads back as the order it was written for");
        out.row([sk.to_owned(), format!("{:?}", key.status), order.days_ago.to_string(), order.order_no.to_string()]);
    }
    print!("{out}");
    println!("Statuses group by name; within one, the newest order comes first because");
    println!("placed_at is stored as 999999999999999 - milliseconds.");

    // Shipped, and placed at or after 30 days ago. `desc` swaps the bounds for us.
    let since = now() - days(30);
    let cond = OrderKey::query().status(Status::Shipped).placed_at_gte(since)?;
    println!("\nShipped orders of the last 30 days, newest first:");
    println!("  {cond}");
    let expr = cond.with_partition_key("pk", CUSTOMER, "sk");
    println!("  KeyConditionExpression: {}", expr.expression);
    let mut out = TextTable::new(["order", "days ago", "coupon", "total"]).right(0).right(1).right(3);
    let mut found = Vec::new();
    for (_, order) in table.query_where(CUSTOMER, &cond, Query::forward()) {
        found.push(order.order_no);
        let total = format!("{}.{:02}", order.total_cents / 100, order.total_cents % 100);
        out.row([order.order_no.to_string(), order.days_ago.to_string(), order.coupon.unwrap_or("-").into(), total]);
    }
    print!("{out}");
    assert_eq!(found, [1006, 1004, 1002], "shipped within 30 days, newest first");
    println!("1001 (45 days) and 1008 (31 days) are older; 1005 is ship-pending, not shipped,");
    println!("although `ship-pending` and `shipped` share the prefix `ship`.");

    // The most recent shipped order: the first key under the status.
    let latest = OrderKey::query().status(Status::Shipped).begins_with()?;
    let first = table.query_where(CUSTOMER, &latest, Query::forward().limit(1)).next();
    println!("\nLatest shipped order: {:?}", first.map(|(_, o)| o.order_no));

    // Keys the schema refuses: before 1970, and a coupon with the separator in it.
    let before_1970 = OrderKey { placed_at: SystemTime::UNIX_EPOCH - days(1), ..ORDERS[0].key() };
    println!("\nRefused: {}", before_1970.encode().unwrap_err());
    let bad_coupon = OrderKey { coupon: Some("10#OFF".into()), ..ORDERS[0].key() };
    println!("Refused: {}", bad_coupon.encode().unwrap_err());
    Ok(())
}
