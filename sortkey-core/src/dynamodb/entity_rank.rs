//! Writes of a ranked entity (`#[entity(rank(score, levels = 4))]`): the item's put, delete or
//! move and its partition's counter updates in one conditional transaction, so that at every
//! committed state the counters equal the items, and a write that fails changes neither.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem};
use serde_core::Serialize;

use crate::table::entity::Entity;
use crate::table::rank::{RankError, RankedField};

use super::Attributes;
use super::item::{EntityItem, ItemError, ItemErrorKind, PutMode};
use super::rank::{RankBoard, RankFailure};
use super::request::MoveRequest;
use super::written::{conflict, failed_on_existing, request_error, send_put};

impl RankBoard {
    /// The board of an entity that declares a ranked field (`#[entity(rank(score, levels =
    /// 4))]`) in `table`, over `partitions`: its partition key encoded, or each shard's
    /// (`every_shard()`) for a sharded one. An error names the entity when it declares none or
    /// its declaration does not fit its sort key.
    pub fn of_entity<E: Entity>(table: &str, partitions: Vec<String>) -> Result<RankBoard, ItemError> {
        let ranked = RankedField::of_entity::<E>().unwrap_or_else(|| {
            Err(RankError {
                key: E::NAME.to_owned(),
                field: String::new(),
                message: "expected an entity that declares `#[entity(rank(field, levels = N))]`, found none".into(),
            })
        });
        let ranked = ranked.map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Rank(e)))?;
        Ok(RankBoard {
            table: table.to_owned(),
            pk: E::KEYS.partition().to_owned(),
            sk: E::KEYS.sort().unwrap_or_default().to_owned(),
            partitions,
            ranked,
        })
    }
}

/// The board an entity's writes keep, `None` for an entity that declares no ranked field.
pub(super) fn ranked_board<E: Entity>(table: &str) -> Option<Result<RankBoard, ItemError>> {
    E::RANK?;
    Some(RankBoard::of_entity::<E>(table, Vec::new()))
}

/// How many times a ranked write is sent again after a transaction that another write of the
/// same counters cancelled (`TransactionConflict`), or after its item appeared or went away
/// between an overwrite's two tries.
const ATTEMPTS: usize = 4;

/// Puts `entity` and keeps its partition's counters: a new item adds one to them in the same
/// transaction; an item written over one at its key (an overwrite, or a versioned write, which
/// requires the item) changes no count. An overwrite that does not know which it is tries the
/// create first, then the write over the existing item, and again while the item comes and
/// goes between the two.
pub(super) async fn put<E: EntityItem + Serialize>(
    client: &Client,
    table: &str,
    board: &RankBoard,
    entity: &E,
    mode: PutMode,
) -> Result<(), ItemError> {
    let request = entity.put_request(mode)?;
    if entity.version().is_some_and(|v| v > 0) {
        return send_put(client, table, entity, &request, ItemErrorKind::AlreadyExists).await;
    }
    let creates = matches!(mode, PutMode::Create) || entity.version() == Some(0);
    let key = key_of::<E>(board, &request.item)?;
    for _ in 0..ATTEMPTS {
        let mut create = request.clone();
        if !creates {
            create.conditions.names.push(("#e_pk".to_owned(), E::KEYS.partition().to_owned()));
            create.conditions.and("attribute_not_exists(#e_pk)");
        }
        let mut actions = vec![built::<E>(create.to_transact(table))?];
        actions.extend(counters::<E>(board, None, Some(&key))?);
        match send::<E>(client, actions).await? {
            Sent::Done => return Ok(()),
            Sent::Refused if creates => return Err(conflict(entity, ItemErrorKind::AlreadyExists)),
            Sent::Refused => {}
        }
        let mut over = request.clone();
        over.conditions.names.push(("#e_pk".to_owned(), E::KEYS.partition().to_owned()));
        over.conditions.and("attribute_exists(#e_pk)");
        match send_put(client, table, entity, &over, ItemErrorKind::Missing).await {
            Err(e) if matches!(e.kind(), ItemErrorKind::Missing) => {}
            done => return done,
        }
    }
    Err(ItemError::new(E::NAME, ItemErrorKind::Changed))
}

/// Deletes `entity`'s item and takes it off its partition's counters in one transaction. A
/// failed condition is `Missing` or `VersionConflict`, as [`delete_item`](super::delete_item)
/// says, and changes nothing.
pub(super) async fn delete<E: Entity>(
    client: &Client,
    table: &str,
    board: &RankBoard,
    entity: &E,
) -> Result<(), ItemError> {
    let request = entity.delete_request()?;
    let key = key_of::<E>(board, &request.key)?;
    let mut actions = vec![built::<E>(request.to_transact(table))?];
    actions.extend(counters::<E>(board, Some(&key), None)?);
    match send::<E>(client, actions).await? {
        Sent::Done => Ok(()),
        Sent::Refused => {
            let stored = client.get_item().table_name(table).set_key(Some(request.key.clone())).consistent_read(true);
            let stored = stored.send().await.map_err(|e| request_error::<E, _, _>("GetItem", &e))?;
            Err(failed_on_existing(entity, stored.item().is_some_and(|i| !i.is_empty())))
        }
    }
}

