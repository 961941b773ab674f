//! Test vectors for other languages: a key type's layout and a list of values with the keys
//! they encode to (or the error they are refused with), as JSON, so that a Python or TypeScript
//! service can check its own encoder against this one.

use std::fmt::Write;

use crate::encoding::key::{DecodeKey, SortKey};

/// One test vector: a value's fields, as a JSON object, and the key it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vector {
    /// The fields, as a JSON object (`{"score": 1500, "player_id": "p_1"}`).
    pub fields: String,
    /// The encoded key, or the error message when the value is refused.
    pub key: Result<String, String>,
}

/// Vectors for `K`: each value's fields (a JSON object the caller writes) and its key.
pub fn vectors<K: SortKey>(values: impl IntoIterator<Item = (String, K)>) -> Vec<Vector> {
    values.into_iter().map(|(fields, k)| Vector { fields, key: k.encode().map_err(|e| e.to_string()) }).collect()
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
            Err(e) => format!("\"error\": {}", json_string(e)),
        };
        let _ = write!(out, "{sep}\n    {{\"fields\": {}, {result}}}", v.fields);
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// Whether every vector's key decodes and encodes to itself (refused values aside): the check
/// that a vector file is consistent with the decoder too. The first vector that does not, if any.
pub fn check_round_trip<K: SortKey + for<'k> DecodeKey<'k>>(vectors: &[Vector]) -> Result<(), String> {
    for v in vectors {
        let Ok(key) = &v.key else { continue };
        let decoded = K::decode(key).map_err(|e| format!("{} does not decode: {e}", json_string(key)))?;
        let again = decoded.encode().map_err(|e| format!("{} decodes but does not encode: {e}", json_string(key)))?;
        if &again != key {
            return Err(format!("{} decodes and encodes to {}", json_string(key), json_string(&again)));
        }
    }
    Ok(())
}

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
