//! Keys and conditions against a real DynamoDB-compatible server (feature `dynamodb`).
//!
//! The tests start moto's DynamoDB server themselves on a free loopback port and compare, for a
//! few hundred generated conditions, the server's Query result (forwards, backwards, and page
//! by page with `Limit` + `ExclusiveStartKey`) with [`KeyCondition::matches`] applied to the same
//! items in byte order. The lists must be identical.
//!
//! # Choice of server
//!
//! Both candidates of the issue were measured on 2026-12-02: moto 5.2.5 in server mode (PyPI
//! `moto[server]`) and dynalite 4.0.0 (npm). DynamoDB orders `S` keys by UTF-8 bytes; a server
//! comparing UTF-16 code units puts U+10000.. (surrogates `D800..DBFF`) before U+E000..U+FFFF.
//!
//! | check | moto 5.2.5 | dynalite 4.0.0 |
//! |---|---|---|
//! | order of `a`, `a\u{E000}`, `a\u{FFFF}`, `a\u{10000}` | UTF-8 bytes | UTF-8 bytes |
//! | `BETWEEN` inclusive at both ends | yes | yes |
//! | `begins_with(sk, "f34#")` excludes `f340` | yes | yes |
//! | `ScanIndexForward=false` | yes | yes |
//! | paging with `Limit` + `ExclusiveStartKey` (ASCII keys) | yes | yes |
//! | `BETWEEN "\u{E000}" AND "\u{10FFFF}"` | accepted, correct | rejected: validates low <= high by UTF-16 |
//! | paging through `sk < "\u{10FFFF}"` past `\u{FFFF}` | correct | rejected: "The provided starting key does not match the range key predicate" |
//! | one Query, 300 items | about 40 ms | about 4.5 ms |
//! | start-up; install size | 0.6 s; 317 MB | 0.2 s; 10 MB |
//!
//! dynalite orders by bytes but validates bounds and start keys by UTF-16 units, so it refuses
//! valid requests exactly where the key alphabet mixes supplementary characters with
//! U+E000..U+FFFF, which these tests must cover. moto agrees with DynamoDB on every check, so
//! the tests use moto and page with a `Limit` of a few items to stay within a minute or two.
//! No deviation of moto was found for the conditions these tests send.
//!
//! # Running
//!
//! `python3 -m venv tests/.venv && tests/.venv/bin/pip install -r tests/requirements-dynamodb.txt`
//! installs the server, then `cargo test -p sortkey-tests --features dynamodb --test dynamodb`.
//! `MOTO_SERVER` may point at another `moto_server`. Without one the tests print that they
//! were skipped, except under CI (`CI` set), where a missing server fails them.

use std::collections::BTreeMap;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use sortkey_core::Entity;
use sortkey_core::dynamodb::{EntityItem, KeyAttribute, PutMode};
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::{
    DecodeErrorKind, EncodeError, ItemKey, KeyCondition, KeyNames, QueryError, SortKey, TableDefinition,
};
use sortkey_tests::rng::Rng;
use sortkey_tests::server::{client, runtime, server_or_skip};

#[path = "dynamodb/rank.rs"]
mod rank;
#[path = "dynamodb/rank_costs.rs"]
mod rank_costs;
#[path = "dynamodb/rank_entity.rs"]
mod rank_entity;
#[path = "dynamodb/sharded.rs"]
mod sharded;
#[path = "dynamodb/typed_migration.rs"]
mod typed_migration;
#[path = "dynamodb/versions.rs"]
mod versions;
#[path = "dynamodb/versions_law.rs"]
mod versions_law;

const TABLE: &str = "sortkey_law";

async fn create_table(client: &Client) {
    create(client, &TableDefinition::new(TABLE, KeyNames::DEFAULT)).await;
}

/// Creates the table `def` defines and waits until it is ACTIVE.
pub(crate) async fn create(client: &Client, def: &TableDefinition) {
    def.apply_to_create(client.create_table()).expect("a table definition").send().await.expect("create table");
    // DynamoDB creates tables asynchronously; wait as a client of the real service must.
    for _ in 0..200 {
        let t = client.describe_table().table_name(def.name()).send().await.expect("describe table");
        if t.table().and_then(|t| t.table_status()).is_some_and(|s| s.as_str() == "ACTIVE") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("table {} did not become ACTIVE", def.name());
}

/// Writes `(partition, sort key)` items, 25 per batch.
async fn put_all(client: &Client, items: &[(String, String)]) {
    for chunk in items.chunks(25) {
        let requests = chunk.iter().map(|(pk, sk)| {
            let put = PutRequest::builder()
                .item("pk", AttributeValue::S(pk.clone()))
                .item("sk", AttributeValue::S(sk.clone()))
                .build()
                .unwrap();
            WriteRequest::builder().put_request(put).build()
        });
        let out = client.batch_write_item().request_items(TABLE, requests.collect()).send().await.expect("batch write");
        assert!(out.unprocessed_items().is_none_or(|u| u.is_empty()), "unprocessed items");
    }
}

/// Every sort key the server returns for `cond` in partition `pk`, following pages.
async fn query(client: &Client, pk: &str, cond: &KeyCondition, forward: bool, limit: Option<i32>) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = None;
    loop {
        let q = client
            .query()
            .table_name(TABLE)
            .scan_index_forward(forward)
            .set_limit(limit)
            .set_exclusive_start_key(start);
        let page = cond
            .apply_to_query(q, "pk", AttributeValue::S(pk.to_owned()), "sk")
            .send()
            .await
            .unwrap_or_else(|e| panic!("query {cond} failed: {e:?}"));
        out.extend(page.items().iter().map(|i| i["sk"].as_s().expect("S sort key").clone()));
        match page.last_evaluated_key() {
            Some(k) if !k.is_empty() => start = Some(k.clone()),
            _ => return out,
        }
    }
}

/// Characters of non-final text with separator `#`: next to it, far above, and around the
/// UTF-16 surrogate range where a JavaScript server could differ from DynamoDB.
const MID: &[char] = &['$', '%', 'a', 'b', 'é', '~', '\u{7F}', '\u{E000}', '\u{FFFF}', '\u{10000}', '\u{10FFFF}'];
/// Characters of a final text segment, including the separator and below.
const LAST: &[char] = &['!', ' ', '#', '$', 'a', 'b', 'é', '\u{E000}', '\u{FFFF}', '\u{10000}', '\u{10FFFF}'];

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 4, desc)]
    score: u32,
    #[key(width = 5)]
    ts: u32,
    player: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "LEDGER")]
struct LedgerKey {
    #[key(width = 4)]
    amount: i32,
    #[key(desc)]
    day: u8,
    memo: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "TAG")]
struct TagKey {
    city: String,
    #[key(desc)]
    open: bool,
    #[key(width = 2)]
    n: u8,
}

/// No prefix, in a partition of its own: its keys start with a text field.
#[derive(SortKey, Debug, Clone, PartialEq)]
struct PlainKey {
    name: String,
    #[key(desc, width = 3)]
    delta: i8,
}

/// Floats in both forms and a fixed-point decimal, in the middle of the key.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "PRICE")]
struct PriceKey {
    price: f64,
    #[key(scale = 2, width = 8, desc)]
    cost: Decimal,
    #[key(desc, format = "hex")]
    rating: f32,
    sku: String,
}

fn price(r: &mut Rng) -> PriceKey {
    let prices = [f64::NEG_INFINITY, -1.55, -1.5, -0.0, 0.0, 1.5, 1.55, 19.99, 1e300, 5e-324, f64::INFINITY];
    let ratings = [-0.0, 0.0, 4.5, 5.0, f32::MIN_POSITIVE, f32::NEG_INFINITY];
    let costs = [-99999, -1, 0, 1, 1999, 1990, 9999999];
    let cost = Decimal::new(*r.pick(&costs), 2);
    PriceKey { price: *r.pick(&prices), cost, rating: *r.pick(&ratings), sku: r.text(LAST, 2) }
}

fn rank(r: &mut Rng) -> RankKey {
    RankKey {
        score: *r.pick(&[0, 9, 10, 240, 1500, 1500, 9999]),
        ts: *r.pick(&[0, 1, 99999, 42]),
        player: r.text(LAST, 3),
    }
}

fn ledger(r: &mut Rng) -> LedgerKey {
    LedgerKey {
        amount: *r.pick(&[-999, -10, -1, 0, 1, 10, 999]),
        day: *r.pick(&[0, 1, 254, 255]),
        memo: r.text(LAST, 3),
    }
}

fn tag(r: &mut Rng) -> TagKey {
    TagKey { city: r.text(MID, 3), open: r.below(2) == 0, n: *r.pick(&[0, 1, 98, 99]) }
}

fn plain(r: &mut Rng) -> PlainKey {
    PlainKey { name: r.text(MID, 3), delta: *r.pick(&[-99, -1, 0, 1, 99]) }
}

/// One of the four comparisons of a query stage, chosen by `i`.
macro_rules! compare {
    ($q:expr, $i:expr, $v:expr, $range:ident) => {
        match $i % 4 {
            0 => $q.$range().lt($v),
            1 => $q.$range().lte($v),
            2 => $q.$range().gt($v),
            _ => $q.$range().gte($v),
        }
    };
}

/// A random builder call on `RankKey`, with values taken from `a` and `b`.
fn rank_condition(r: &mut Rng, a: &RankKey, b: &RankKey) -> Result<KeyCondition, QueryError> {
    let q = RankKey::query();
    let i = r.below(6);
    match r.below(4) {
        0 if i < 4 => compare!(q, i, a.score, score_range),
        0 => q.score_range().between(a.score.min(b.score), a.score.max(b.score)),
        1 if i < 4 => compare!(q.score(a.score), i, b.ts, ts_range),
        1 => q.score(a.score).begins_with(),
        2 if i < 4 => compare!(q.score(a.score).ts(a.ts), i, &b.player, player_range),
        2 if i == 4 => q.score(a.score).ts(a.ts).player_range().begins_with(&b.player),
        2 => q.score(a.score).ts(a.ts).player_range().between(&a.player, &b.player),
        _ => q.score(a.score).ts(a.ts).player(&a.player).eq(),
    }
}

fn ledger_condition(r: &mut Rng, a: &LedgerKey, b: &LedgerKey) -> Result<KeyCondition, QueryError> {
    let q = LedgerKey::query();
    let i = r.below(6);
    match r.below(3) {
        0 if i < 4 => compare!(q, i, a.amount, amount_range),
        0 => q.amount_range().between(a.amount.min(b.amount), a.amount.max(b.amount)),
        1 if i < 4 => compare!(q.amount(a.amount), i, b.day, day_range),
        1 => q.amount(a.amount).day_range().between(a.day.min(b.day), a.day.max(b.day)),
        _ if i < 4 => compare!(q.amount(a.amount).day(a.day), i, &b.memo, memo_range),
        _ => q.amount(a.amount).day(a.day).memo_range().begins_with(&b.memo),
    }
}

