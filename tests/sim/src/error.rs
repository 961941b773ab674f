//! DynamoDB's errors as the service answers them: an error code (`__type`), a message, and for
//! some the members that go with them (the item of a failed condition, a cancelled transaction's
//! reasons).

use serde_json::{Map, Value, json};

use crate::value::Item;

/// An error answer.
#[derive(Debug, Clone, PartialEq)]
pub struct DynamoError {
    /// The error code: `ConditionalCheckFailedException`, `ValidationException`, ...
    pub code: &'static str,
    /// The message.
    pub message: String,
    /// Members beside the message (`Item`, `CancellationReasons`).
    pub(crate) extra: Map<String, Value>,
}

impl DynamoError {
    pub(crate) fn new(code: &'static str, message: String) -> Self {
        DynamoError { code, message, extra: Map::new() }
    }

    pub(crate) fn validation(message: String) -> Self {
        DynamoError::new("ValidationException", message)
    }

    pub(crate) fn not_found() -> Self {
        DynamoError::new("ResourceNotFoundException", "Requested resource not found".to_owned())
    }

    /// A failed condition; with the item as it is when the request asked for it.
    pub(crate) fn condition_failed(item: Option<&Item>) -> Self {
        let mut e = DynamoError::new("ConditionalCheckFailedException", "The conditional request failed".to_owned());
        if let Some(item) = item {
            e.extra.insert("Item".to_owned(), json!(item));
        }
        e
    }

    /// A cancelled transaction, one reason an action.
    pub(crate) fn cancelled(reasons: Vec<Value>) -> Self {
        let codes: Vec<&str> = reasons.iter().map(|r| r["Code"].as_str().unwrap_or("None")).collect();
        let message = format!(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
            codes.join(", ")
        );
        let mut e = DynamoError::new("TransactionCanceledException", message);
        e.extra.insert("CancellationReasons".to_owned(), Value::Array(reasons));
        e
    }

    /// The answer's body.
    pub(crate) fn body(&self) -> Value {
        let mut body = self.extra.clone();
        body.insert("__type".to_owned(), json!(format!("com.amazonaws.dynamodb.v20120810#{}", self.code)));
        body.insert("message".to_owned(), json!(self.message));
        Value::Object(body)
    }
}

impl std::fmt::Display for DynamoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for DynamoError {}
