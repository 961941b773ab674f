//! How an entity's write failed, said once for every way of writing it: a failed condition as
//! the entity's error kind (`AlreadyExists`, `Missing`, `VersionConflict`), any other failure
//! as the request's line; and the plain PutItem that the ranked and the unranked puts share.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use crate::table::entity::Entity;

use super::item::{ItemError, ItemErrorKind};
use super::request::PutRequest;

/// Sends the put `request` of `entity`: a failed condition is `VersionConflict` for an entity
/// read at a version, else `otherwise`.
pub(super) async fn send_put<E: Entity>(
    client: &Client,
    table: &str,
    entity: &E,
    request: &PutRequest,
    otherwise: ItemErrorKind,
) -> Result<(), ItemError> {
    match request.apply_to(client.put_item().table_name(table)).send().await {
        Ok(_) => Ok(()),
        Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {
            Err(conflict(entity, otherwise))
        }
        Err(e) => Err(request_error::<E, _, _>("PutItem", &e)),
    }
}

/// A failed condition of a write conditioned on the item existing (an update, a delete), the
/// stored item returned as `exists` says: none is `Missing`; one is a moved-on version.
pub(super) fn failed_on_existing<E: Entity>(entity: &E, exists: bool) -> ItemError {
    match exists {
        true => conflict(entity, ItemErrorKind::Missing),
        false => ItemError::new(E::NAME, ItemErrorKind::Missing),
    }
}

/// A failed condition of a write of `entity`: for an entity read at a version, the version
/// moved on (`VersionConflict`); otherwise `otherwise`.
pub(super) fn conflict<E: Entity>(entity: &E, otherwise: ItemErrorKind) -> ItemError {
    match entity.version().filter(|v| *v > 0) {
        Some(expected) => ItemError::new(E::NAME, ItemErrorKind::VersionConflict { expected }),
        None => ItemError::new(E::NAME, otherwise),
    }
}

/// Any other failure of a request, in one line: the server's code and message.
pub(super) fn request_error<E: Entity, Err: ProvideErrorMetadata + std::error::Error + 'static, R: std::fmt::Debug>(
    operation: &str,
    e: &SdkError<Err, R>,
) -> ItemError {
    let message = format!("{operation} failed: {}", crate::error::sdk_error_line(e));
    ItemError::new(E::NAME, ItemErrorKind::Request(message))
}
