//! A service's own typed reads in the middle of a migration: an entity whose sort key widened
//! `ticket_no` from 6 to 10 digits (`legacy = TicketSkV1`), a partition holding tickets in both
//! layouts (one copied and not yet deleted), read through `query_page` with typed conditions and
//! a typed cursor. Every page is held to the oracle: the tickets the condition selects once the
//! migration completes, once each, in the current layout's order.

use std::cmp::Reverse;

use aws_sdk_dynamodb::Client;
use serde::{Deserialize, Serialize};
use sortkey_core::dynamodb::{EntityItem, PutMode, put_item, query_page};
use sortkey_core::{Entity, KeyCondition, SortKey, TableDefinition};
use sortkey_tests::server::{client, runtime, server_or_skip};

/// The sort key before `ticket_no` grew.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "TICKET")]
pub(crate) struct TicketSkV1 {
    #[key(width = 13, desc)]
    created_ms: u64,
    #[key(width = 6)]
    ticket_no: u32,
}

impl From<TicketSkV1> for TicketSk {
    fn from(old: TicketSkV1) -> Self {
        TicketSk { created_ms: old.created_ms, ticket_no: old.ticket_no }
    }
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "PROJ", project),
    sk(prefix = "TICKET", legacy = TicketSkV1, created_ms(width = 13, desc), ticket_no(width = 10))
)]
pub(crate) struct Ticket {
    project: String,
    created_ms: u64,
    ticket_no: u32,
    title: String,
}

const TABLE: &str = "tickets_typed";
const T: u64 = 1_719_100_800_000;

fn ticket(created_ms: u64, ticket_no: u32) -> Ticket {
    Ticket { project: "p1".into(), created_ms, ticket_no, title: format!("ticket {ticket_no}") }
}

/// Writes `t` under its key in the older layout, as the service wrote it before the change.
async fn put_old(client: &Client, t: &Ticket) {
    let mut item = t.to_item().unwrap();
    let old = TicketSkV1 { created_ms: t.created_ms, ticket_no: t.ticket_no }.encode().unwrap();
    item.insert("sk".into(), aws_sdk_dynamodb::types::AttributeValue::S(old));
    client.put_item().table_name(TABLE).set_item(Some(item)).send().await.unwrap();
}

/// Every page of `query`, `limit` at a time, through the typed cursor.
async fn pages(client: &Client, query: &sortkey_core::TableQuery<Ticket>, limit: i32) -> Vec<Vec<u32>> {
    let (mut out, mut start) = (Vec::new(), None);
    loop {
        let page = query_page(client, TABLE, query, start.as_ref(), limit).await.unwrap();
        assert!(page.entities.len() <= limit as usize, "a page holds at most its limit");
        out.push(page.entities.iter().map(|t| t.ticket_no).collect());
        match page.next {
            Some(next) => start = Some(next),
            None => return out,
        }
        assert!(out.len() < 100, "the pages end");
    }
}