fn tag_condition(r: &mut Rng, a: &TagKey, b: &TagKey) -> Result<KeyCondition, QueryError> {
    let q = TagKey::query();
    let i = r.below(6);
    match r.below(3) {
        0 if i < 4 => compare!(q, i, &b.city, city_range),
        0 if i == 4 => q.city_range().begins_with(&b.city),
        0 => q.begins_with(),
        1 if i < 4 => compare!(q.city(&a.city), i, b.open, open_range),
        1 => q.city(&a.city).begins_with(),
        _ if i < 4 => compare!(q.city(&a.city).open(a.open), i, b.n, n_range),
        _ => q.city(&a.city).open(a.open).n_range().between(a.n.min(b.n), a.n.max(b.n)),
    }
}

fn price_condition(r: &mut Rng, a: &PriceKey, b: &PriceKey) -> Result<KeyCondition, QueryError> {
    let q = PriceKey::query();
    let i = r.below(6);
    let ordered = |x: f64, y: f64| if x.total_cmp(&y).is_le() { (x, y) } else { (y, x) };
    match r.below(4) {
        0 if i < 4 => compare!(q, i, a.price, price_range),
        0 => {
            let (lo, hi) = ordered(a.price, b.price);
            q.price_range().between(lo, hi)
        }
        1 if i < 4 => compare!(q.price(a.price), i, b.cost, cost_range),
        1 => q.price(a.price).cost_range().between(a.cost.min(b.cost), a.cost.max(b.cost)),
        2 if i < 4 => {
            compare!(q.price(a.price).cost(a.cost), i, b.rating, rating_range)
        }
        2 => q.price(a.price).cost(a.cost).begins_with(),
        _ if i < 4 => {
            compare!(q.price(a.price).cost(a.cost).rating(a.rating), i, &b.sku, sku_range)
        }
        _ => q.price(a.price).cost(a.cost).rating(a.rating).sku_range().begins_with(&b.sku),
    }
}

fn plain_condition(r: &mut Rng, a: &PlainKey, b: &PlainKey) -> Result<KeyCondition, QueryError> {
    let q = PlainKey::query();
    let i = r.below(6);
    match r.below(2) {
        0 if i < 4 => compare!(q, i, &b.name, name_range),
        0 => q.name_range().between(&a.name.clone().min(b.name.clone()), &a.name.clone().max(b.name.clone())),
        _ if i < 4 => compare!(q.name(&a.name), i, b.delta, delta_range),
        _ => q.name(&a.name).delta_range().between(a.delta.min(b.delta), a.delta.max(b.delta)),
    }
}

/// Items of one partition as the server must order them: a `BTreeMap<String, _>` orders by bytes.
type Partition = BTreeMap<String, ()>;

/// Compares the server with `matches` for `cond`, in both directions, and page by page in one
/// direction (alternating, to keep the number of requests to moto down).
async fn compare(client: &Client, pk: &str, items: &Partition, cond: &KeyCondition, r: &mut Rng) -> usize {
    let expected: Vec<String> = items.keys().filter(|k| cond.matches(k)).cloned().collect();
    let reversed: Vec<String> = expected.iter().rev().cloned().collect();
    assert_eq!(query(client, pk, cond, true, None).await, expected, "forward: {cond}");
    assert_eq!(query(client, pk, cond, false, None).await, reversed, "backward: {cond}");
    let limit = Some(2 + r.below(8) as i32);
    if r.below(2) == 0 {
        assert_eq!(query(client, pk, cond, true, limit).await, expected, "forward, Limit {limit:?}: {cond}");
    } else {
        assert_eq!(query(client, pk, cond, false, limit).await, reversed, "backward, Limit {limit:?}: {cond}");
    }
    expected.len()
}

/// How many conditions were compared, and how many of them selected something.
#[derive(Default)]
struct Tally {
    conditions: usize,
    nonempty: usize,
}

impl Tally {
    /// Builds a condition from two keys drawn from `keys` and compares the server with `matches`;
    /// a call the builder refuses (an empty range) is skipped.
    async fn one<T: Clone>(
        &mut self,
        client: &Client,
        pk: &str,
        items: &Partition,
        r: &mut Rng,
        keys: &[T],
        build: fn(&mut Rng, &T, &T) -> Result<KeyCondition, QueryError>,
    ) {
        let (a, b) = (r.pick(keys).clone(), r.pick(keys).clone());
        if let Ok(c) = build(r, &a, &b) {
            self.conditions += 1;
            self.nonempty += usize::from(compare(client, pk, items, &c, r).await > 0);
        }
    }
}

#[test]
fn server_agrees_with_matches_on_generated_conditions() {
    let Some(server) = server_or_skip("server_agrees_with_matches_on_generated_conditions") else { return };
    let client = client(&server.endpoint);
    let mut r = Rng(0x5EED_2026_1202);
    let ranks: Vec<RankKey> = (0..120).map(|_| rank(&mut r)).collect();
    let ledgers: Vec<LedgerKey> = (0..100).map(|_| ledger(&mut r)).collect();
    let tags: Vec<TagKey> = (0..100).map(|_| tag(&mut r)).collect();
    let plains: Vec<PlainKey> = (0..80).map(|_| plain(&mut r)).collect();
    let prices: Vec<PriceKey> = (0..100).map(|_| price(&mut r)).collect();

    // Four key types share partition "MIXED" (told apart by their prefixes); the type without a
    // prefix has a partition of its own.
    let mut mixed = Partition::new();
    let mut alone = Partition::new();
    let encoded = |k: &dyn Fn() -> Result<String, EncodeError>| k().expect("generated keys encode");
    for k in &ranks {
        mixed.insert(encoded(&|| k.encode()), ());
    }
    for k in &ledgers {
        mixed.insert(encoded(&|| k.encode()), ());
    }
    for k in &tags {
        mixed.insert(encoded(&|| k.encode()), ());
    }
    for k in &prices {
        mixed.insert(encoded(&|| k.encode()), ());
    }
    for k in &plains {
        alone.insert(encoded(&|| k.encode()), ());
    }
    let items: Vec<(String, String)> = mixed
        .keys()
        .map(|k| ("MIXED".to_owned(), k.clone()))
        .chain(alone.keys().map(|k| ("ALONE".to_owned(), k.clone())))
        .collect();

    runtime().block_on(async {
        create_table(&client).await;
        put_all(&client, &items).await;

        let mut tally = Tally::default();
        for _ in 0..60 {
            tally.one(&client, "MIXED", &mixed, &mut r, &ranks, rank_condition).await;
            tally.one(&client, "MIXED", &mixed, &mut r, &ledgers, ledger_condition).await;
            tally.one(&client, "MIXED", &mixed, &mut r, &tags, tag_condition).await;
            tally.one(&client, "ALONE", &alone, &mut r, &plains, plain_condition).await;
            tally.one(&client, "MIXED", &mixed, &mut r, &prices, price_condition).await;
        }
        let Tally { conditions, nonempty } = tally;
        eprintln!("{conditions} conditions compared, {nonempty} with results");
        assert!(conditions >= 250, "too few conditions were generated: {conditions}");
        assert!(nonempty * 2 >= conditions, "most conditions should select something: {nonempty}/{conditions}");
    });
}

/// Keys read back from the server decode to what was written, and the typed queries of the
/// leaderboard return the runs in the expected order.
#[test]
fn keys_round_trip_through_the_server() {
    let Some(server) = server_or_skip("keys_round_trip_through_the_server") else { return };
    let client = client(&server.endpoint);
    let runs = [(10, 1, "p_1"), (1500, 7, "p_b"), (240, 3, "p_c"), (9, 2, "p_d"), (1500, 5, "p_a"), (1500, 5, "p_0")];
    let runs: Vec<RankKey> = runs.iter().map(|&(score, ts, p)| RankKey { score, ts, player: p.into() }).collect();
    runtime().block_on(async {
        create_table(&client).await;
        for run in &runs {
            client
                .put_item()
                .table_name(TABLE)
                .item("pk", AttributeValue::S("SEASON".into()))
                .item("sk", run.to_attribute_value().unwrap())
                .send()
                .await
                .expect("put item");
        }
        let cond = RankKey::query().begins_with().unwrap();
        let page = cond
            .apply_to_query(client.query().table_name(TABLE).limit(3), "pk", AttributeValue::S("SEASON".into()), "sk")
            .send()
            .await
            .expect("query");
        let top: Vec<RankKey> = page.items().iter().map(|i| RankKey::from_attribute_value(&i["sk"]).unwrap()).collect();
        let names: Vec<&str> = top.iter().map(|k| k.player.as_str()).collect();
        assert_eq!(names, ["p_0", "p_a", "p_b"], "highest score first, ties by time then player");
        let wrong = RankKey::from_attribute_value(&AttributeValue::N("5".into())).unwrap_err();
        assert_eq!(wrong.expected(), "a string attribute value (S)");
    });
}

