//! Single-table design against its hand-written alternatives, in one run
//! (`cargo bench -p sortkey-tests --features dynamodb --bench single_table`, then
//! `python3 tests/benches/report.py`):
//!
//! - `family_decode`: decoding an order's sort key through the four-variant key family
//!   `CustomerItem` against `OrderKey::decode`, the variant's own decode, for the first variant
//!   the family tries and for the last;
//! - `to_item` / `from_item`: `serde_dynamo` of an order item whose keys are typed
//!   (`CustomerPk`, `CustomerItem`) against the same item with `String` keys, and the typed keys'
//!   own encode and decode, the work the typed item adds;
//! - `key_attributes`: every key attribute of an `Order` entity (primary key and two GSIs, one
//!   sparse) as an attribute map, against `format!` of the same six strings and `HashMap`
//!   insertion by hand;
//! - `entity_to_item`: the entity's whole item (`EntityItem::to_item`: serde fields, key
//!   attributes, the check that both agree) against `serde_dynamo::to_item` with the same key
//!   attributes inserted by hand.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use criterion::{Criterion, criterion_group};
use serde::{Deserialize, Serialize};
use serde_dynamo::aws_sdk_dynamodb_1::{from_item, to_item};
use sortkey_core::dynamodb::{Attributes, EntityItem};
use sortkey_core::{Entity, KeySegment, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 8)]
    customer_id: u32,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 10, desc)]
    placed_at: u64,
    order_id: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDERS")]
struct TotalsKey {
    #[key(width = 4)]
    year: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
struct AddressKey {
    label: String,
}

/// The order is the first keyed variant, the address the last.
#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Totals(TotalsKey),
    Address(AddressKey),
}

/// An order item with typed keys.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Order {
    pk: CustomerPk,
    sk: CustomerItem,
    status: String,
    total_cents: u64,
    lines: u32,
}

/// The same item as services write it today: keys as strings.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct OrderStrings {
    pk: String,
    sk: String,
    status: String,
    total_cents: u64,
    lines: u32,
}

fn order() -> Order {
    Order {
        pk: CustomerPk { customer_id: 42 },
        sk: CustomerItem::Order(OrderKey { placed_at: 1719100800, order_id: "o-1001".into() }),
        status: "SHIPPED".into(),
        total_cents: 2450,
        lines: 3,
    }
}

fn strings(o: &Order) -> OrderStrings {
    OrderStrings {
        pk: o.pk.encode().unwrap(),
        sk: o.sk.encode().unwrap(),
        status: o.status.clone(),
        total_cents: o.total_cents,
        lines: o.lines,
    }
}

fn bench_family(c: &mut Criterion) {
    let order = order().sk.encode().unwrap();
    let address = CustomerItem::Address(AddressKey { label: "home".into() }).encode().unwrap();
    assert!(matches!(CustomerItem::decode(&order), Ok(CustomerItem::Order(_))));
    let mut g = c.benchmark_group("family_decode");
    g.bench_function("family_order", |b| b.iter(|| CustomerItem::decode(black_box(&order)).unwrap()));
    g.bench_function("variant_order", |b| b.iter(|| OrderKey::decode(black_box(&order)).unwrap()));
    g.bench_function("family_address", |b| b.iter(|| CustomerItem::decode(black_box(&address)).unwrap()));
    g.bench_function("variant_address", |b| b.iter(|| AddressKey::decode(black_box(&address)).unwrap()));
    g.finish();
}

fn bench_serde_dynamo(c: &mut Criterion) {
    let typed = order();
    let plain = strings(&typed);
    let typed_item: Attributes = to_item(&typed).unwrap();
    let plain_item: Attributes = to_item(&plain).unwrap();
    assert_eq!(typed_item, plain_item, "both items are the same attributes");
    assert_eq!(from_item::<Order>(plain_item.clone()).unwrap(), typed);

    let mut g = c.benchmark_group("to_item");
    g.bench_function("typed", |b| b.iter(|| to_item(black_box(&typed)).unwrap()));
    g.bench_function("strings", |b| b.iter(|| to_item(black_box(&plain)).unwrap()));
    g.bench_function("keys_encode", |b| {
        b.iter(|| (black_box(&typed.pk).encode().unwrap(), black_box(&typed.sk).encode().unwrap()))
    });
    g.finish();

    let mut g = c.benchmark_group("from_item");
    g.bench_function("typed", |b| b.iter(|| from_item::<Order>(black_box(typed_item.clone())).unwrap()));
    g.bench_function("strings", |b| b.iter(|| from_item::<OrderStrings>(black_box(plain_item.clone())).unwrap()));
    g.bench_function("keys_decode", |b| {
        b.iter(|| {
            (CustomerPk::decode(black_box(&plain.pk)).unwrap(), CustomerItem::decode(black_box(&plain.sk)).unwrap())
        })
    });
    g.bench_function("clone", |b| b.iter(|| black_box(&plain_item).clone()));
    g.finish();
}

#[derive(KeySegment, Serialize, Debug, Clone, Copy, PartialEq)]
#[key(rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
enum Status {
    Shipped,
}

/// The orders example's entity.
#[derive(Entity, Serialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "CUST", customer_id),
    sk(prefix = "ORDER", placed_at(width = 15, desc), order_no(width = 8)),
    index(
        by_status(name = "gsi1", pk(prefix = "STATUS", status), sk(placed_at(width = 15, desc), order_no(width = 8))),
        by_coupon(name = "gsi2", pk(prefix = "COUPON", coupon), sk(placed_at(width = 15), order_no(width = 8))),
    )
)]
struct OrderEntity {
    customer_id: String,
    order_no: u32,
    status: Status,
    placed_at: u64,
    coupon: Option<String>,
    total_cents: u64,
}