#[test]
fn typed_reads_mid_migration_return_what_they_return_after_it() {
    let Some(server) = server_or_skip("typed_reads_mid_migration_return_what_they_return_after_it") else { return };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Ticket>(TABLE);
    // Tickets 1..=5 created in one millisecond, 2 and 4 moved; others a millisecond either side;
    // ticket 6 copied into the current layout and its old item not yet deleted.
    let new = [ticket(T, 2), ticket(T, 4), ticket(T - 1, 40), ticket(T + 1, 7), ticket(T, 6)];
    let old = [ticket(T, 1), ticket(T, 3), ticket(T, 5), ticket(T - 1, 9), ticket(T + 1, 300_000), ticket(T, 6)];
    let mut logical: Vec<Ticket> = new.iter().chain(&old).cloned().collect();
    logical.sort_by_key(|t| (Reverse(t.created_ms), t.ticket_no));
    logical.dedup();
    let pk = TicketPk { project: "p1".into() };
    runtime().block_on(async {
        super::create(&client, &def).await;
        for t in &new {
            put_item(&client, TABLE, t, PutMode::Create).await.unwrap();
        }
        for t in &old {
            put_old(&client, t).await;
        }

        // The rows of the issue: an old key inside the new byte range is no result, an old key
        // below the bound is one, and pages of 2 over one millisecond cross the layouts.
        let at_t = Ticket::query(&pk).unwrap();
        let q = at_t.clone().sort(TicketSk::query().created_ms(T).ticket_no_range().gte(30).unwrap());
        assert_eq!(pages(&client, &q, 10).await, [Vec::<u32>::new()], "ticket_no >= 30 at T: none");
        let q = at_t.clone().sort(TicketSk::query().created_ms(T).ticket_no_range().lte(5).unwrap());
        assert_eq!(pages(&client, &q, 10).await, [vec![1, 2, 3, 4, 5]], "ticket_no <= 5 at T");
        let q = at_t.clone().sort(TicketSk::query().created_ms(T).begins_with().unwrap());
        assert_eq!(pages(&client, &q, 2).await, [vec![1, 2], vec![3, 4], vec![5, 6]]);

        // Every condition shape, every limit, against the oracle.
        type Pred = Box<dyn Fn(&Ticket) -> bool>;
        let cases: Vec<(&str, KeyCondition, Pred)> = vec![
            ("the entity's own range", at_t.partition_query().condition().unwrap().clone(), Box::new(|_| true)),
            (
                "created_ms >= T",
                TicketSk::query().created_ms_range().gte(T).unwrap(),
                Box::new(|t: &Ticket| t.created_ms >= T),
            ),
            (
                "created_ms < T",
                TicketSk::query().created_ms_range().lt(T).unwrap(),
                Box::new(|t: &Ticket| t.created_ms < T),
            ),
            (
                "created_ms between T-1 and T",
                TicketSk::query().created_ms_range().between(T - 1, T).unwrap(),
                Box::new(|t: &Ticket| (T - 1..=T).contains(&t.created_ms)),
            ),
            (
                "created_ms = T, ticket_no > 3",
                TicketSk::query().created_ms(T).ticket_no_range().gt(3).unwrap(),
                Box::new(|t: &Ticket| t.created_ms == T && t.ticket_no > 3),
            ),
            (
                "created_ms = T, ticket_no < 4",
                TicketSk::query().created_ms(T).ticket_no_range().lt(4).unwrap(),
                Box::new(|t: &Ticket| t.created_ms == T && t.ticket_no < 4),
            ),
            (
                "created_ms = T, ticket_no between 2 and 5",
                TicketSk::query().created_ms(T).ticket_no_range().between(2, 5).unwrap(),
                Box::new(|t: &Ticket| t.created_ms == T && (2..=5).contains(&t.ticket_no)),
            ),
            (
                "created_ms = T+1, ticket_no >= 1000",
                TicketSk::query().created_ms(T + 1).ticket_no_range().gte(1000).unwrap(),
                Box::new(|t: &Ticket| t.created_ms == T + 1 && t.ticket_no >= 1000),
            ),
            (
                "one ticket, by its whole key",
                TicketSk::query().created_ms(T).ticket_no(3).eq().unwrap(),
                Box::new(|t: &Ticket| t.created_ms == T && t.ticket_no == 3),
            ),
        ];
        for (name, condition, pred) in &cases {
            let want: Vec<u32> = logical.iter().filter(|t| pred(t)).map(|t| t.ticket_no).collect();
            let q = at_t.clone().sort(condition.clone());
            for limit in [1, 2, 3, 50] {
                let got = pages(&client, &q, limit).await;
                let flat: Vec<u32> = got.iter().flatten().copied().collect();
                assert_eq!(flat, want, "{name}, pages of {limit}: {got:?}");
                let full = got.iter().rev().skip(1).all(|p| p.len() == limit as usize);
                assert!(full, "{name}, pages of {limit}: every page but the last is full: {got:?}");
            }
        }

        // The cost is reported: one Query per layout at least.
        let page = query_page(&client, TABLE, &at_t, None, 50).await.unwrap();
        assert_eq!(page.entities.len(), logical.len());
        assert!(
            page.requests >= 2 && page.read >= page.entities.len(),
            "{} requests, {} read",
            page.requests,
            page.read
        );
    });
}

/// The raw item under `sk` in partition `PROJ#p1`, read consistently.
async fn raw(client: &Client, table: &str, sk: String) -> Option<sortkey_core::dynamodb::Attributes> {
    use aws_sdk_dynamodb::types::AttributeValue;
    let got = client
        .get_item()
        .table_name(table)
        .key("pk", AttributeValue::S("PROJ#p1".into()))
        .key("sk", AttributeValue::S(sk))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    got.item().cloned()
}