/// The partition of one customer.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CUST", partition)]
struct CustomerPk {
    #[key(width = 6)]
    customer_id: u32,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDER")]
struct OrderKey {
    #[key(width = 4, desc)]
    placed_at: u16,
    order_id: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ORDERS")]
struct YearKey {
    #[key(width = 4)]
    year: u16,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "ADDR")]
struct AddressKey {
    label: String,
}

/// Four entity types in one partition.
#[derive(SortKey, Debug, Clone, PartialEq)]
enum CustomerItem {
    #[key(prefix = "PROFILE")]
    Profile,
    Order(OrderKey),
    Year(YearKey),
    Address(AddressKey),
}

type CustomerKey = ItemKey<CustomerPk, CustomerItem>;

/// Every typed key of `query`, page after page of `limit` items, in the server's order.
async fn query_keys(
    client: &Client,
    query: &sortkey_core::PartitionQuery<CustomerPk, CustomerItem>,
    forward: bool,
    limit: i32,
) -> Vec<CustomerKey> {
    let mut keys = Vec::new();
    let mut start = None;
    loop {
        let q = client.query().table_name(TABLE).scan_index_forward(forward).limit(limit);
        let page = query.apply_to_query(q, start.as_ref()).unwrap().send().await.expect("query");
        keys.extend(query.keys(&page).expect("typed keys"));
        match query.next_start(&page).expect("typed cursor") {
            Some(next) => start = Some(next),
            None => return keys,
        }
    }
}

/// Several entity types in one partition: each variant's `begins_with` returns exactly that
/// variant's items, forwards, backwards and paged, as `matches` says; GetItem and DeleteItem by
/// typed item key; a Query resumed from a typed cursor returns the rest exactly once.
#[test]
fn single_table_partition_through_the_server() {
    let Some(server) = server_or_skip("single_table_partition_through_the_server") else { return };
    let client = client(&server.endpoint);
    const KEYS: KeyNames = KeyNames::DEFAULT;
    let me = CustomerPk { customer_id: 42 };
    let other = CustomerPk { customer_id: 43 };
    let order = |t, id: &str| CustomerItem::Order(OrderKey { placed_at: t, order_id: id.into() });
    let mut items = vec![CustomerItem::Profile];
    items.extend([(5, "a"), (9, "b"), (5, "c"), (1, "d"), (12, "e")].map(|(t, id)| order(t, id)));
    items.extend([2024, 2025].map(|year| CustomerItem::Year(YearKey { year })));
    items.extend(["home", "work", "zz"].map(|l| CustomerItem::Address(AddressKey { label: l.into() })));
    runtime().block_on(async {
        create_table(&client).await;
        for (pk, sk) in items.iter().map(|sk| (&me, sk)).chain([(&other, &order(1, "x"))]) {
            let key = ItemKey::new(pk.clone(), sk.clone()).to_attributes(KEYS).unwrap();
            client.put_item().table_name(TABLE).set_item(Some(key)).send().await.expect("put item");
        }
        let variants = [
            CustomerItem::query().profile().eq().unwrap(),
            CustomerItem::query().order().begins_with().unwrap(),
            CustomerItem::query().order().placed_at_range().lte(5).unwrap(),
            CustomerItem::query().year().begins_with().unwrap(),
            CustomerItem::query().address().begins_with().unwrap(),
        ];
        for cond in variants {
            let query = KEYS.query(&me).unwrap().sort(cond.clone());
            let mut expected: Vec<String> =
                items.iter().map(|i| i.encode().unwrap()).filter(|k| query.matches(&me.encode().unwrap(), k)).collect();
            expected.sort();
            for (forward, limit) in [(true, 2), (false, 3), (true, 100)] {
                let got: Vec<String> = query_keys(&client, &query, forward, limit)
                    .await
                    .into_iter()
                    .inspect(|k| assert_eq!(k.partition, me))
                    .map(|k| k.sort.encode().unwrap())
                    .collect();
                let mut want = expected.clone();
                if !forward {
                    want.reverse();
                }
                assert_eq!(got, want, "{cond} forward={forward} limit={limit}");
            }
        }
        // Orders newest first, read back typed.
        let orders = KEYS.query(&me).unwrap().sort(CustomerItem::query().order().begins_with().unwrap());
        let ids: Vec<String> = query_keys(&client, &orders, true, 2)
            .await
            .into_iter()
            .map(|k| match k.sort {
                CustomerItem::Order(o) => o.order_id,
                other => panic!("not an order: {other:?}"),
            })
            .collect();
        assert_eq!(ids, ["e", "b", "a", "c", "d"]);

        // A Query resumed from a typed cursor returns the rest, each item once.
        let all = KEYS.query::<_, CustomerItem>(&me).unwrap();
        let first = all.apply_to_query(client.query().table_name(TABLE).limit(4), None).unwrap().send().await.unwrap();
        let cursor = all.next_start(&first).unwrap().expect("more pages");
        let mut seen: Vec<CustomerKey> = all.keys(&first).unwrap();
        let rest = all.apply_to_query(client.query().table_name(TABLE), Some(&cursor)).unwrap().send().await.unwrap();
        seen.extend(all.keys(&rest).unwrap());
        assert_eq!(seen.len(), items.len());
        let mut sorted: Vec<String> = seen.iter().map(|k| k.sort.encode().unwrap()).collect();
        sorted.dedup();
        assert_eq!(sorted.len(), items.len(), "every item once");

        // GetItem and DeleteItem by typed key.
        let profile = ItemKey::new(me.clone(), CustomerItem::Profile);
        let got = client
            .get_item()
            .table_name(TABLE)
            .set_key(Some(profile.to_attributes(KEYS).unwrap()))
            .send()
            .await
            .expect("get item");
        let item = got.item().expect("the profile exists");
        assert_eq!(CustomerKey::from_attributes(item, KEYS).unwrap(), profile);
        client
            .delete_item()
            .table_name(TABLE)
            .set_key(Some(profile.to_attributes(KEYS).unwrap()))
            .send()
            .await
            .expect("delete item");
        let gone = client
            .get_item()
            .table_name(TABLE)
            .set_key(Some(profile.to_attributes(KEYS).unwrap()))
            .send()
            .await
            .unwrap();
        assert!(gone.item().is_none(), "deleted");

        // Strict decoding of an attribute map names the attribute.
        let mut broken = profile.to_attributes(KEYS).unwrap();
        broken.remove("sk");
        let e = CustomerKey::from_attributes(&broken, KEYS).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::MissingAttribute);
        assert!(e.to_string().contains("`sk`"), "{e}");
        broken.insert("sk".into(), AttributeValue::N("1".into()));
        assert_eq!(CustomerKey::from_attributes(&broken, KEYS).unwrap_err().kind(), DecodeErrorKind::NotAString);
    });
}

/// An order as a service stores it: its keys typed, the rest plain serde.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
struct Order {
    pk: CustomerPk,
    sk: CustomerItem,
    total: u64,
}

/// Feature `serde`: an item with typed keys goes through `serde_dynamo` as `S` attributes, the
/// same map a GetItem returns; a key that does not decode is an error naming the type.
#[test]
fn items_with_typed_keys_round_trip_through_serde_dynamo() {
    let order = Order {
        pk: CustomerPk { customer_id: 42 },
        sk: CustomerItem::Order(OrderKey { placed_at: 7, order_id: "o1".into() }),
        total: 1250,
    };
    let item: sortkey_core::dynamodb::Attributes = serde_dynamo::aws_sdk_dynamodb_1::to_item(&order).unwrap();
    assert_eq!(item["pk"], AttributeValue::S("CUST#000042".into()));
    assert_eq!(item["sk"], AttributeValue::S("ORDER#9992#o1".into()));
    assert_eq!(item["total"], AttributeValue::N("1250".into()));
    let key = ItemKey::new(order.pk.clone(), order.sk.clone()).to_attributes(KeyNames::DEFAULT).unwrap();
    assert!(key.iter().all(|(name, value)| item[name] == *value), "the item holds its own key");
    let back: Order = serde_dynamo::aws_sdk_dynamodb_1::from_item(item.clone()).unwrap();
    assert_eq!(back, order);

    let mut bad = item;
    bad.insert("sk".into(), AttributeValue::S("CART#1".into()));
    let e = serde_dynamo::aws_sdk_dynamodb_1::from_item::<Order>(bad).unwrap_err();
    assert!(e.to_string().contains("`CustomerItem`"), "{e}");

    let Some(server) = server_or_skip("items_with_typed_keys_round_trip_through_serde_dynamo") else { return };
    let client = client(&server.endpoint);
    runtime().block_on(async {
        create_table(&client).await;
        let item = serde_dynamo::aws_sdk_dynamodb_1::to_item(&order).unwrap();
        client.put_item().table_name(TABLE).set_item(Some(item)).send().await.expect("put item");
        let key = ItemKey::new(order.pk.clone(), order.sk.clone()).to_attributes(KeyNames::DEFAULT).unwrap();
        let got = client.get_item().table_name(TABLE).set_key(Some(key)).send().await.expect("get item");
        let back: Order = serde_dynamo::aws_sdk_dynamodb_1::from_item(got.item().expect("stored").clone()).unwrap();
        assert_eq!(back, order);
    });
}

#[derive(sortkey_core::KeySegment, serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
#[key(rename_all = "UPPERCASE")]
enum Status {
    Placed,
    Shipped,
}

/// An order entity: under its customer, by status (gsi1), and sparse by coupon.
#[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "CUST", customer_id(width = 6)),
    sk(prefix = "ORDER", placed_at(width = 10, desc), order_id),
    index(
        gsi1(pk(prefix = "STATUS", status), sk(placed_at(width = 10), order_id)),
        coupons(pk(prefix = "COUPON", coupon), sk(placed_at(width = 10), order_id)),
    )
)]
struct OrderEntity {
    customer_id: u32,
    order_id: String,
    placed_at: u64,
    status: Status,
    total_cents: u64,
    coupon: Option<String>,
}

/// The whole item: its fields and every key attribute, from the entity.
fn entity_item(o: &OrderEntity) -> sortkey_core::dynamodb::Attributes {
    o.to_item().unwrap()
}

/// The order ids an index query returns, page after page of `limit`, checking that each page's
/// typed keys are the item's own.
async fn index_ids<P, S>(
    client: &Client,
    query: &sortkey_core::IndexQuery<OrderEntity, P, S>,
    forward: bool,
    limit: i32,
) -> Vec<String>
where
    P: SortKey + for<'k> sortkey_core::DecodeKey<'k>,
    S: SortKey + for<'k> sortkey_core::DecodeKey<'k>,
{
    let (mut ids, mut start) = (Vec::new(), None);
    loop {
        let q = client.query().table_name("orders").scan_index_forward(forward).limit(limit);
        let page = query.apply_to_query(q, start.as_ref()).unwrap().send().await.expect("index query");
        for (key, item) in query.keys(&page).expect("typed index keys").iter().zip(page.items()) {
            let order = OrderEntity::from_item(item).unwrap();
            assert_eq!(key.primary, order.primary_key());
            ids.push(order.order_id);
        }
        match query.next_start(&page).expect("typed cursor") {
            Some(next) => start = Some(next),
            None => return ids,
        }
    }
}

