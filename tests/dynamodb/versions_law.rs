//! The law of reads across layout versions on the server, page by page: generated migrations in
//! progress (tests/src/versions.rs: widths, `desc`, field order and prefixes drawn at random,
//! items in either layout or both), each written into a partition of its own and read by the
//! paged read across versions (`VersionsQuery`) with the conditions a typed read makes
//! (`LiveLayouts::enclosing_conditions`) and those the command makes by field names
//! (`LiveLayouts::conditions`), both directions, pages of 2 and of 50: the pages joined are the
//! oracle, what the condition selects once every item is in the current layout.

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use sortkey_core::dynamodb::VersionsQuery;
use sortkey_core::{KeyCondition, KeyNames, LiveLayouts, TableDefinition};
use sortkey_tests::server::{client, runtime, server_or_skip};
use sortkey_tests::versions::versions_case;

const TABLE: &str = "versions_law";
/// Generated cases read on the server (each a partition; the in-memory law runs 1,000).
const CASES: usize = 16;

/// Every page of the read, joined; each page at most `limit`.
async fn pages(
    client: &aws_sdk_dynamodb::Client,
    query: &VersionsQuery<'_>,
    live: &LiveLayouts<'_>,
    conditions: &[Option<KeyCondition>],
) -> Vec<String> {
    let (mut got, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let page = query.run(client, live, conditions, cursor.as_deref()).await.unwrap();
        assert!(page.results.results.len() <= query.limit, "a page over its limit");
        got.extend(page.results.results.iter().map(|r| r.current_key.clone()));
        match page.next {
            Some(next) => cursor = Some(next),
            None => return got,
        }
        assert!(got.len() <= 200, "the pages end");
    }
}

#[test]
fn a_read_across_generated_layout_versions_pages_exactly_on_the_server() {
    let Some(server) = server_or_skip("a_read_across_generated_layout_versions_pages_exactly_on_the_server") else {
        return;
    };
    let client = client(&server.endpoint);
    let mut runner = TestRunner::deterministic();
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let case = versions_case().new_tree(&mut runner).unwrap().current();
        let layouts = case.layouts();
        let condition = case.condition.on(&layouts.current);
        if case.unambiguous(&layouts) && matches!(condition, Ok(Some(_))) {
            cases.push(case);
        }
    }
    runtime().block_on(async {
        super::create(&client, &TableDefinition::new(TABLE, KeyNames::DEFAULT)).await;
        for (n, case) in cases.iter().enumerate() {
            let partition = format!("CASE#{n}");
            let layouts = case.layouts();
            let keys = case.stored_keys(&layouts);
            for chunk in keys.chunks(25) {
                let writes = chunk.iter().map(|sk| {
                    let put = PutRequest::builder()
                        .item("pk", AttributeValue::S(partition.clone()))
                        .item("sk", AttributeValue::S(sk.clone()))
                        .build()
                        .unwrap();
                    WriteRequest::builder().put_request(put).build()
                });
                client.batch_write_item().request_items(TABLE, writes.collect()).send().await.unwrap();
            }
            let live = layouts.live();
            let current = case.condition.on(&layouts.current).unwrap().unwrap();
            let typed = live.enclosing_conditions(&current).unwrap();
            let by_fields = live.conditions(&case.condition).unwrap();
            for forward in [true, false] {
                let want = case.oracle(&layouts, &current, forward);
                for (limit, conditions, how) in
                    [(2, &typed, "typed"), (50, &typed, "typed"), (50, &by_fields, "by fields")]
                {
                    let query = VersionsQuery {
                        table: TABLE,
                        partition: &partition,
                        partition_attribute: "pk",
                        sort_attribute: "sk",
                        forward,
                        limit,
                    };
                    let got = pages(&client, &query, &live, conditions).await;
                    assert_eq!(got, want, "{how}, pages of {limit}, forward {forward}: {case:?}");
                }
            }
        }
    });
}