/// A point read finds a ticket not yet moved under its older key and says so; an update moves it
/// to the current key as updated, keeping what another writer added to it; a delete removes it
/// where it is; a ticket in both layouts is updated at its current key; a missing one is missing.
#[test]
fn point_reads_and_writes_act_on_the_key_an_item_is_stored_under() {
    use aws_sdk_dynamodb::types::AttributeValue;
    use sortkey_core::ItemKey;
    use sortkey_core::dynamodb::{ItemErrorKind, delete_item, get_item, get_stored, update_item};
    let Some(server) = server_or_skip("point_reads_and_writes_act_on_the_key_an_item_is_stored_under") else {
        return;
    };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Ticket>(TABLE_POINT);
    let old_key = |t: &Ticket| TicketSkV1 { created_ms: t.created_ms, ticket_no: t.ticket_no }.encode().unwrap();
    let new_key = |t: &Ticket| TicketSk { created_ms: t.created_ms, ticket_no: t.ticket_no }.encode().unwrap();
    let pk = TicketPk { project: "p1".into() };
    let key = |t: &Ticket| ItemKey::new(pk.clone(), TicketSk { created_ms: t.created_ms, ticket_no: t.ticket_no });
    runtime().block_on(async {
        super::create(&client, &def).await;
        let put_old = |t: Ticket, extra: bool| {
            let client = client.clone();
            async move {
                let mut item = t.to_item().unwrap();
                item.insert("sk".into(), AttributeValue::S(old_key(&t)));
                if extra {
                    item.insert("note".into(), AttributeValue::S("added by another writer".into()));
                }
                client.put_item().table_name(TABLE_POINT).set_item(Some(item)).send().await.unwrap();
            }
        };
        let unmoved = ticket(T, 11);
        put_old(unmoved.clone(), true).await;

        // The read of the issue: by the current key, an item still under its older key.
        assert_eq!(get_item::<Ticket>(&client, TABLE_POINT, &key(&unmoved)).await.unwrap(), Some(unmoved.clone()));
        let found = get_stored::<Ticket>(&client, TABLE_POINT, &key(&unmoved)).await.unwrap().unwrap();
        assert_eq!((found.sort_version, found.key.1.clone()), (1, old_key(&unmoved)));
        assert!(!found.is_current());

        // An update moves it, as updated, keeping the other writer's attribute; the old key is gone.
        let renamed = Ticket { title: "renamed".into(), ..unmoved.clone() };
        update_item(&client, TABLE_POINT, &renamed).await.unwrap();
        let found = get_stored::<Ticket>(&client, TABLE_POINT, &key(&unmoved)).await.unwrap().unwrap();
        assert_eq!((found.entity, found.sort_version), (renamed.clone(), 0));
        assert!(raw(&client, TABLE_POINT, old_key(&unmoved)).await.is_none(), "the old key is gone");
        let moved = raw(&client, TABLE_POINT, new_key(&unmoved)).await.unwrap();
        assert_eq!(moved["note"], AttributeValue::S("added by another writer".into()));

        // A delete removes an unmoved ticket where it is.
        let doomed = ticket(T, 12);
        put_old(doomed.clone(), false).await;
        delete_item(&client, TABLE_POINT, &doomed).await.unwrap();
        assert!(raw(&client, TABLE_POINT, old_key(&doomed)).await.is_none());
        assert_eq!(get_item::<Ticket>(&client, TABLE_POINT, &key(&doomed)).await.unwrap(), None);

        // A ticket copied and not yet deleted: the update is at its current key, the old copy
        // is left to the migration, which deletes it when unchanged.
        let copied = ticket(T, 13);
        put_old(copied.clone(), false).await;
        sortkey_core::dynamodb::put_item(&client, TABLE_POINT, &copied, PutMode::Create).await.unwrap();
        let retitled = Ticket { title: "retitled".into(), ..copied.clone() };
        update_item(&client, TABLE_POINT, &retitled).await.unwrap();
        let found = get_stored::<Ticket>(&client, TABLE_POINT, &key(&copied)).await.unwrap().unwrap();
        assert_eq!((found.entity, found.sort_version), (retitled, 0));
        assert!(raw(&client, TABLE_POINT, old_key(&copied)).await.is_some());

        // Under no key: missing, and nothing is written.
        let missing = ticket(T, 14);
        let e = update_item(&client, TABLE_POINT, &missing).await.unwrap_err();
        assert!(matches!(e.kind(), ItemErrorKind::Missing), "{e}");
        let e = delete_item(&client, TABLE_POINT, &missing).await.unwrap_err();
        assert!(matches!(e.kind(), ItemErrorKind::Missing), "{e}");
        assert_eq!(get_item::<Ticket>(&client, TABLE_POINT, &key(&missing)).await.unwrap(), None);
    });
}