/// Entities against the server: the table created from the entity's definition matches
/// DescribeTable; each index query returns exactly the items `matches` says, forwards, backwards
/// and paged; the sparse index holds only orders with a coupon, and updates through KeyUpdate
/// bring an item in and take it out.
#[test]
fn entities_and_their_indexes_through_the_server() {
    let Some(server) = server_or_skip("entities_and_their_indexes_through_the_server") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<OrderEntity>("orders");
    let statuses = [Status::Placed, Status::Shipped];
    let orders: Vec<OrderEntity> = (0..14u32)
        .map(|i| OrderEntity {
            customer_id: 40 + i % 3,
            order_id: format!("o{i:02}"),
            placed_at: 1_700_000_000 + u64::from(i % 5) * 1000,
            status: statuses[(i % 2) as usize],
            total_cents: u64::from(i) * 100,
            coupon: (i % 3 == 0).then(|| if i % 2 == 0 { "SUMMER" } else { "WINTER" }.to_owned()),
        })
        .collect();
    runtime().block_on(async {
        create(&client, &def).await;
        let described = client.describe_table().table_name("orders").send().await.unwrap();
        assert_eq!(def.differences(described.table().unwrap()), Vec::<String>::new());
        for o in &orders {
            client.put_item().table_name("orders").set_item(Some(entity_item(o))).send().await.expect("put");
        }
        // The status index, with a range, every direction and page size.
        for status in statuses {
            let query = OrderEntity::gsi1(&OrderEntityGsi1Pk { status })
                .unwrap()
                .sort(OrderEntityGsi1Sk::query().placed_at_range().gte(1_700_001_000).unwrap());
            let mut want: Vec<(String, String)> = orders
                .iter()
                .map(|o| (o.gsi1_key(), o))
                .filter(|(k, _)| query.matches(&k.partition.encode().unwrap(), &k.sort.encode().unwrap()))
                .map(|(k, o)| (k.sort.encode().unwrap(), o.order_id.clone()))
                .collect();
            want.sort();
            let want: Vec<String> = want.into_iter().map(|(_, id)| id).collect();
            assert!(!want.is_empty());
            for (forward, limit) in [(true, 2), (false, 3), (true, 100)] {
                let mut expected = want.clone();
                if !forward {
                    expected.reverse();
                }
                assert_eq!(index_ids(&client, &query, forward, limit).await, expected, "{status:?} {forward} {limit}");
            }
        }
        // The sparse index holds the orders with a coupon, and only those.
        let summer = OrderEntity::coupons(&OrderEntityCouponsPk { coupon: "SUMMER".into() }).unwrap();
        let with: Vec<String> =
            orders.iter().filter(|o| o.coupon.as_deref() == Some("SUMMER")).map(|o| o.order_id.clone()).collect();
        let mut got = index_ids(&client, &summer, true, 2).await;
        got.sort();
        assert_eq!(got, with);
        let scan = client.scan().table_name("orders").index_name("coupons").send().await.unwrap();
        assert_eq!(scan.items().len(), orders.iter().filter(|o| o.coupon.is_some()).count());

        // An update that sets a coupon brings the item in; one that clears it takes it out.
        let mut o = orders.iter().find(|o| o.coupon.is_none()).unwrap().clone();
        o.coupon = Some("SUMMER".into());
        update(&client, &o).await;
        assert!(index_ids(&client, &summer, true, 100).await.contains(&o.order_id), "in the sparse index");
        o.coupon = None;
        update(&client, &o).await;
        assert!(!index_ids(&client, &summer, true, 100).await.contains(&o.order_id), "out of it again");
        let key = sortkey_core::dynamodb::entity_key(&o).unwrap();
        let item = client.get_item().table_name("orders").set_key(Some(key)).send().await.unwrap();
        let item = item.item().expect("the item stays in the table");
        assert!(!item.contains_key("couponspk") && !item.contains_key("couponssk"), "no stale or empty key");
        // A status change moves the item in gsi1.
        o.status = Status::Placed;
        update(&client, &o).await;
        let placed = OrderEntity::gsi1(&OrderEntityGsi1Pk { status: Status::Placed }).unwrap();
        assert!(index_ids(&client, &placed, true, 100).await.contains(&o.order_id));
        let shipped = OrderEntity::gsi1(&OrderEntityGsi1Pk { status: Status::Shipped }).unwrap();
        assert!(!index_ids(&client, &shipped, true, 100).await.contains(&o.order_id));
    });
}

/// The whole update of an order: every field and index key of the new value, the sparse index's
/// attributes removed when it leaves it, on the condition that the item exists.
async fn update(client: &Client, o: &OrderEntity) {
    sortkey_core::dynamodb::update_item(client, "orders", o).await.expect("update item");
}

/// A shipment with a multi-attribute index: partition (region, tenant), sort (year, week, dock).
#[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "SHIP", id),
    sk(prefix = "V", version),
    index(by_region(multi, pk(region, tenant), sk(year, week, dock)))
)]
struct Shipment {
    id: String,
    version: u32,
    region: String,
    tenant: u32,
    year: u16,
    week: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    dock: Option<String>,
}

/// Multi-attribute GSI keys against the server: the table from the definition (several HASH and
/// RANGE attributes, S and N), and queries with `=` on the partition attributes, `=` on a left
/// prefix of the sort attributes and one range, returning exactly what `matches` says, forwards,
/// backwards and paged; an item without `dock` is absent from the index.
#[test]
fn multi_attribute_index_through_the_server() {
    let Some(server) = server_or_skip("multi_attribute_index_through_the_server") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Shipment>("ships");
    let ships: Vec<Shipment> = (0..40u32)
        .map(|i| Shipment {
            id: format!("s{i:02}"),
            version: i % 2,
            region: ["eu", "us"][(i % 2) as usize].into(),
            tenant: 7 + i % 3 / 2,
            year: 2024 + (i % 4 / 2) as u16,
            week: [1, 2, 9, 10, 52][(i % 5) as usize],
            dock: (i % 7 != 0).then(|| ["A1", "A2", "B1", "B10"][(i % 4) as usize].into()),
        })
        .collect();
    runtime().block_on(async {
        create(&client, &def).await;
        let described = client.describe_table().table_name("ships").send().await.unwrap();
        assert_eq!(def.differences(described.table().unwrap()), Vec::<String>::new());
        let mut items = Vec::new();
        for s in &ships {
            let item = s.to_item().unwrap();
            client.put_item().table_name("ships").set_item(Some(item.clone())).send().await.expect("put");
            items.push(item);
        }
        let q = || Shipment::by_region("eu", 7u32);
        let conditions = [
            q().condition(),
            q().year_range().gte(2025u16),
            q().year(2024u16).week_range().lt(10u8),
            q().year(2024u16).week_range().between(2u8, 10u8).unwrap(),
            q().year(2025u16).week(9u8).dock_range().begins_with("B1"),
            q().year(2025u16).week(9u8).condition(),
            Shipment::by_region("us", 8u32).year(2025u16).week_range().gt(1u8),
        ];
        for cond in &conditions {
            // DynamoDB's order: by each sort attribute in turn, numbers by value.
            let mut want: Vec<&sortkey_core::dynamodb::Attributes> =
                items.iter().filter(|i| cond.matches_item(i)).collect();
            let sort_key = |i: &sortkey_core::dynamodb::Attributes| {
                let n = |k: &str| i[k].as_n().unwrap().parse::<u32>().unwrap();
                (n("year"), n("week"), i["dock"].as_s().unwrap().clone(), i["pk"].as_s().unwrap().clone())
            };
            want.sort_by_key(|i| sort_key(i));
            assert!(!want.is_empty(), "{cond} finds items");
            assert!(want.len() < items.len(), "{cond} leaves items out");
            for (forward, limit) in [(true, 2), (false, 3), (true, 100)] {
                let (mut got, mut start) = (Vec::new(), None);
                loop {
                    let query = client.query().table_name("ships").scan_index_forward(forward).limit(limit);
                    let query = cond.apply_to_query(query, start.as_ref()).expect("cursor encodes");
                    let page = query.send().await.expect("multi-attribute query");
                    got.extend(page.items().iter().map(|i| i["id"].as_s().unwrap().clone()));
                    // The page's typed keys: each in the result, its primary key the item's.
                    let keys = cond.keys(&page).expect("typed keys");
                    assert_eq!(keys.len(), page.items().len());
                    for (key, item) in keys.iter().zip(page.items()) {
                        assert!(cond.matches(|name| key.get(name)), "{cond}: {key:?}");
                        assert_eq!(key.primary.partition.id, item["id"].as_s().unwrap().as_str());
                    }
                    match cond.next_start(&page).expect("typed cursor") {
                        Some(next) => start = Some(next),
                        None => break,
                    }
                }
                let mut expected: Vec<String> = want.iter().map(|i| i["id"].as_s().unwrap().clone()).collect();
                if !forward {
                    expected.reverse();
                }
                // Items equal in every index key come in an order DynamoDB leaves open: compare
                // them as sets, and the rest in order.
                let key_of = |id: &String| sort_key(items.iter().find(|i| i["id"].as_s().unwrap() == id).unwrap());
                let strip = |ids: &[String]| {
                    ids.iter().map(|id| (key_of(id).0, key_of(id).1, key_of(id).2)).collect::<Vec<_>>()
                };
                assert_eq!(strip(&got), strip(&expected), "{cond} forward={forward} limit={limit}");
                let (mut g, mut e) = (got.clone(), expected.clone());
                g.sort();
                e.sort();
                assert_eq!(g, e, "{cond}: each item once");
            }
        }

        // A cursor is decoded strictly: a missing or mistyped index attribute is named.
        let cond = q().condition();
        let page = client.query().table_name("ships").limit(1);
        let page = cond.apply_to_query(page, None).unwrap().send().await.unwrap();
        let mut cursor = page.last_evaluated_key().expect("a first page of one").clone();
        assert_eq!(cursor.len(), 7, "index attributes and primary key: {cursor:?}");
        cursor.insert("week".into(), AttributeValue::S("9".into()));
        let broken = |c: &sortkey_core::dynamodb::Attributes| {
            let page =
                aws_sdk_dynamodb::operation::query::QueryOutput::builder().set_last_evaluated_key(Some(c.clone()));
            cond.next_start(&page.build()).unwrap_err()
        };
        let e = broken(&cursor);
        assert_eq!(e.kind(), DecodeErrorKind::NotANumber);
        assert!(e.to_string().contains("`week` of index `by_region`"), "{e}");
        cursor.remove("week");
        assert_eq!(broken(&cursor).kind(), DecodeErrorKind::MissingAttribute);
    });
}

mod backfill {
    use super::*;
    use sortkey_core::dynamodb::{Backfill, Progress, SegmentCursor};

    pub(super) use sortkey_tests::leaderboard::{RankKey, RankKeyV1};

    /// An item of season `season`: segments split a table by partition.
    pub(super) fn item(season: u64, sk: String, points: &str) -> sortkey_core::dynamodb::Attributes {
        std::collections::HashMap::from([
            ("pk".to_owned(), AttributeValue::S(format!("SEASON#{season}"))),
            ("sk".to_owned(), AttributeValue::S(sk)),
            ("points".to_owned(), AttributeValue::S(points.into())),
        ])
    }

