//! An export read where it lies, `s3://bucket/prefix`: its data files listed by the export's
//! manifest (`manifest-files.json`, one `dataFileS3Key` a line, as DynamoDB writes it beside
//! `data/`), or, without a manifest, every `data/*.gz` under the prefix; each file streamed from
//! S3 and decompressed as its bytes arrive, never held whole.

use std::collections::BTreeMap;
use std::io::Read;

use aws_sdk_s3::Client;
use aws_sdk_s3::primitives::ByteStream;
use bytes::Bytes;
use sortkey_core::dynamodb::sdk_error_line;
use tokio::runtime::Handle;
use tokio::sync::mpsc;

use crate::audit::data_files::{DataFiles, in_ion};
use crate::outcome::AskError;

/// Where an export is in S3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct S3Export {
    pub(crate) bucket: String,
    /// The key prefix, without a trailing `/` (empty for the whole bucket).
    pub(crate) prefix: String,
}

impl S3Export {
    /// `s3://bucket/prefix`; `None` when `text` is no `s3://` address.
    pub(crate) fn parse(text: &str) -> Option<Result<S3Export, AskError>> {
        let rest = text.strip_prefix("s3://")?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Some(Err(AskError::bad(format!("{text}: expected s3://BUCKET/PREFIX, found no bucket"))));
        }
        Some(Ok(S3Export { bucket: bucket.to_owned(), prefix: prefix.trim_end_matches('/').to_owned() }))
    }

    fn address(&self, key: &str) -> String {
        format!("s3://{}/{key}", self.bucket)
    }
}

impl std::fmt::Display for S3Export {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s3://{}/{}", self.bucket, self.prefix)
    }
}

/// The data files of an export in S3, opened on the runtime `handle`.
pub(crate) struct S3Files {
    client: Client,
    handle: Handle,
    export: S3Export,
    /// Each file's key and size, in key order.
    files: Vec<(String, Option<u64>)>,
}

impl S3Files {
    /// Lists the export's data files: by its manifest when it has one, else every `data/*.gz`.
    pub(crate) async fn list(client: Client, handle: Handle, export: S3Export) -> Result<S3Files, AskError> {
        let objects = list_objects(&client, &export).await?;
        let manifests: Vec<&String> = objects.keys().filter(|k| k.ends_with("manifest-files.json")).collect();
        let keys: Vec<String> = match manifests.as_slice() {
            [] => objects.keys().filter(|k| in_data(k)).cloned().collect(),
            [manifest] => manifest_keys(&client, &export, manifest).await?,
            many => {
                let folders: Vec<String> =
                    many.iter().map(|m| export.address(m.trim_end_matches("manifest-files.json"))).collect();
                return Err(AskError::bad(format!(
                    "{export} holds {} exports ({}); expected the folder of one",
                    many.len(),
                    folders.join(", ")
                )));
            }
        };
        if let Some(ion) = keys.iter().find(|k| k.ends_with(".ion.gz")) {
            return Err(in_ion(&export.address(ion)));
        }
        let mut files: Vec<(String, Option<u64>)> =
            keys.into_iter().filter(|k| k.ends_with(".gz")).map(|k| (k.clone(), objects.get(&k).copied())).collect();
        files.sort();
        if files.is_empty() {
            return Err(AskError::bad(format!(
                "no data files (data/*.json.gz) under {export}; expected a DynamoDB export in DynamoDB JSON"
            )));
        }
        Ok(S3Files { client, handle, export, files })
    }
}

/// Whether `key` is a gzip file in a `data` folder.
fn in_data(key: &str) -> bool {
    let mut parts = key.rsplit('/');
    let name = parts.next().unwrap_or_default();
    parts.next() == Some("data") && name.ends_with(".gz")
}

/// Every object under the export's prefix, with its size.
async fn list_objects(client: &Client, export: &S3Export) -> Result<BTreeMap<String, u64>, AskError> {
    let prefix = if export.prefix.is_empty() { String::new() } else { format!("{}/", export.prefix) };
    let mut objects = BTreeMap::new();
    let mut pages = client.list_objects_v2().bucket(&export.bucket).prefix(prefix).into_paginator().send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| AskError::request(format!("cannot list {export}"), &e))?;
        for object in page.contents() {
            if let Some(key) = object.key() {
                objects.insert(key.to_owned(), object.size().unwrap_or_default().max(0) as u64);
            }
        }
    }
    Ok(objects)
}

/// The data files a `manifest-files.json` names: its lines' `dataFileS3Key`.
async fn manifest_keys(client: &Client, export: &S3Export, manifest: &str) -> Result<Vec<String>, AskError> {
    let address = export.address(manifest);
    let got = client
        .get_object()
        .bucket(&export.bucket)
        .key(manifest)
        .send()
        .await
        .map_err(|e| AskError::request(format!("cannot read {address}"), &e))?;
    let body = got
        .body
        .collect()
        .await
        .map_err(|e| AskError::unreachable(format!("cannot read {address}: {e}")))?
        .into_bytes();
    let text = String::from_utf8_lossy(&body);
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let entry: serde_json::Value =
            serde_json::from_str(line).map_err(|e| AskError::bad(format!("{address}:{}: {e}", n + 1)))?;
        let key = entry.get("dataFileS3Key").and_then(|k| k.as_str()).ok_or_else(|| {
            AskError::bad(format!("{address}:{}: expected a `dataFileS3Key`, a line of an export's manifest", n + 1))
        })?;
        keys.push(key.to_owned());
    }
    Ok(keys)
}

impl DataFiles for S3Files {
    fn len(&self) -> usize {
        self.files.len()
    }

    fn name(&self, i: usize) -> String {
        self.export.address(&self.files[i].0)
    }

    fn size(&self, i: usize) -> Option<u64> {
        self.files[i].1
    }

    fn open(&self, i: usize) -> Result<Box<dyn Read + Send>, AskError> {
        // A few chunks ahead: the download runs while the file's thread decompresses.
        let (send, receive) = mpsc::channel::<Result<Bytes, String>>(8);
        let (client, bucket, key) = (self.client.clone(), self.export.bucket.clone(), self.files[i].0.clone());
        self.handle.spawn(async move {
            let body = match client.get_object().bucket(bucket).key(key).send().await {
                Ok(got) => got.body,
                Err(e) => {
                    let _ = send.send(Err(sdk_error_line(&e))).await;
                    return;
                }
            };
            stream(body, send).await;
        });
        Ok(Box::new(ChannelReader { receive, chunk: Bytes::new() }))
    }
}

/// Sends the body's chunks as they arrive, until it ends or the reader stops reading.
async fn stream(mut body: ByteStream, send: mpsc::Sender<Result<Bytes, String>>) {
    loop {
        let chunk = match body.try_next().await {
            Ok(Some(chunk)) => Ok(chunk),
            Ok(None) => return,
            Err(e) => Err(e.to_string()),
        };
        let failed = chunk.is_err();
        if send.send(chunk).await.is_err() || failed {
            return;
        }
    }
}

/// A data file's bytes as they arrive from S3, read on a thread outside the runtime.
struct ChannelReader {
    receive: mpsc::Receiver<Result<Bytes, String>>,
    chunk: Bytes,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.chunk.is_empty() {
            match self.receive.blocking_recv() {
                Some(Ok(chunk)) => self.chunk = chunk,
                Some(Err(e)) => return Err(std::io::Error::other(e)),
                None => return Ok(0),
            }
        }
        let n = out.len().min(self.chunk.len());
        out[..n].copy_from_slice(&self.chunk.split_to(n));
        Ok(n)
    }
}