/// The same attributes as services write them: `format!` and `HashMap::insert`, no checks.
fn hand_key_attributes(o: &OrderEntity) -> Attributes {
    let desc = 999_999_999_999_999 - o.placed_at;
    let mut item = HashMap::with_capacity(6);
    item.insert("pk".to_owned(), AttributeValue::S(format!("CUST#{}", o.customer_id)));
    item.insert("sk".to_owned(), AttributeValue::S(format!("ORDER#{desc:015}#{:08}", o.order_no)));
    item.insert("gsi1pk".to_owned(), AttributeValue::S("STATUS#shipped".to_owned()));
    item.insert("gsi1sk".to_owned(), AttributeValue::S(format!("{desc:015}#{:08}", o.order_no)));
    if let Some(c) = &o.coupon {
        item.insert("gsi2pk".to_owned(), AttributeValue::S(format!("COUPON#{c}")));
        item.insert("gsi2sk".to_owned(), AttributeValue::S(format!("{:015}#{:08}", o.placed_at, o.order_no)));
    }
    item
}

fn bench_entity(c: &mut Criterion) {
    let o = OrderEntity {
        customer_id: "c_1042".into(),
        order_no: 1002,
        status: Status::Shipped,
        placed_at: 1_716_638_400_000,
        coupon: Some("SUMMER".into()),
        total_cents: 1250,
    };
    assert_eq!(o.key_attributes().unwrap().to_item(), hand_key_attributes(&o), "the same six attributes");
    let mut g = c.benchmark_group("key_attributes");
    g.bench_function("derive", |b| b.iter(|| black_box(&o).key_attributes().unwrap().to_item()));
    g.bench_function("hand", |b| b.iter(|| hand_key_attributes(black_box(&o))));
    g.finish();
    // The whole item: `EntityItem::to_item` against serde_dynamo's map with the same key
    // attributes inserted by hand.
    let hand_item = |o: &OrderEntity| {
        let mut item: Attributes = to_item(o).unwrap();
        item.extend(hand_key_attributes(o));
        item
    };
    assert_eq!(o.to_item().unwrap(), hand_item(&o), "the same item");
    let mut g = c.benchmark_group("entity_to_item");
    g.bench_function("derive", |b| b.iter(|| black_box(&o).to_item().unwrap()));
    g.bench_function("hand", |b| b.iter(|| hand_item(black_box(&o))));
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_family, bench_serde_dynamo, bench_entity
}

/// `SORTKEY_PROBE=<name>` runs one decode a million times instead of the benchmarks, for an
/// instruction count under `valgrind --tool=callgrind`, which this shared machine's load does
/// not move: family_order, variant_order, family_address, variant_address, or none (the loop).
/// `SORTKEY_PROBE=wall` times the four instead, interleaved in short blocks, and prints each
/// one's fastest block: a wall-time harness that a burst of load on the machine cannot tilt
/// towards one case, as it can tilt criterion's consecutive measurements.
fn probe(name: &str) {
    let order = CustomerItem::Order(OrderKey { placed_at: 1719100800, order_id: "o-1001".into() }).encode().unwrap();
    let address = CustomerItem::Address(AddressKey { label: "home".into() }).encode().unwrap();
    let family_order = || drop(black_box(CustomerItem::decode(black_box(&order))));
    let variant_order = || drop(black_box(OrderKey::decode(black_box(&order))));
    let family_address = || drop(black_box(CustomerItem::decode(black_box(&address))));
    let variant_address = || drop(black_box(AddressKey::decode(black_box(&address))));
    // The count, for report.py to divide the instructions by.
    println!("calls: {PROBE_CALLS}");
    match name {
        "family_order" => drop(timed(PROBE_CALLS, family_order)),
        "variant_order" => drop(timed(PROBE_CALLS, variant_order)),
        "family_address" => drop(timed(PROBE_CALLS, family_address)),
        "variant_address" => drop(timed(PROBE_CALLS, variant_address)),
        "wall" => {
            let mut best = [f64::INFINITY; 4];
            for _ in 0..WALL_BLOCKS {
                best[0] = best[0].min(timed(BLOCK_CALLS, family_order));
                best[1] = best[1].min(timed(BLOCK_CALLS, variant_order));
                best[2] = best[2].min(timed(BLOCK_CALLS, family_address));
                best[3] = best[3].min(timed(BLOCK_CALLS, variant_address));
            }
            let [fo, vo, fa, va] = best;
            println!("order: family {fo:.1} ns, variant {vo:.1} ns, {:.2}x", fo / vo);
            println!("address: family {fa:.1} ns, variant {va:.1} ns, {:.2}x", fa / va);
        }
        _ => drop(timed(PROBE_CALLS, || {
            black_box(order.len());
        })),
    }
}

/// How many calls an instruction probe makes.
const PROBE_CALLS: u32 = 1_000_000;
/// How many blocks of [`BLOCK_CALLS`] calls the wall-time probe times for each case.
const WALL_BLOCKS: u32 = 2_000;
/// How many calls one timed block makes.
const BLOCK_CALLS: u32 = 2_000;

/// Wall time per call of `calls` calls of `f`, in a function of its own for each case, so that
/// no case's code shares registers or layout with another's.
#[inline(never)]
fn timed(calls: u32, f: impl Fn()) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..calls {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(calls)
}

fn main() {
    if let Ok(name) = std::env::var("SORTKEY_PROBE") {
        return probe(&name);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