const TABLE_POINT: &str = "tickets_point";

/// The index's sort key before `ticket_no` grew.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "T")]
pub(crate) struct AssignedSkV1 {
    #[key(width = 13, desc)]
    created_ms: u64,
    #[key(width = 6)]
    ticket_no: u32,
}

impl From<AssignedSkV1> for AssignedByAssigneeSk {
    fn from(old: AssignedSkV1) -> Self {
        AssignedByAssigneeSk { created_ms: old.created_ms, ticket_no: old.ticket_no }
    }
}

/// A ticket found by its assignee: the index's sort key widened, `legacy` on it.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "PROJ", project),
    sk(prefix = "TICKET", ticket_no(width = 10)),
    index(by_assignee(
        name = "gsi1",
        pk(prefix = "A", assignee),
        sk(prefix = "T", legacy = AssignedSkV1, created_ms(width = 13, desc), ticket_no(width = 10))
    ))
)]
pub(crate) struct Assigned {
    project: String,
    ticket_no: u32,
    assignee: String,
    created_ms: u64,
}

const TABLE_INDEX: &str = "tickets_index";

/// An index's typed query mid-migration: tickets of one assignee whose index keys are in either
/// layout, several sharing one index key (tickets of two projects), read through `query_page`
/// with every condition shape and page size and held to the oracle (the tickets the condition
/// selects once every index key is current, in the index key's order and then the primary key's).
#[test]
fn an_index_query_mid_migration_returns_what_it_returns_after_it() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let Some(server) = server_or_skip("an_index_query_mid_migration_returns_what_it_returns_after_it") else {
        return;
    };
    let client = client(&server.endpoint);
    let def = TableDefinition::of::<Assigned>(TABLE_INDEX);
    let mut tickets = Vec::new();
    for project in ["p1", "p2"] {
        for (n, created) in [(1, T), (2, T), (3, T), (4, T), (5, T), (40, T - 1), (7, T + 1), (300_000, T + 1)] {
            tickets.push(Assigned {
                project: project.into(),
                ticket_no: n,
                assignee: "u1".into(),
                created_ms: created,
            });
        }
    }
    // Another assignee's ticket, never a result.
    tickets.push(Assigned { project: "p1".into(), ticket_no: 9, assignee: "u2".into(), created_ms: T });
    let order = |a: &Assigned| {
        let sk = AssignedByAssigneeSk { created_ms: a.created_ms, ticket_no: a.ticket_no }.encode().unwrap();
        (sk, a.project.clone(), a.ticket_no)
    };
    runtime().block_on(async {
        super::create(&client, &def).await;
        for (i, t) in tickets.iter().enumerate() {
            let mut item = t.to_item().unwrap();
            if i % 3 != 1 {
                let old = AssignedSkV1 { created_ms: t.created_ms, ticket_no: t.ticket_no }.encode().unwrap();
                item.insert("gsi1sk".into(), AttributeValue::S(old));
            }
            client.put_item().table_name(TABLE_INDEX).set_item(Some(item)).send().await.unwrap();
        }
        let by = Assigned::by_assignee(&AssignedByAssigneePk { assignee: "u1".into() }).unwrap();
        type Pred = Box<dyn Fn(&Assigned) -> bool>;
        let cases: Vec<(&str, Option<KeyCondition>, Pred)> = vec![
            ("every ticket of the assignee", None, Box::new(|_| true)),
            (
                "created_ms = T, ticket_no >= 30",
                Some(AssignedByAssigneeSk::query().created_ms(T).ticket_no_range().gte(30).unwrap()),
                Box::new(|t: &Assigned| t.created_ms == T && t.ticket_no >= 30),
            ),
            (
                "created_ms = T, ticket_no <= 3",
                Some(AssignedByAssigneeSk::query().created_ms(T).ticket_no_range().lte(3).unwrap()),
                Box::new(|t: &Assigned| t.created_ms == T && t.ticket_no <= 3),
            ),
            (
                "created_ms >= T",
                Some(AssignedByAssigneeSk::query().created_ms_range().gte(T).unwrap()),
                Box::new(|t: &Assigned| t.created_ms >= T),
            ),
            (
                "created_ms = T+1",
                Some(AssignedByAssigneeSk::query().created_ms(T + 1).begins_with().unwrap()),
                Box::new(|t: &Assigned| t.created_ms == T + 1),
            ),
        ];
        for (name, condition, pred) in &cases {
            let mut want: Vec<&Assigned> = tickets.iter().filter(|t| t.assignee == "u1" && pred(t)).collect();
            want.sort_by_key(|t| order(t));
            let want: Vec<(String, u32)> = want.iter().map(|t| (t.project.clone(), t.ticket_no)).collect();
            let q = match condition {
                Some(c) => by.clone().sort(c.clone()),
                None => by.clone(),
            };
            for limit in [1, 2, 3, 50] {
                let (mut got, mut start, mut pages) = (Vec::new(), None, 0);
                loop {
                    let page = query_page(&client, TABLE_INDEX, &q, start.as_ref(), limit).await.unwrap();
                    assert!(page.entities.len() <= limit as usize);
                    got.extend(page.entities.iter().map(|t| (t.project.clone(), t.ticket_no)));
                    pages += 1;
                    assert!(pages < 100, "{name}: the pages end");
                    match page.next {
                        Some(next) => start = Some(next),
                        None => break,
                    }
                }
                assert_eq!(got, want, "{name}, pages of {limit}");
            }
        }
    });
}