    /// Every item of the table: (sort key, points).
    pub(super) async fn everything(client: &Client) -> Vec<(String, String)> {
        let (mut out, mut start) = (Vec::new(), None);
        loop {
            let page = client.scan().table_name(TABLE).set_exclusive_start_key(start.take()).send().await.unwrap();
            for i in page.items() {
                out.push((i["sk"].as_s().unwrap().clone(), i["points"].as_s().unwrap().clone()));
            }
            match page.last_evaluated_key() {
                Some(k) if !k.is_empty() => start = Some(k.clone()),
                _ => return out,
            }
        }
    }

    pub(super) fn sum(mut a: Progress, b: Progress) -> Progress {
        a.add(&b);
        a
    }

    pub(super) fn start(total: i32) -> Vec<SegmentCursor> {
        SegmentCursor::all(total)
    }

    pub(super) fn decode(sk: &str) -> sortkey_core::Versioned<RankKey> {
        RankKey::decode_any(sk).unwrap()
    }

    pub(super) fn backfill(client: &Client) -> Backfill<'_> {
        Backfill::new(client, TABLE, KeyNames::DEFAULT).page_size(5).rate(2000.0).compare_attributes(&[])
    }
}

/// The backfill against the server: 60 items in the old layout, two workers on two Scan
/// segments, one interrupted after a page and one cancelled mid-flight, both resumed; meanwhile
/// the application writes three players in the new layout. Afterwards every player is in the new
/// layout exactly once, the application's writes are kept, and a rerun does nothing.
///
/// moto 5.2.5 undoes a failed `TransactWriteItems` by restoring a copy of the whole table, which
/// also undoes what other connections wrote meanwhile (DynamoDB isolates transactions). The
/// backfill looks for an existing current key before its transaction, so here no transaction
/// fails and the two workers cannot undo each other's writes on moto; the application writes
/// once the cancelled worker's last request has ended.
#[test]
fn backfill_rewrites_old_layouts_once_over_parallel_segments() {
    use backfill::*;
    use sortkey_core::dynamodb::{Progress, SegmentCursor};
    let Some(server) = server_or_skip("backfill_rewrites_old_layouts_once_over_parallel_segments") else { return };
    let client = client(&server.endpoint);
    runtime().block_on(async {
        create_table(&client).await;
        for i in 0..60u64 {
            let sk = RankKeyV1 { score: i * 10, player: format!("p{i:02}") }.encode().unwrap();
            client.put_item().table_name(TABLE).set_item(Some(item(i % 8, sk, "old"))).send().await.unwrap();
        }
        let bf = backfill(&client);
        let [seg0, seg1]: [SegmentCursor; 2] = start(2).try_into().unwrap();
        // Worker 0 is interrupted after one page; worker 1 is cancelled mid-flight.
        let (first, p0) = bf.run_segment::<RankKey>(seg0, Some(1), |_, _| {}).await.unwrap();
        assert!(!first.done, "interrupted half-way: {first:?} {p0:?}");
        let cancelled =
            tokio::time::timeout(Duration::from_millis(30), bf.run_segment::<RankKey>(seg1.clone(), None, |_, _| {}))
                .await;
        assert!(cancelled.is_err(), "cancelled before its end");
        // The request the cancelled task had sent may still run on the server. DynamoDB would
        // isolate its transaction from the application's writes below; moto does not, and when
        // that transaction fails it restores a copy of the whole table taken before it began,
        // undoing a write made meanwhile. Give it time to end, so that this test checks the
        // backfill and not moto's missing isolation.
        tokio::time::sleep(Duration::from_secs(1)).await;
        // The application writes three players in the current layout meanwhile.
        for i in [3u64, 33, 57] {
            let sk = RankKey { score: i * 10, player: format!("p{i:02}") }.encode().unwrap();
            client.put_item().table_name(TABLE).set_item(Some(item(i % 8, sk, "new"))).send().await.unwrap();
        }
        // Both resume, together: worker 0 from its cursor, worker 1 from its start.
        let mut pages = 0;
        let (a, b) = tokio::join!(
            bf.run_segment::<RankKey>(first, None, |_, _| pages += 1),
            bf.run_segment::<RankKey>(seg1, None, |_, _| {})
        );
        let ((a_cursor, a_done), (b_cursor, b_done)) = (a.unwrap(), b.unwrap());
        assert!(a_cursor.done && b_cursor.done && pages > 0);
        let done = sum(a_done, b_done);
        assert_eq!(done.changed, 0, "{done:?}");

        let all = everything(&client).await;
        assert_eq!(all.len(), 60, "none lost, none duplicated: {done:?}");
        let mut players: Vec<String> = all.iter().map(|(sk, _)| decode(sk).key.player).collect();
        players.sort();
        players.dedup();
        assert_eq!(players.len(), 60, "every player once");
        let old: Vec<&String> = all.iter().filter(|(sk, _)| !decode(sk).is_current()).map(|(sk, _)| sk).collect();
        assert!(old.is_empty(), "all in the current layout: {old:?} left, {done:?}");
        for (sk, points) in &all {
            let player = decode(sk).key.player;
            let expected = if ["p03", "p33", "p57"].contains(&player.as_str()) { "new" } else { "old" };
            assert_eq!(points, expected, "{player}: the application's write is kept");
        }
        // A rerun over every segment does nothing.
        let mut again = Progress::default();
        for cursor in start(2) {
            let (c, p) = bf.run_segment::<RankKey>(cursor, None, |_, _| {}).await.unwrap();
            assert!(c.done);
            again = sum(again, p);
        }
        assert_eq!((again.rewritten, again.superseded, again.current), (0, 0, 60), "idempotent: {again:?}");
    });
}

/// A backfill's errors have a kind to match on and a one-line message: an item in no known
/// layout is `Decode` (naming the key, with the cursor before its page), a missing table is the
/// server's `ResourceNotFoundException` on `Scan`, not the raw HTTP response.
#[test]
fn backfill_errors_have_a_kind_and_one_line() {
    use backfill::*;
    use sortkey_core::dynamodb::{Backfill, BackfillErrorKind, SegmentCursor};
    let Some(server) = server_or_skip("backfill_errors_have_a_kind_and_one_line") else { return };
    let client = client(&server.endpoint);
    runtime().block_on(async {
        create_table(&client).await;
        let bad = item(1, "NOT#A#RANK#KEY".into(), "old");
        client.put_item().table_name(TABLE).set_item(Some(bad)).send().await.unwrap();
        let e =
            backfill(&client).run_segment::<RankKey>(SegmentCursor::start(0, 1), None, |_, _| {}).await.unwrap_err();
        assert_eq!(e.kind(), &BackfillErrorKind::Decode);
        assert!(e.to_string().starts_with(
            "backfill of table `sortkey_law`, segment 0 of 1: the item `NOT#A#RANK#KEY`: it is in no known layout"
        ));
        assert_eq!(e.cursor, SegmentCursor::start(0, 1), "nothing of the page is done");

        let missing = Backfill::new(&client, "no_such_table", KeyNames::DEFAULT).compare_attributes(&[]);
        let e = missing.run_segment::<RankKey>(SegmentCursor::start(0, 1), None, |_, _| {}).await.unwrap_err();
        let code = Some("ResourceNotFoundException".to_owned());
        assert_eq!(e.kind(), &BackfillErrorKind::Server { operation: "Scan", code });
        let line = e.to_string();
        assert!(
            line.starts_with(
                "backfill of table `no_such_table`, segment 0 of 1: Scan failed: ResourceNotFoundException"
            ),
            "{line}"
        );
        // The SDK's error, with the raw response, is the source, not part of the line.
        let source = std::error::Error::source(&e).expect("the SDK's error as the source");
        assert!(format!("{source:?}").len() > line.len(), "{source:?}");
        assert!(!line.contains('\n') && line.len() < 300, "one short line: {line}");
    });
}

/// A table keyed by a partition key alone, with an index of a partition key alone ("users by
/// email"): created from the definition (HASH-only key schemas), written, read by key, and
/// queried by email, the pages reading back as typed keys whose sort is `NoSort`.
#[derive(Entity, serde::Serialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "USER", id), index(by_email(pk(email))))]
struct User {
    id: String,
    email: String,
    name: String,
}

#[test]
fn a_partition_key_alone_through_the_server() {
    use sortkey_core::NoSort;
    let Some(server) = server_or_skip("a_partition_key_alone_through_the_server") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<User>("users");
    let users: Vec<User> = (0..6)
        .map(|i| User {
            id: format!("u{i}"),
            email: format!("{}@example.com", ["ann", "bob"][i % 2]),
            name: format!("n{i}"),
        })
        .collect();
    runtime().block_on(async {
        create(&client, &def).await;
        let described = client.describe_table().table_name("users").send().await.unwrap();
        assert_eq!(def.differences(described.table().unwrap()), Vec::<String>::new());
        for u in &users {
            let put = u.apply_to_put(client.put_item().table_name("users"), PutMode::Create).unwrap();
            put.send().await.expect("put");
        }
        // A create of an item that exists is refused by the server, and changes nothing.
        let again = User { name: "other".into(), ..users[3].clone() };
        let e = again.apply_to_put(client.put_item().table_name("users"), PutMode::Create).unwrap().send().await;
        assert!(e.unwrap_err().into_service_error().is_conditional_check_failed_exception());
        let key = sortkey_core::dynamodb::entity_key(&users[3]).unwrap();
        assert_eq!(key.len(), 1, "the key is the partition alone: {key:?}");
        let got = client.get_item().table_name("users").set_key(Some(key)).send().await.unwrap();
        assert_eq!(got.item().unwrap()["name"].as_s().unwrap(), "n3");

        let query = User::by_email(&UserByEmailPk { email: "bob@example.com".into() }).unwrap();
        let (mut ids, mut start) = (Vec::new(), None);
        loop {
            let q = client.query().table_name("users").limit(2);
            let page = query.apply_to_query(q, start.as_ref()).unwrap().send().await.expect("index query");
            for (key, item) in query.keys(&page).unwrap().iter().zip(page.items()) {
                assert_eq!(key.index.sort, NoSort);
                assert!(query.matches_item(item));
                ids.push(key.primary.partition.id.clone());
            }
            match query.next_start(&page).unwrap() {
                Some(next) => start = Some(next),
                None => break,
            }
        }
        ids.sort();
        assert_eq!(ids, ["u1", "u3", "u5"]);
    });
}

