//! Test vectors for other languages: a key type's layout and a list of values with the keys
//! they encode to (or the error they are refused with), as JSON, so that a Python or TypeScript
//! service can check its own encoder against this one.

use std::fmt::Write;

use crate::encoding::key::{DecodeKey, SortKey};
use crate::error::{DecodeError, EncodeError};

/// One test vector: a value's fields, as a JSON object, and the key it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vector {
    /// The fields, as a JSON object (`{"score": 1500, "player_id": "p_1"}`).
    pub fields: String,
    /// The encoded key, or the error the value is refused with (its message is the vector's
    /// `error`).
    pub key: Result<String, EncodeError>,
}

/// Vectors for `K`: each value's fields (a JSON object the caller writes) and its key.
pub fn vectors<K: SortKey>(values: impl IntoIterator<Item = (String, K)>) -> Vec<Vector> {
    values.into_iter().map(|(fields, k)| Vector { fields, key: k.encode() }).collect()
}

/// The JSON document of `vectors` for the key type named `name`:
/// `{"type": ..., "layout": ..., "vectors": [{"fields": {...}, "key": "..."}, {"fields": {...}, "error": "..."}]}`.
pub fn vectors_json<K: SortKey>(name: &str, vectors: &[Vector]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "{{\n  \"type\": {},\n  \"layout\": {},\n  \"vectors\": [",
        json_string(name),
        json_string(&K::LAYOUT.to_string())
    );
    for (i, v) in vectors.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let result = match &v.key {
            Ok(key) => format!("\"key\": {}", json_string(key)),
            Err(e) => format!("\"error\": {}", json_string(&e.to_string())),
        };
        let _ = write!(out, "{sep}\n    {{\"fields\": {}, {result}}}", v.fields);
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// Whether every vector's key decodes and encodes to itself (refused values aside): the check
/// that a vector file is consistent with the decoder too. The first vector that does not, if any.
pub fn check_round_trip<K: SortKey + for<'k> DecodeKey<'k>>(vectors: &[Vector]) -> Result<(), RoundTripError> {
    for v in vectors {
        let Ok(key) = &v.key else { continue };
        let error = |kind| RoundTripError { key: key.clone(), kind };
        let decoded = K::decode(key).map_err(|e| error(RoundTripErrorKind::NoDecode(e)))?;
        let again = decoded.encode().map_err(|e| error(RoundTripErrorKind::NoEncode(e)))?;
        if &again != key {
            return Err(error(RoundTripErrorKind::Differs { again }));
        }
    }
    Ok(())
}

/// A vector's key that does not decode and encode to itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundTripError {
    /// The vector's key.
    pub key: String,
    /// What happened to it.
    pub kind: RoundTripErrorKind,
}

/// What happened to a key that does not round-trip.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RoundTripErrorKind {
    /// It does not decode.
    NoDecode(DecodeError),
    /// It decodes, but its value does not encode.
    NoEncode(EncodeError),
    /// It decodes and encodes to another key.
    Differs {
        /// The key it encodes to.
        again: String,
    },
}

impl std::fmt::Display for RoundTripError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let key = json_string(&self.key);
        match &self.kind {
            RoundTripErrorKind::NoDecode(e) => write!(f, "{key} does not decode: {e}"),
            RoundTripErrorKind::NoEncode(e) => write!(f, "{key} decodes but does not encode: {e}"),
            RoundTripErrorKind::Differs { again } => write!(f, "{key} decodes and encodes to {}", json_string(again)),
        }
    }
}

impl std::error::Error for RoundTripError {}

/// `s` as a JSON string literal: quotes, backslashes and control characters escaped, every
/// other character as itself (UTF-8).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_for_json() {
        assert_eq!(json_string("a\"b\\c\n\u{0}é"), "\"a\\\"b\\\\c\\n\\u0000é\"");
    }
}