/// The sort key of a task before `task_no` grew.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "TASK")]
pub(crate) struct TaskSkV1 {
    #[key(width = 6)]
    task_no: u32,
}

impl From<TaskSkV1> for TaskSk {
    fn from(old: TaskSkV1) -> Self {
        TaskSk { task_no: old.task_no }
    }
}

/// A task: its table sort key widened (`legacy`), its index key unchanged.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(
    pk(prefix = "PROJ", project),
    sk(prefix = "TASK", legacy = TaskSkV1, task_no(width = 10)),
    index(gsi1(pk(prefix = "O", owner), sk(prefix = "D", due(width = 8))))
)]
pub(crate) struct Task {
    project: String,
    task_no: u32,
    owner: String,
    due: u32,
    title: String,
}

/// While the table's own sort key moves, an index query (whose key has no older layout) reads
/// each task once: a task moved and not yet deleted is in the index twice, and the copy under
/// its current key is the one read; tasks sharing a due date page in order of their current
/// primary key, whatever the page size.
#[test]
fn an_index_query_during_a_table_key_move_reads_each_item_once() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let Some(server) = server_or_skip("an_index_query_during_a_table_key_move_reads_each_item_once") else { return };
    let client = client(&server.endpoint);
    const TABLE: &str = "tasks_moving";
    let def = TableDefinition::of::<Task>(TABLE);
    let task = |n: u32, title: &str| Task {
        project: "p1".into(),
        task_no: n,
        owner: "o1".into(),
        due: 20_240_000 + n / 3,
        title: title.into(),
    };
    runtime().block_on(async {
        super::create(&client, &def).await;
        for n in 0..12u32 {
            // n % 3: 0 moved, 1 not yet moved, 2 copied and not yet deleted (the new copy retitled).
            if n % 3 != 1 {
                put_item(&client, TABLE, &task(n, "current"), PutMode::Create).await.unwrap();
            }
            if n % 3 != 0 {
                let mut item = task(n, if n % 3 == 1 { "current" } else { "stale copy" }).to_item().unwrap();
                item.insert("sk".into(), AttributeValue::S(TaskSkV1 { task_no: n }.encode().unwrap()));
                client.put_item().table_name(TABLE).set_item(Some(item)).send().await.unwrap();
            }
        }
        let q = Task::gsi1(&TaskGsi1Pk { owner: "o1".into() }).unwrap();
        for limit in [1, 2, 5, 100] {
            let (mut read, mut start, mut pages) = (Vec::new(), None, 0);
            loop {
                let page = query_page(&client, TABLE, &q, start.as_ref(), limit).await.unwrap();
                assert!(page.entities.len() <= limit as usize);
                read.extend(page.entities);
                pages += 1;
                assert!(pages < 50, "the pages end");
                match page.next {
                    Some(next) => start = Some(next),
                    None => break,
                }
            }
            let want: Vec<Task> = (0..12).map(|n| task(n, "current")).collect();
            assert_eq!(read, want, "pages of {limit}: each task once, the current copy, in order");
        }
    });
}