mod lanes {
    /// A lane named by its `KeySegment` derive in snake_case, and by serde the same way.
    #[derive(sortkey_core::KeySegment, serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
    #[key(rename_all = "snake_case")]
    #[serde(rename_all = "snake_case")]
    pub(super) enum Lane {
        FastLane,
        SlowLane,
    }

    /// The same names in the key only: serde writes `FastLane`, the key `fast_lane`.
    #[derive(sortkey_core::KeySegment, serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
    #[key(rename_all = "snake_case")]
    pub(super) enum Unaligned {
        FastLane,
    }

    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(pk(prefix = "TRUCK", id), index(by_lane(multi, pk(lane), sk(dock))))]
    pub(super) struct Truck {
        pub(super) id: String,
        pub(super) lane: Lane,
        pub(super) dock: Option<u8>,
    }

    #[derive(sortkey_core::Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[entity(pk(prefix = "VAN", id), index(by_lane(multi, pk(lane))))]
    pub(super) struct Van {
        pub(super) id: String,
        pub(super) lane: Unaligned,
    }
}

/// The whole item, without a server: the serde fields and every key attribute, a sparse
/// attribute that is `None` left out (not `NULL`), and the item reads back to the same value; a
/// field whose key and serde names disagree is an error naming it, never an item that does not
/// read back.
#[test]
fn whole_items_read_back() {
    use lanes::*;
    let t = Truck { id: "t1".into(), lane: Lane::FastLane, dock: None };
    let item = t.to_item().unwrap();
    assert_eq!(item["pk"], AttributeValue::S("TRUCK#t1".into()));
    assert_eq!(item["lane"], AttributeValue::S("fast_lane".into()));
    assert!(!item.contains_key("dock"), "a sparse None is left out, not NULL: {item:?}");
    assert_eq!(Truck::from_item(&item).unwrap(), t);
    let docked = Truck { dock: Some(4), ..t };
    let item = docked.to_item().unwrap();
    assert_eq!(item["dock"], AttributeValue::N("4".into()));
    assert_eq!(Truck::from_item(&item).unwrap(), docked);

    let e = Van { id: "v1".into(), lane: Unaligned::FastLane }.to_item().unwrap_err();
    assert_eq!(
        e.kind(),
        &sortkey_core::dynamodb::ItemErrorKind::Disagrees {
            attribute: "lane".into(),
            key: "\"fast_lane\" (S)".into(),
            serde: "\"FastLane\" (S)".into()
        }
    );
    assert!(e.to_string().starts_with("item of entity `Van`: the key writes the attribute `lane` as"), "{e}");
}

/// An account with a version: every write conditions on the version read and writes the next.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "ACCT", id),
    sk(prefix = "R", region),
    index(by_status(pk(prefix = "S", status), sk(id))),
    version = revision
)]
struct Account {
    id: String,
    region: String,
    status: String,
    revision: u64,
}

/// Whole updates and optimistic locking against the server: a create that exists, an update of
/// a missing item (which creates nothing), a stale copy's update (a version conflict), a changed
/// primary key refused as an update and made as a move; and an update of an entity with a sparse
/// multi-attribute index, whose fields are key attributes too (no overlapping paths).
#[test]
fn whole_updates_and_versions_through_the_server() {
    use sortkey_core::dynamodb::{ItemErrorKind, move_item, put_item, update_item};
    let Some(server) = server_or_skip("whole_updates_and_versions_through_the_server") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Account>("accounts");
    let get = |a: &Account| {
        let key = sortkey_core::dynamodb::entity_key(a).unwrap();
        let client = client.clone();
        async move {
            let out = client.get_item().table_name("accounts").set_key(Some(key)).send().await.unwrap();
            out.item().map(|i| Account::from_item(i).unwrap())
        }
    };
    runtime().block_on(async {
        create(&client, &def).await;
        let a = Account { id: "a1".into(), region: "eu".into(), status: "OPEN".into(), revision: 0 };
        put_item(&client, "accounts", &a, PutMode::Create).await.unwrap();
        let e = put_item(&client, "accounts", &a, PutMode::Create).await.unwrap_err();
        assert_eq!(e.kind(), &ItemErrorKind::AlreadyExists);
        let stored = get(&a).await.unwrap();
        assert_eq!(stored.revision, 1, "written at the next version");

        let closed = Account { status: "CLOSED".into(), ..stored.clone() };
        update_item(&client, "accounts", &closed).await.unwrap();
        assert_eq!(get(&a).await.unwrap(), Account { revision: 2, ..closed.clone() });
        let e = update_item(&client, "accounts", &Account { status: "FROZEN".into(), ..stored.clone() }).await;
        assert_eq!(e.unwrap_err().kind(), &ItemErrorKind::VersionConflict { expected: 1 });

        let ghost = Account { id: "ghost".into(), ..closed.clone() };
        let e = update_item(&client, "accounts", &ghost).await.unwrap_err();
        assert_eq!(e.kind(), &ItemErrorKind::Missing);
        assert_eq!(get(&ghost).await, None, "an update never creates an item");

        let current = get(&a).await.unwrap();
        let moved = Account { region: "us".into(), ..current.clone() };
        let e = moved.update_from(&current).unwrap_err();
        assert!(matches!(e.kind(), ItemErrorKind::PrimaryKeyChanged { .. }), "{e}");
        let e = move_item(&client, "accounts", &stored, &moved).await.unwrap_err();
        assert_eq!(e.kind(), &ItemErrorKind::Changed, "a stale read moves nothing");
        move_item(&client, "accounts", &current, &moved).await.unwrap();
        assert_eq!(get(&current).await, None);
        assert_eq!(get(&moved).await.unwrap(), Account { revision: 3, ..moved.clone() });

        // The index holds the moved item once, under its new primary key.
        let q = Account::by_status(&AccountByStatusPk { status: "CLOSED".into() }).unwrap();
        let page = q.apply_to_query(client.query().table_name("accounts"), None).unwrap().send().await.unwrap();
        let keys = q.keys(&page).unwrap();
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].primary, moved.primary_key());
    });

    let ships = TableDefinition::of::<Shipment>("ships_updates");
    let s = Shipment {
        id: "s1".into(),
        version: 1,
        region: "eu".into(),
        tenant: 7,
        year: 2025,
        week: 9,
        dock: Some("A1".into()),
    };
    runtime().block_on(async {
        create(&client, &ships).await;
        put_item(&client, "ships_updates", &s, PutMode::Create).await.unwrap();
        let undocked = Shipment { week: 10, dock: None, ..s.clone() };
        let request = undocked.update_request().unwrap();
        assert_eq!(request.remove.len(), 1, "the sparse attribute it leaves is removed: {request:?}");
        update_item(&client, "ships_updates", &undocked).await.unwrap();
        let key = sortkey_core::dynamodb::entity_key(&s).unwrap();
        let got = client.get_item().table_name("ships_updates").set_key(Some(key)).send().await.unwrap();
        let item = got.item().unwrap();
        assert!(!item.contains_key("dock"));
        assert_eq!(Shipment::from_item(item).unwrap(), undocked);
    });
}

/// A note kept in an account's partition: another entity under the same partition key.
#[derive(Entity, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
#[entity(pk(prefix = "ACCT", id), sk(prefix = "NOTE", n(width = 4)))]
struct AccountNote {
    id: String,
    n: u16,
    text: String,
}

/// The common access patterns, typed, against the server: `Account::query(&pk)` reads the
/// account's own items of a partition it shares with notes (a note would not read back as an
/// account), page by page through `query_page` with a typed cursor, narrowed by `.sort(...)`;
/// an index's pages the same way; `get_item` reads one entity or none; `delete_item` refuses a
/// stale copy and a missing item, and deletes the current one.
#[test]
fn entities_read_a_page_at_a_time_and_one_by_key() {
    use sortkey_core::ItemKey;
    use sortkey_core::dynamodb::{ItemErrorKind, delete_item, get_item, put_item, query_page, update_item};
    let Some(server) = server_or_skip("entities_read_a_page_at_a_time_and_one_by_key") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Account>("accounts_read").with::<AccountNote>().unwrap();
    runtime().block_on(async {
        create(&client, &def).await;
        let accounts: Vec<Account> = (0..5)
            .map(|i| Account { id: "a7".into(), region: format!("r{i:02}"), status: "OPEN".into(), revision: 0 })
            .collect();
        for a in &accounts {
            put_item(&client, "accounts_read", a, PutMode::Create).await.unwrap();
        }
        for n in 0..3 {
            let note = AccountNote { id: "a7".into(), n, text: format!("note {n}") };
            put_item(&client, "accounts_read", &note, PutMode::Create).await.unwrap();
        }
        let stored: Vec<Account> = accounts.iter().map(|a| Account { revision: 1, ..a.clone() }).collect();

        // The partition, two accounts a page: the notes beside them are not read.
        let pk = AccountPk { id: "a7".into() };
        let all = Account::query(&pk).unwrap();
        let (mut read, mut start, mut pages) = (Vec::new(), None, 0);
        loop {
            let page = query_page(&client, "accounts_read", &all, start.as_ref(), 2).await.unwrap();
            pages += 1;
            assert!(page.entities.len() <= 2);
            read.extend(page.entities);
            match page.next {
                Some(next) => start = Some(next),
                None => break,
            }
        }
        assert_eq!(read, stored, "every account once, in key order");
        assert!(pages >= 3, "{pages} pages of at most 2");
        let later = all.sort(AccountSk::query().region_range().gte("r03").unwrap());
        let page = query_page(&client, "accounts_read", &later, None, 10).await.unwrap();
        assert_eq!(page.entities, stored[3..]);
        let notes = AccountNote::query(&AccountNotePk { id: "a7".into() }).unwrap();
        let page = query_page(&client, "accounts_read", &notes, None, 10).await.unwrap();
        assert_eq!(page.entities.iter().map(|n| n.n).collect::<Vec<_>>(), [0, 1, 2]);

        // An index's pages, the cursor its index key with the primary key.
        let open = Account::by_status(&AccountByStatusPk { status: "OPEN".into() }).unwrap();
        let first = query_page(&client, "accounts_read", &open, None, 3).await.unwrap();
        assert_eq!(first.entities.len(), 3);
        let rest = query_page(&client, "accounts_read", &open, first.next.as_ref(), 3).await.unwrap();
        let mut both = [first.entities, rest.entities].concat();
        // One index key for all five: DynamoDB promises no order among them, so compare as a set.
        both.sort_by(|a, b| a.region.cmp(&b.region));
        assert_eq!(both, stored);

        // One entity by its key, or none.
        let key = ItemKey::new(pk.clone(), AccountSk { region: "r01".into() });
        assert_eq!(get_item::<Account>(&client, "accounts_read", &key).await.unwrap(), Some(stored[1].clone()));
        let none = ItemKey::new(pk.clone(), AccountSk { region: "zz".into() });
        assert_eq!(get_item::<Account>(&client, "accounts_read", &none).await.unwrap(), None);

        // A delete of a stale copy, of the current one, and of a missing one.
        let closed = Account { status: "CLOSED".into(), ..stored[1].clone() };
        update_item(&client, "accounts_read", &closed).await.unwrap();
        let e = delete_item(&client, "accounts_read", &stored[1]).await.unwrap_err();
        assert_eq!(e.kind(), &ItemErrorKind::VersionConflict { expected: 1 }, "{e}");
        let current = get_item::<Account>(&client, "accounts_read", &key).await.unwrap().unwrap();
        delete_item(&client, "accounts_read", &current).await.unwrap();
        assert_eq!(get_item::<Account>(&client, "accounts_read", &key).await.unwrap(), None);
        let e = delete_item(&client, "accounts_read", &current).await.unwrap_err();
        assert_eq!(e.kind(), &ItemErrorKind::Missing, "{e}");
    });
}

