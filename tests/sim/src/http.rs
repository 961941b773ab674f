//! The SDK's HTTP client, answered in memory: each request's operation (`X-Amz-Target`) and JSON
//! body go to the tables, and the answer (or DynamoDB's error) comes back as the service's HTTP
//! response would, so the SDK parses it with its own code.

use std::sync::{Arc, Mutex};

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;
use serde_json::Value;

use crate::error::DynamoError;
use crate::ops::{State, handle};

/// The connector and client of one in-memory DynamoDB.
#[derive(Debug, Clone)]
pub(crate) struct Connector {
    pub(crate) state: Arc<Mutex<State>>,
    /// Writes to apply just before the next request of an operation: (the operation, the
    /// write's operation, its body), each once.
    pub(crate) before: Arc<Mutex<Vec<(String, String, Value)>>>,
    /// The requests answered, by operation, and the transaction actions among them.
    pub(crate) counted: Arc<Mutex<std::collections::BTreeMap<String, u64>>>,
}

impl Connector {
    /// The answer to one request: the status and the body.
    pub(crate) fn answer(&self, target: Option<&str>, body: &[u8]) -> (u16, Value) {
        match serde_json::from_slice(body) {
            Ok(request) => self.answer_json(target, &request),
            Err(e) => (400, DynamoError::new("SerializationException", format!("not JSON: {e}")).body()),
        }
    }

    /// [`answer`](Self::answer) of a request already read as JSON.
    pub(crate) fn answer_json(&self, target: Option<&str>, request: &Value) -> (u16, Value) {
        let op = target.and_then(|t| t.strip_prefix("DynamoDB_20120810.")).unwrap_or_default();
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut before = self.before.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = before.iter().position(|(when, _, _)| when == op) {
            let (_, write, body) = before.remove(at);
            // Another client's write, committed just before this request arrives.
            let _ = handle(&mut state, &write, &body);
        }
        drop(before);
        {
            let mut counted = self.counted.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            *counted.entry(op.to_owned()).or_default() += 1;
            let actions = request["TransactItems"].as_array().map_or(0, Vec::len) as u64;
            *counted.entry("transaction actions".to_owned()).or_default() += actions;
        }
        match handle(&mut state, op, request) {
            Ok(answer) => (200, answer),
            Err(e) => (400, e.body()),
        }
    }
}

impl HttpConnector for Connector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request.headers().get("x-amz-target").map(str::to_owned);
        let body = request.body().bytes().unwrap_or_default().to_vec();
        let (status, answer) = self.answer(target.as_deref(), &body);
        let bytes = serde_json::to_vec(&answer).unwrap_or_default();
        let status = StatusCode::try_from(status).unwrap_or_else(|_| unreachable!("200 and 400 are statuses"));
        let mut response = HttpResponse::new(status, SdkBody::from(bytes));
        response.headers_mut().insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Connector {
    fn http_connector(&self, _: &HttpConnectorSettings, _: &RuntimeComponents) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}