/// Moves the item read as `old` to `entity`'s changed key and moves it on the counters (off the
/// old partition's and onto the new one's when the partition changed), in one transaction. A
/// cancelled transaction is `Changed`, and nothing moved.
pub(super) async fn moved<E: EntityItem + Serialize>(
    client: &Client,
    table: &str,
    board: &RankBoard,
    old: &E,
    entity: &E,
) -> Result<(), ItemError> {
    send_move::<E>(client, table, board, &entity.move_from(old)?).await
}

/// Sends a move (from the old item's key, current or older, to the new one) with its counter
/// changes: a key that is on the board leaves or joins it. A cancelled transaction is `Changed`.
pub(super) async fn send_move<E: Entity>(
    client: &Client,
    table: &str,
    board: &RankBoard,
    request: &MoveRequest,
) -> Result<(), ItemError> {
    let (from, to) = (key_of::<E>(board, &request.delete.key)?, key_of::<E>(board, &request.put.item)?);
    let mut actions = vec![built::<E>(request.delete.to_transact(table))?, built::<E>(request.put.to_transact(table))?];
    actions.extend(counters::<E>(board, Some(&from), Some(&to))?);
    match send::<E>(client, actions).await? {
        Sent::Done => Ok(()),
        Sent::Refused => Err(ItemError::new(E::NAME, ItemErrorKind::Changed)),
    }
}

/// An item's partition and sort key, as its key attributes hold them.
type Place = (String, String);

/// The partition and sort key of `attributes` (an item, or a key).
fn key_of<E: Entity>(board: &RankBoard, attributes: &Attributes) -> Result<Place, ItemError> {
    let text = |name: &str| match attributes.get(name) {
        Some(AttributeValue::S(s)) => Ok(s.clone()),
        _ => Err(ItemError::new(
            E::NAME,
            ItemErrorKind::Request(format!(
                "expected the string key attribute `{name}` in the ranked item, found none"
            )),
        )),
    };
    Ok((text(&board.pk)?, text(&board.sk)?))
}

/// The counter updates of an item going from `old` to `new`: in one partition, its digits'
/// change; across partitions, off the old one's and onto the new one's.
fn counters<E: Entity>(
    board: &RankBoard,
    old: Option<&Place>,
    new: Option<&Place>,
) -> Result<Vec<TransactWriteItem>, ItemError> {
    let failed = |e: RankFailure| ItemError::new(E::NAME, ItemErrorKind::Request(e.to_string()));
    // A key off the board (an older layout's) is in no counter.
    let from = old.and_then(|(_, sk)| board.ranked.digits(sk));
    let to = new.and_then(|(_, sk)| board.ranked.digits(sk));
    match (old, new) {
        (Some((a, _)), Some((b, _))) if a != b => {
            let mut actions = board.counter_actions(a, from, None).map_err(failed)?;
            actions.extend(board.counter_actions(b, None, to).map_err(failed)?);
            Ok(actions)
        }
        (Some((partition, _)), _) | (None, Some((partition, _))) => {
            board.counter_actions(partition, from, to).map_err(failed)
        }
        (None, None) => Ok(Vec::new()),
    }
}

/// A transaction action, or the builder's error as the entity's.
fn built<E: Entity>(
    action: Result<TransactWriteItem, aws_sdk_dynamodb::error::BuildError>,
) -> Result<TransactWriteItem, ItemError> {
    action.map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Request(e.to_string())))
}

/// What became of a transaction.
enum Sent {
    /// Every action happened.
    Done,
    /// A condition failed: nothing happened.
    Refused,
}

/// Sends `actions` in one transaction, again when only another transaction on the same
/// counters cancelled it.
async fn send<E: Entity>(client: &Client, actions: Vec<TransactWriteItem>) -> Result<Sent, ItemError> {
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let sent = client.transact_write_items().set_transact_items(Some(actions.clone())).send().await;
        let e = match sent {
            Ok(_) => return Ok(Sent::Done),
            Err(e) => e,
        };
        let Some(TransactWriteItemsError::TransactionCanceledException(cancel)) = e.as_service_error() else {
            return Err(request_error::<E, _, _>("TransactWriteItems", &e));
        };
        let codes: Vec<&str> = cancel.cancellation_reasons().iter().filter_map(|r| r.code()).collect();
        if codes.is_empty() || codes.contains(&"ConditionalCheckFailed") {
            return Ok(Sent::Refused);
        }
        last = Some(request_error::<E, _, _>("TransactWriteItems", &e));
        if !codes.contains(&"TransactionConflict") {
            break;
        }
    }
    Err(last.unwrap_or_else(|| ItemError::new(E::NAME, ItemErrorKind::Changed)))
}