/// The lost attribute: an application adds `note` to every old item after the backfill's Scan
/// read it (an UpdateItem guarded by `attribute_exists`, bumping `rev`), then the backfill moves
/// the items it read. Comparing the scanned attributes alone (the gap `compare_attributes`
/// documents) deletes the notes with the old items; declaring `note` as an attribute the
/// application may add, or the version `rev`, refuses each of those moves; the backfill then reads
/// the item again and moves it as it is now, with its note.
#[test]
fn backfill_never_deletes_a_write_made_after_the_scan() {
    use backfill::*;
    use sortkey_core::dynamodb::Backfill;
    let Some(server) = server_or_skip("backfill_never_deletes_a_write_made_after_the_scan") else { return };
    let client = client(&server.endpoint);
    const N: u64 = 20;
    // The application's write after the Scan: a note and, where the application keeps a
    // version, the next version.
    let refill = |client: Client, bump: bool| async move {
        for (sk, _) in everything(&client).await {
            let pk = format!("SEASON#{}", decode(&sk).key.score / 10 % 4);
            let key = std::collections::HashMap::from([
                ("pk".to_owned(), AttributeValue::S(pk)),
                ("sk".to_owned(), AttributeValue::S(sk)),
            ]);
            client.delete_item().table_name(TABLE).set_key(Some(key)).send().await.unwrap();
        }
        for i in 0..N {
            let sk = RankKeyV1 { score: i * 10, player: format!("p{i:02}") }.encode().unwrap();
            let mut it = item(i % 4, sk, "old");
            it.insert("rev".into(), AttributeValue::N("1".into()));
            client.put_item().table_name(TABLE).set_item(Some(it)).send().await.unwrap();
        }
        let scan = client.scan().table_name(TABLE).consistent_read(true).send().await.unwrap();
        let scanned = scan.items().to_vec();
        let expression = if bump { "SET note = :n, rev = rev + :one" } else { "SET note = :n" };
        let mut values = std::collections::HashMap::from([(":n".to_owned(), AttributeValue::S("acknowledged".into()))]);
        if bump {
            values.insert(":one".to_owned(), AttributeValue::N("1".into()));
        }
        for it in &scanned {
            let key = std::collections::HashMap::from([
                ("pk".to_owned(), it["pk"].clone()),
                ("sk".to_owned(), it["sk"].clone()),
            ]);
            client
                .update_item()
                .table_name(TABLE)
                .set_key(Some(key))
                .update_expression(expression)
                .condition_expression("attribute_exists(pk)")
                .set_expression_attribute_values(Some(values.clone()))
                .send()
                .await
                .unwrap();
        }
        scanned
    };
    let notes = |client: Client| async move {
        let scan = client.scan().table_name(TABLE).consistent_read(true).send().await.unwrap();
        scan.items().iter().filter(|i| i.contains_key("note")).count() as u64
    };
    runtime().block_on(async {
        create_table(&client).await;
        let base = || Backfill::new(&client, TABLE, KeyNames::DEFAULT).page_size(50);
        // No move check chosen: the backfill refuses to run rather than pick one.
        let e = base().rewrite_items::<RankKey>(&[]).await.unwrap_err();
        assert_eq!(e.kind(), &sortkey_core::dynamodb::BackfillErrorKind::Config);

        // The gap, reproduced: the scanned attributes alone do not see the note.
        let scanned = refill(client.clone(), false).await;
        let done = base().compare_attributes(&[]).rewrite_items::<RankKey>(&scanned).await.unwrap();
        assert_eq!((done.rewritten, done.changed), (N, 0));
        assert_eq!(notes(client.clone()).await, 0, "every acknowledged note was lost with its old item");

        for check in ["may_add", "version"] {
            let scanned = refill(client.clone(), check == "version").await;
            let bf = match check {
                "may_add" => base().compare_attributes(&["note"]),
                _ => base().version_attribute("rev"),
            };
            let done = bf.rewrite_items::<RankKey>(&scanned).await.unwrap();
            assert_eq!((done.rewritten, done.changed), (N, 0), "{check}: every item read again and moved");
            assert_eq!(notes(client.clone()).await, N, "{check}: the moved items carry their notes");
            assert_eq!(done.old_left(), 0);
            // A pass over the table finds nothing left: the verdict.
            let verdict = bf.run_until_clean::<RankKey>(2, 5).await.unwrap();
            assert!(verdict.complete, "{check}: {verdict}");
            assert_eq!(verdict.passes.len(), 1, "{check}: {verdict:?}");
            assert!(verdict.to_string().starts_with("complete after 1 pass:"), "{verdict}");
            let old = everything(&client).await.iter().filter(|(sk, _)| !decode(sk).is_current()).count();
            assert_eq!(old, 0, "{check}: every item in the current layout");
        }
    });
}

/// A checkpoint that fails its third save, as a worker killed after a page's moves and before
/// their checkpoint would.
struct Crashing {
    inner: sortkey_core::dynamodb::FileCheckpoint,
    saves: u32,
}

impl sortkey_core::dynamodb::Checkpoint for Crashing {
    async fn load(
        &mut self,
        segment: i32,
        total: i32,
    ) -> Result<
        (sortkey_core::dynamodb::SegmentCursor, sortkey_core::dynamodb::Progress),
        sortkey_core::dynamodb::CheckpointError,
    > {
        self.inner.load(segment, total).await
    }

    async fn save(
        &mut self,
        cursor: &sortkey_core::dynamodb::SegmentCursor,
        progress: &sortkey_core::dynamodb::Progress,
    ) -> Result<(), sortkey_core::dynamodb::CheckpointError> {
        self.saves += 1;
        if self.saves == 3 {
            return Err(sortkey_core::dynamodb::CheckpointError::Store("killed".into()));
        }
        self.inner.save(cursor, progress).await
    }
}

