//! How a subcommand ends: what it found ([`Outcome`], exit status 0 or 1), or why it stopped
//! ([`AskError`], one line for people, exit status 2; a page's status from its kind).

use std::fmt;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use sortkey_core::dynamodb::{
    BackfillError, BackfillErrorKind, CheckpointError, RequestError, RequestErrorKind, VersionsError, sdk_error_line,
};
use sortkey_core::{AuditMergeError, CursorError, MigrationError, QueryError, ReshapeError};

/// Why an ask gets no answer, by kind: the command prints the message and exits with status 2,
/// a page answers with the kind's status. The kind is set where the failure is met (from the
/// service's error code for a request), never read back from the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AskError {
    pub(crate) kind: AskErrorKind,
    pub(crate) message: String,
}

/// The kinds of [`AskError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AskErrorKind {
    /// The ask is not one the command reads (a value, a limit, an operator, a file's contents).
    BadInput,
    /// A table the asker may not read.
    NotAllowed,
    /// A layout, table, index, bucket or file that is not there.
    NotFound,
    /// DynamoDB (or S3) throttled a request: the same ask may succeed later.
    Throttled,
    /// DynamoDB (or S3) refused a request otherwise: a validation error, access denied.
    Refused,
    /// DynamoDB (or S3) did not answer: no connection, no credentials, a timeout.
    Unreachable,
    /// This machine failed the command: a file or folder it could not write, a port it could
    /// not listen on.
    Local,
}

impl AskError {
    fn new(kind: AskErrorKind, message: impl Into<String>) -> Self {
        AskError { kind, message: message.into() }
    }

    pub(crate) fn bad(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::BadInput, message)
    }

    pub(crate) fn not_allowed(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::NotAllowed, message)
    }

    pub(crate) fn not_found(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::NotFound, message)
    }

    #[cfg(feature = "s3")]
    pub(crate) fn unreachable(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::Unreachable, message)
    }

    pub(crate) fn refused(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::Refused, message)
    }

    pub(crate) fn local(message: impl Into<String>) -> Self {
        AskError::new(AskErrorKind::Local, message)
    }

    /// A file that could not be read: not found when it is not there, a local failure otherwise.
    pub(crate) fn unreadable(error: &std::io::Error, message: impl Into<String>) -> Self {
        match error.kind() {
            std::io::ErrorKind::NotFound => AskError::not_found(message),
            _ => AskError::local(message),
        }
    }

    /// A request the SDK returned as failed, `doing` what (`cannot query runs`), its kind read
    /// from the service's error code (S3's `NoSuchBucket` and `NoSuchKey` are not found too).
    pub(crate) fn request<E, R>(doing: impl fmt::Display, error: &SdkError<E, R>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
        R: fmt::Debug,
    {
        let kind = match error.code() {
            Some("NoSuchBucket" | "NoSuchKey") => AskErrorKind::NotFound,
            _ => AskErrorKind::from(&RequestErrorKind::of(error)),
        };
        AskError::new(kind, format!("{doing}: {}", sdk_error_line(error)))
    }

    /// The exit status of the command that stopped on this error: 2 for every kind, as the
    /// command's manual says (1 is a finding).
    pub(crate) fn exit_code(&self) -> u8 {
        2
    }
}

impl From<&RequestErrorKind> for AskErrorKind {
    fn from(kind: &RequestErrorKind) -> Self {
        match kind {
            RequestErrorKind::NotFound => AskErrorKind::NotFound,
            RequestErrorKind::Throttled => AskErrorKind::Throttled,
            RequestErrorKind::Unreachable => AskErrorKind::Unreachable,
            _ => AskErrorKind::Refused,
        }
    }
}

impl From<RequestError> for AskError {
    fn from(error: RequestError) -> Self {
        AskError::new(AskErrorKind::from(&error.kind), error.to_string())
    }
}

impl From<VersionsError> for AskError {
    fn from(error: VersionsError) -> Self {
        match error {
            VersionsError::Request(request) => AskError::from(request),
            other => AskError::bad(other.to_string()),
        }
    }
}

impl From<BackfillError> for AskError {
    fn from(error: BackfillError) -> Self {
        let kind = match error.kind() {
            BackfillErrorKind::Throttled => AskErrorKind::Throttled,
            BackfillErrorKind::Decode | BackfillErrorKind::Config => AskErrorKind::BadInput,
            BackfillErrorKind::Checkpoint(checkpoint) => checkpoint_kind(checkpoint),
            BackfillErrorKind::Server { code: Some(code), .. } if code == "ResourceNotFoundException" => {
                AskErrorKind::NotFound
            }
            BackfillErrorKind::Server { code: None, .. } => AskErrorKind::Unreachable,
            _ => AskErrorKind::Refused,
        };
        AskError::new(kind, error.to_string())
    }
}

/// Another worker's lease refuses the segment; a checkpoint that cannot be kept is this
/// machine's (or its store's) failure.
fn checkpoint_kind(error: &CheckpointError) -> AskErrorKind {
    match error {
        CheckpointError::Taken { .. } => AskErrorKind::Refused,
        CheckpointError::Store(_) => AskErrorKind::Local,
    }
}

impl From<CheckpointError> for AskError {
    fn from(error: CheckpointError) -> Self {
        AskError::new(checkpoint_kind(&error), error.to_string())
    }
}

/// Errors of what the user gave: a value, a cursor, two layouts, a report, a layout change.
macro_rules! bad_input {
    ($($error:ty),*) => {$(
        impl From<$error> for AskError {
            fn from(error: $error) -> Self {
                AskError::bad(error.to_string())
            }
        }
    )*};
}

bad_input!(QueryError, CursorError, MigrationError, AuditMergeError, ReshapeError);

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a command found: exit status 0 when nothing, 1 when something (an audit's finding, keys
/// a migration left in the old layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Clean,
    Found,
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::error::ErrorMetadata;
    use aws_sdk_dynamodb::operation::query::QueryError;

    use super::*;

    fn refused(code: &str) -> AskError {
        let meta = ErrorMetadata::builder().code(code).message("said the service").build();
        let error: SdkError<QueryError, ()> = SdkError::service_error(QueryError::generic(meta), ());
        AskError::request("cannot query runs", &error)
    }

    #[test]
    fn a_request_s_kind_comes_from_its_code_and_the_message_says_what_was_done() {
        assert_eq!(refused("ResourceNotFoundException").kind, AskErrorKind::NotFound);
        assert_eq!(refused("ThrottlingException").kind, AskErrorKind::Throttled);
        assert_eq!(refused("AccessDeniedException").kind, AskErrorKind::Refused);
        assert_eq!(refused("NoSuchBucket").kind, AskErrorKind::NotFound);
        assert_eq!(refused("ValidationException").message, "cannot query runs: ValidationException: said the service");
        let timeout: SdkError<QueryError, ()> = SdkError::timeout_error("no answer in 3 s");
        assert_eq!(AskError::request("cannot query runs", &timeout).kind, AskErrorKind::Unreachable);
    }
}
