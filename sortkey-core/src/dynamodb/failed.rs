//! A DynamoDB request that failed, told apart by what its caller can do about it: a table that is
//! not there, a throttle to wait out, the service's refusal, or no answer at all. The command
//! chooses its exit code and its page's HTTP status from the kind, never from the message.

use std::fmt;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

use crate::error::sdk_error_line;

/// What a failed DynamoDB request met.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestErrorKind {
    /// The table or index does not exist (`ResourceNotFoundException`).
    NotFound,
    /// The request was throttled (`ProvisionedThroughputExceededException`,
    /// `ThrottlingException`, `RequestLimitExceeded`): the same request may succeed later.
    Throttled,
    /// The service refused the request otherwise (a validation error, access denied, an internal
    /// error), with its error code.
    Service {
        /// The service's error code, such as `ValidationException`.
        code: String,
    },
    /// No answer with an error code: the connection failed, the request timed out, or no
    /// credentials or endpoint could be found.
    Unreachable,
}

/// A DynamoDB request that failed: the operation (`Query`, `GetItem`), the table, what kind of
/// failure it met, and its message on one line (the service's code and message, or the
/// transport's chain of causes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// The operation, as DynamoDB names it: `Query`, `GetItem`, ...
    pub operation: &'static str,
    /// The table the request was made to.
    pub table: String,
    /// What it met.
    pub kind: RequestErrorKind,
    /// The failure on one line (`ResourceNotFoundException: Requested resource not found`).
    pub message: String,
}

impl RequestError {
    /// The failure of `operation` on `table` that the SDK returned, its kind read from the
    /// service's error code.
    pub fn from_sdk<E, R>(operation: &'static str, table: &str, error: &SdkError<E, R>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
        R: fmt::Debug,
    {
        RequestError {
            operation,
            table: table.to_owned(),
            kind: RequestErrorKind::of(error),
            message: sdk_error_line(error),
        }
    }
}

impl RequestErrorKind {
    /// The kind of a failure the SDK returned, read from the service's error code: DynamoDB's
    /// codes for a missing table and for throttling, any other code the service's refusal, and
    /// no code at all no answer.
    pub fn of<E, R>(error: &SdkError<E, R>) -> Self
    where
        E: ProvideErrorMetadata,
    {
        match error.code() {
            Some("ResourceNotFoundException") => RequestErrorKind::NotFound,
            Some("ProvisionedThroughputExceededException" | "ThrottlingException" | "RequestLimitExceeded") => {
                RequestErrorKind::Throttled
            }
            Some(code) => RequestErrorKind::Service { code: code.to_owned() },
            None => RequestErrorKind::Unreachable,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on table {} failed: {}", self.operation, self.table, self.message)
    }
}

impl std::error::Error for RequestError {}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::error::ErrorMetadata;
    use aws_sdk_dynamodb::operation::query::QueryError;

    use super::*;

    fn service(code: &str) -> RequestError {
        let meta = ErrorMetadata::builder().code(code).message("said the service").build();
        let error: SdkError<QueryError, ()> = SdkError::service_error(QueryError::generic(meta), ());
        RequestError::from_sdk("Query", "runs", &error)
    }

    #[test]
    fn the_kind_is_read_from_the_code() {
        assert_eq!(service("ResourceNotFoundException").kind, RequestErrorKind::NotFound);
        assert_eq!(service("ProvisionedThroughputExceededException").kind, RequestErrorKind::Throttled);
        assert_eq!(service("ThrottlingException").kind, RequestErrorKind::Throttled);
        assert_eq!(
            service("ValidationException").kind,
            RequestErrorKind::Service { code: "ValidationException".to_owned() }
        );
        let timeout: SdkError<QueryError, ()> = SdkError::timeout_error("no answer in 3 s");
        assert_eq!(RequestError::from_sdk("Query", "runs", &timeout).kind, RequestErrorKind::Unreachable);
    }

    #[test]
    fn it_says_the_operation_the_table_and_the_message() {
        assert_eq!(
            service("ValidationException").to_string(),
            "Query on table runs failed: ValidationException: said the service"
        );
    }
}