/// Checkpoints: a worker saves its cursor after every page into a file and, killed after a
/// page's moves and before their save, resumes from the file on the next run, which moves
/// nothing twice; a lease table gives a segment to one worker at a time, and another takes it
/// over from the last save once the lease expires, the first then losing it on its next save.
#[test]
fn backfill_checkpoints_and_leases() {
    use backfill::*;
    use sortkey_core::dynamodb::{
        BackfillErrorKind, Checkpoint, CheckpointError, FileCheckpoint, SegmentCursor, TableCheckpoint,
    };
    let Some(server) = server_or_skip("backfill_checkpoints_and_leases") else { return };
    let client = client(&server.endpoint);
    let dir = std::env::temp_dir().join(format!("sortkey-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    runtime().block_on(async {
        create_table(&client).await;
        for i in 0..40u64 {
            let sk = RankKeyV1 { score: i * 10, player: format!("p{i:02}") }.encode().unwrap();
            client.put_item().table_name(TABLE).set_item(Some(item(i % 8, sk, "old"))).send().await.unwrap();
        }
        let bf = backfill(&client);
        let mut crashing = Crashing { inner: FileCheckpoint::new(&dir), saves: 0 };
        let e = bf.run_checkpointed::<RankKey, _>(0, 1, &mut crashing).await.unwrap_err();
        assert!(matches!(e.kind(), BackfillErrorKind::Checkpoint(CheckpointError::Store(_))), "{e}");
        let (saved, _) = FileCheckpoint::new(&dir).load(0, 1).await.unwrap();
        assert!(saved.after.is_some() && !saved.done, "two pages saved: {saved:?}");
        let (cursor, rest) = bf.run_checkpointed::<RankKey, _>(0, 1, &mut FileCheckpoint::new(&dir)).await.unwrap();
        assert!(cursor.done, "{rest:?}");
        let all = everything(&client).await;
        assert_eq!(all.len(), 40, "none lost, none twice");
        assert!(all.iter().all(|(sk, _)| decode(sk).is_current()), "every item moved");

        create(&client, &TableDefinition::new("leases", KeyNames::DEFAULT)).await;
        let lease = |owner: &str| {
            TableCheckpoint::new(
                client.clone(),
                "leases",
                KeyNames::DEFAULT,
                "rank-v2",
                owner,
                Duration::from_millis(400),
            )
        };
        let (mut a, mut b) = (lease("a"), lease("b"));
        let (start, _) = a.load(3, 4).await.unwrap();
        assert_eq!(start, SegmentCursor::start(3, 4));
        let mut moved = start.clone();
        moved.after = Some(("SEASON#1".into(), "RUN#x".into()));
        a.save(&moved, &Default::default()).await.unwrap();
        match b.load(3, 4).await {
            Err(CheckpointError::Taken { segment: 3, owner, .. }) => assert_eq!(owner, "a"),
            other => panic!("expected the segment taken by a, found {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(600)).await;
        let (resumed, _) = b.load(3, 4).await.expect("an expired lease is taken over");
        assert_eq!(resumed, moved, "from a's last save");
        let e = a.save(&moved, &Default::default()).await.unwrap_err();
        assert!(matches!(e, CheckpointError::Taken { ref owner, .. } if owner == "b"), "{e}");
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Workers on many machines: three worker processes (`backfill-worker`, one segment each from
/// `JOB_COMPLETION_INDEX`, their places in a lease table) migrate the table while the test kills
/// them with SIGKILL at random moments and restarts them, and an application writes meanwhile as
/// the README says it must (reading either layout, writing conditionally on the key and version
/// it read, adding attributes and bumping the version), and inserts new items. Afterwards every
/// item is in the current layout exactly once, and every acknowledged write is on it. moto
/// answers one request at a time, as DynamoDB isolates them.
#[test]
fn workers_killed_and_restarted_lose_nothing() {
    use backfill::*;
    use sortkey_core::dynamodb::Backfill;
    let Some(server) = sortkey_tests::server::serialized_server_or_skip("workers_killed_and_restarted_lose_nothing")
    else {
        return;
    };
    let client = client(&server.endpoint);
    const ITEMS: u64 = 90;
    const WORKERS: i32 = 3;
    let rt = runtime();
    rt.block_on(async {
        create_table(&client).await;
        create(&client, &TableDefinition::new("leases", KeyNames::DEFAULT)).await;
        for i in 0..ITEMS {
            let sk = RankKeyV1 { score: i * 10, player: format!("p{i:03}") }.encode().unwrap();
            let mut it = item(i % 3, sk, "old");
            it.insert("rev".into(), AttributeValue::N("1".into()));
            client.put_item().table_name(TABLE).set_item(Some(it)).send().await.unwrap();
        }
    });
    let worker = |index: i32| {
        std::process::Command::new(env!("CARGO_BIN_EXE_backfill-worker"))
            .args([server.endpoint.as_str(), TABLE, &WORKERS.to_string(), "45"])
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("a worker process")
    };
    // A small deterministic generator: the kills and the writes differ from step to step, and
    // alike from run to run.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut running: Vec<(i32, std::process::Child, u32)> = (0..WORKERS).map(|i| (i, worker(i), 0)).collect();
    let (mut kills, mut acknowledged, mut inserted) = (0, Vec::new(), Vec::new());
    let started = std::time::Instant::now();
    while !running.is_empty() {
        assert!(started.elapsed() < Duration::from_secs(120), "the workers did not finish");
        // The application: a few writes between looks at the workers.
        for _ in 0..3 {
            let i = random(ITEMS);
            if let Some(note) = rt.block_on(write_note(&client, i, random(1000))) {
                acknowledged.push((format!("p{i:03}"), note));
            }
        }
        if random(4) == 0 {
            let i = ITEMS + inserted.len() as u64;
            rt.block_on(insert_current(&client, i));
            inserted.push(format!("p{i:03}"));
        }
        let mut next = Vec::new();
        for (index, mut child, killed) in running {
            match child.try_wait().unwrap() {
                Some(status) if status.success() => {}
                // Its segment's lease is still a dead worker's: start it again.
                Some(_) => next.push((index, worker(index), killed)),
                None if killed < 2 && random(5) == 0 => {
                    child.kill().unwrap();
                    child.wait().unwrap();
                    kills += 1;
                    next.push((index, worker(index), killed + 1));
                }
                None => next.push((index, child, killed)),
            }
        }
        running = next;
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(kills > 0, "some worker was killed");
    rt.block_on(async {
        // Items the application changed while a worker moved them are left for another pass.
        let bf = Backfill::new(&client, TABLE, KeyNames::DEFAULT).version_attribute("rev").page_size(20);
        let verdict = bf.run_until_clean::<RankKey>(WORKERS, 5).await.unwrap();
        assert!(verdict.complete, "{verdict}");
        let scan = client.scan().table_name(TABLE).consistent_read(true).send().await.unwrap();
        let items = scan.items();
        assert_eq!(items.len() as u64, ITEMS + inserted.len() as u64, "every item once ({kills} kills)");
        for it in items {
            assert!(decode(it["sk"].as_s().unwrap()).is_current(), "in the current layout: {it:?}");
        }
        for (player, note) in &acknowledged {
            let found = items.iter().find(|it| decode(it["sk"].as_s().unwrap()).key.player == *player);
            let found = found.unwrap_or_else(|| panic!("{player} is in the table"));
            assert!(found.contains_key(note), "{player}: the acknowledged {note} survived ({kills} kills)");
        }
        eprintln!("{kills} kills, {} acknowledged writes, {} inserts; {verdict}", acknowledged.len(), inserted.len());
    });
}

/// The application's write of `note_<n>` to player `i`, as the README says writers must during
/// a migration: read the item under either layout's key, then update it on that key and the
/// version read, bumping it. `None` when the write did not happen (the item moved or changed
/// between the read and the write: the application would read it again).
async fn write_note(client: &Client, i: u64, n: u64) -> Option<String> {
    use backfill::{RankKey, RankKeyV1};
    let (score, player) = (i * 10, format!("p{i:03}"));
    let pk = AttributeValue::S(format!("SEASON#{}", i % 3));
    let keys = [
        RankKey { score, player: player.clone() }.encode().unwrap(),
        RankKeyV1 { score, player: player.clone() }.encode().unwrap(),
    ];
    for sk in keys {
        let key =
            std::collections::HashMap::from([("pk".to_owned(), pk.clone()), ("sk".to_owned(), AttributeValue::S(sk))]);
        let got = client.get_item().table_name(TABLE).set_key(Some(key.clone())).consistent_read(true).send().await;
        let Some(item) = got.unwrap().item().cloned() else { continue };
        let note = format!("note_{n}");
        let written = client
            .update_item()
            .table_name(TABLE)
            .set_key(Some(key))
            .update_expression("SET #note = :v, rev = rev + :one")
            .condition_expression("attribute_exists(pk) AND rev = :rev")
            .expression_attribute_names("#note", &note)
            .expression_attribute_values(":v", AttributeValue::S("acknowledged".into()))
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .expression_attribute_values(":rev", item["rev"].clone())
            .send()
            .await;
        return written.ok().map(|_| note);
    }
    None
}

/// A new item in the current layout, as the application inserts one during the migration.
async fn insert_current(client: &Client, i: u64) {
    use backfill::RankKey;
    let sk = RankKey { score: i * 10, player: format!("p{i:03}") }.encode().unwrap();
    let mut it = backfill::item(i % 3, sk, "new");
    it.insert("rev".into(), AttributeValue::N("1".into()));
    let put = client.put_item().table_name(TABLE).set_item(Some(it)).condition_expression("attribute_not_exists(pk)");
    put.send().await.expect("a new item");
}

/// The score of three generations of a leaderboard key: 8 digits, then 10, now 12.
mod generations {
    use sortkey_core::SortKey;

    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN")]
    pub(crate) struct ScoreV1 {
        #[key(width = 8, desc)]
        pub(crate) score: u64,
        pub(crate) player: String,
    }

    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN")]
    pub(crate) struct ScoreV2 {
        #[key(width = 10, desc)]
        pub(crate) score: u64,
        pub(crate) player: String,
    }

    #[derive(SortKey, Debug, Clone, PartialEq)]
    #[key(prefix = "RUN", legacy = ScoreV2, legacy = ScoreV1)]
    pub(crate) struct Score {
        #[key(width = 12, desc)]
        pub(crate) score: u64,
        pub(crate) player: String,
    }

    impl From<ScoreV2> for Score {
        fn from(old: ScoreV2) -> Self {
            Score { score: old.score, player: old.player }
        }
    }

    impl From<ScoreV1> for Score {
        fn from(old: ScoreV1) -> Self {
            Score { score: old.score, player: old.player }
        }
    }
}

/// A partition holding three layouts of one key mid-migration (one key in two of them, as a
/// backfill leaves it between its put and its delete): one condition on the current type gives
/// the condition of each layout in one call, one Query each on the server, and the pages merged
/// hold every key the condition selects once, in the current order, and nothing else.
#[test]
fn a_typed_query_across_three_layouts_returns_each_selected_key_once() {
    use generations::{Score, ScoreV1, ScoreV2};
    use sortkey_core::query::Comparison;
    use sortkey_core::{DynValue, FieldCondition, merge_version_pages};
    let Some(server) = server_or_skip("a_typed_query_across_three_layouts_returns_each_selected_key_once") else {
        return;
    };
    let client = client(&server.endpoint);
    let pk = "SEASON#3";
    let mut items: Vec<(String, String)> = Vec::new();
    let mut put = |sk: String| items.push((pk.to_owned(), sk));
    for i in 0..40u64 {
        let player = format!("p{i}");
        match i % 3 {
            0 => put(Score { score: i * 3_000_000, player }.encode().unwrap()),
            1 => put(ScoreV2 { score: i * 3_000_000, player }.encode().unwrap()),
            _ => put(ScoreV1 { score: i * 2_000_000, player }.encode().unwrap()),
        }
    }
    // A key in the middle of its move: the current copy and the old one.
    put(Score { score: 60_000_000, player: "moving".into() }.encode().unwrap());
    put(ScoreV2 { score: 60_000_000, player: "moving".into() }.encode().unwrap());
    // An old key far below the range whose bytes fall inside the current layout's range
    // (RUN#99993000 sorts between RUN#999929999999 and RUN#999979999999): never a result.
    let trap = ScoreV1 { score: 6_999, player: "trap".into() }.encode().unwrap();
    put(trap.clone());
    let condition =
        FieldCondition::new().between("score", DynValue::Unsigned(20_000_000), DynValue::Unsigned(70_000_000));
    let expected: Vec<(u64, String)> = {
        let mut all: Vec<(u64, String)> = (0..40u64)
            .map(|i| (if i % 3 == 2 { i * 2_000_000 } else { i * 3_000_000 }, format!("p{i}")))
            .chain([(60_000_000, "moving".to_owned())])
            .filter(|(s, _)| (20_000_000..=70_000_000).contains(s))
            .collect();
        all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        all
    };
    runtime().block_on(async {
        create_table(&client).await;
        put_all(&client, &items).await;
        let conditions = condition.on_versions::<Score>().unwrap();
        assert_eq!(conditions.len(), 3, "the current layout and its two older ones");
        let mut pages = Vec::new();
        for c in &conditions {
            let keys = match c {
                Some(c) => query(&client, pk, c, true, Some(7)).await,
                None => Vec::new(),
            };
            pages.push(keys.into_iter().map(|k| (k, ())).collect::<Vec<_>>());
        }
        assert!(pages[0].iter().any(|(k, ())| *k == trap), "the current layout's query returns the old key");
        let merged = merge_version_pages::<Score, ()>(pages, true);
        let found: Vec<(u64, String)> = merged.iter().map(|(k, ())| (k.key.score, k.key.player.clone())).collect();
        assert_eq!(found, expected, "each selected key once, highest first");
        let moving = merged.iter().find(|(k, ())| k.key.player == "moving").unwrap();
        assert!(moving.0.is_current(), "the current copy wins");
        // ScoreV1 holds at most 99,999,999: a bound above it leaves its query out.
        let above = FieldCondition::new().compare("score", Comparison::Gt, DynValue::Unsigned(100_000_000));
        assert!(above.on_versions::<Score>().unwrap()[2].is_none());
    });
}
