//! Sending an entity's writes, with their failures as errors of their own kind: a create of an
//! existing item, an update of a missing one, a lost race of optimistic locking, a move whose old
//! item changed.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::types::ReturnValuesOnConditionCheckFailure;
use serde_core::Serialize;

use crate::table::entity::Entity;

use super::entity_rank;
use super::item::{EntityItem, ItemError, ItemErrorKind, PutMode};
use super::request::MoveRequest;
use super::stored;
use super::written::{failed_on_existing, request_error, send_put};

/// Writes `entity`'s whole item to `table` ([`EntityItem::put_request`]). A failed condition is
/// `AlreadyExists` (a create, or an entity at version 0) or `VersionConflict` (an entity read at
/// another version than the stored one).
pub async fn put_item<E: EntityItem + Serialize>(
    client: &Client,
    table: &str,
    entity: &E,
    mode: PutMode,
) -> Result<(), ItemError> {
    if let Some(board) = entity_rank::ranked_board::<E>(table) {
        return entity_rank::put(client, table, &board?, entity, mode).await;
    }
    send_put(client, table, entity, &entity.put_request(mode)?, ItemErrorKind::AlreadyExists).await
}

/// Makes the stored item `entity` ([`EntityItem::update_request`]). A failed condition is
/// `Missing` when no item has its key (nothing was created) or `VersionConflict` when the stored
/// item is at another version.
///
/// **During a migration.** When no item has the current key and the primary key has older
/// layouts (`legacy`), the item is looked for under each older key ([`get_stored`](super::get_stored))
/// and, found there, moved to the current key as updated, in one transaction conditioned on the
/// old item being as just read and no item having the current key. A migration that moves it
/// meanwhile cancels the transaction; the update is then made at the current key. Nothing is
/// written twice, and nothing a concurrent `sortkey migrate` writes is lost.
pub async fn update_item<E: EntityItem + Serialize>(client: &Client, table: &str, entity: &E) -> Result<(), ItemError> {
    // A ranked entity's update keeps its key, so its counts; a move from an older key adds it.
    let board = entity_rank::ranked_board::<E>(table).transpose()?;
    let mut result = update_current(client, table, entity).await;
    if !stored::has_older::<E>() {
        return result;
    }
    let keys =
        stored::stored_keys(&entity.primary_key()).map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Encode(e)))?;
    for _ in 0..MOVE_ATTEMPTS {
        if !matches!(&result, Err(e) if matches!(e.kind(), ItemErrorKind::Missing)) {
            return result;
        }
        let Some((at, item)) = stored::find::<E>(client, table, &keys[1..]).await? else { return result };
        let request = stored::move_stored(entity, &at, &item)?;
        let moved = match &board {
            Some(board) => entity_rank::send_move::<E>(client, table, board, &request).await,
            None => send_move::<E>(client, table, &request).await,
        };
        match moved {
            Err(e) if matches!(e.kind(), ItemErrorKind::Changed) => {}
            moved => return moved,
        }
        // The old item changed, or a migration moved it: update it where it is now.
        result = update_current(client, table, entity).await;
    }
    result
}

/// How many times an update of an item stored under an older key tries again after a move that a
/// concurrent write cancelled.
const MOVE_ATTEMPTS: usize = 4;

/// The update of `entity` at its current key.
async fn update_current<E: EntityItem + Serialize>(client: &Client, table: &str, entity: &E) -> Result<(), ItemError> {
    let request = entity.update_request()?;
    let update = request
        .apply_to(client.update_item().table_name(table))
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld);
    match update.send().await {
        Ok(_) => Ok(()),
        Err(SdkError::ServiceError(e)) if e.err().is_conditional_check_failed_exception() => {
            let exists = match e.err() {
                aws_sdk_dynamodb::operation::update_item::UpdateItemError::ConditionalCheckFailedException(c) => {
                    c.item().is_some_and(|i| !i.is_empty())
                }
                _ => false,
            };
            Err(failed_on_existing(entity, exists))
        }
        Err(e) => Err(request_error::<E, _, _>("UpdateItem", &e)),
    }
}

/// Deletes `entity`'s item from `table` ([`EntityItem::delete_request`]). A failed condition is
/// `Missing` when no item has its key or `VersionConflict` when the stored item is at another
/// version than the one `entity` was read at (nothing was deleted).
///
/// **During a migration.** When no item has the current key and the primary key has older
/// layouts (`legacy`), the item is deleted under the older key it is stored under, on the same
/// conditions.
pub async fn delete_item<E: Entity>(client: &Client, table: &str, entity: &E) -> Result<(), ItemError> {
    // A ranked entity's item at its current key goes off the counters with it; one still under
    // an older key is in none.
    let result = match entity_rank::ranked_board::<E>(table) {
        Some(board) => entity_rank::delete(client, table, &board?, entity).await,
        None => delete_at(client, table, entity, entity.delete_request()?).await,
    };
    if !stored::has_older::<E>() || !matches!(&result, Err(e) if matches!(e.kind(), ItemErrorKind::Missing)) {
        return result;
    }
    let keys =
        stored::stored_keys(&entity.primary_key()).map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Encode(e)))?;
    match stored::find::<E>(client, table, &keys[1..]).await? {
        Some((at, _)) => delete_at(client, table, entity, stored::delete_stored(entity, &at)?).await,
        None => result,
    }
}

/// The delete `request` of `entity`'s item.
async fn delete_at<E: Entity>(
    client: &Client,
    table: &str,
    entity: &E,
    request: super::request::DeleteRequest,
) -> Result<(), ItemError> {
    let delete = request
        .apply_to(client.delete_item().table_name(table))
        .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld);
    match delete.send().await {
        Ok(_) => Ok(()),
        Err(SdkError::ServiceError(e)) if e.err().is_conditional_check_failed_exception() => {
            let exists = match e.err() {
                aws_sdk_dynamodb::operation::delete_item::DeleteItemError::ConditionalCheckFailedException(c) => {
                    c.item().is_some_and(|i| !i.is_empty())
                }
                _ => false,
            };
            Err(failed_on_existing(entity, exists))
        }
        Err(e) => Err(request_error::<E, _, _>("DeleteItem", &e)),
    }
}

/// Moves the item read as `old` to `entity`'s changed primary key in one transaction
/// ([`EntityItem::move_from`]): a cancelled transaction (the old item changed, or the new key
/// exists) is `Changed`, and nothing moved.
pub async fn move_item<E: EntityItem + Serialize>(
    client: &Client,
    table: &str,
    old: &E,
    entity: &E,
) -> Result<(), ItemError> {
    if let Some(board) = entity_rank::ranked_board::<E>(table) {
        return entity_rank::moved(client, table, &board?, old, entity).await;
    }
    send_move::<E>(client, table, &entity.move_from(old)?).await
}

/// Sends a move: a cancelled transaction is `Changed`.
async fn send_move<E: Entity>(client: &Client, table: &str, request: &MoveRequest) -> Result<(), ItemError> {
    let transaction = request
        .apply_to(table, client.transact_write_items())
        .map_err(|e| ItemError::new(E::NAME, ItemErrorKind::Request(e.to_string())))?;
    match transaction.send().await {
        Ok(_) => Ok(()),
        Err(e) if e.as_service_error().is_some_and(|s| s.is_transaction_canceled_exception()) => {
            Err(ItemError::new(E::NAME, ItemErrorKind::Changed))
        }
        Err(e) => Err(request_error::<E, _, _>("TransactWriteItems", &e)),
    }
}
