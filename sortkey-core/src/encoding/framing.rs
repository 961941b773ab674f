//! Key framing: the whole-key rules around a key's segments (not empty, at most `max_len`),
//! its prefix, its separators and its end.

use crate::encoding::cursor::Cursor;
use crate::encoding::segment::{DecodeSegment, KeySegment};
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};

/// The field a whole key is written and read as: its own last field is the key's last segment.
/// `SortKey::encode_into` and `DecodeKey::decode_borrowed` hand it to the key's own
/// `KeySegment`/`DecodeSegment` impls, so that a key is encoded by one body, alone or nested.
pub const WHOLE_KEY: Field = Field::new("", "", '#').with_last(true);

/// The key's last field is the last segment only when the field `segment` the key is written
/// in is (a key on its own is written in [`WHOLE_KEY`]).
#[inline(always)]
pub const fn field_in(spec: Field, segment: &Field) -> Field {
    spec.with_last(segment.is_last())
}

/// Runs `write` on `out` and enforces the whole-key rules; restores `out` on any error.
#[inline]
pub fn encode_key(
    out: &mut String,
    key_name: &'static str,
    max_len: usize,
    write: impl FnOnce(&mut String) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let start = out.len();
    let result = write(out).and_then(|()| match out.len() - start {
        0 => Err(EncodeError::whole_key(key_name, EncodeErrorKind::Empty)),
        len if len > max_len => Err(EncodeError::whole_key(key_name, EncodeErrorKind::TooLong { len, max_len })),
        _ => Ok(()),
    });
    if result.is_err() {
        out.truncate(start);
    }
    result
}

/// `SortKey::encode_into` of a derived key: its `KeySegment` body under the whole-key rules.
/// One generic call, so that the derive emits no closure of its own (one body less to check in
/// the user's crate).
#[inline]
pub fn encode_whole<K: KeySegment + ?Sized>(
    key: &K,
    out: &mut String,
    key_name: &'static str,
    max_len: usize,
) -> Result<(), EncodeError> {
    encode_key(out, key_name, max_len, |out| key.encode_segment(&WHOLE_KEY, out))
}

/// `DecodeKey::decode_borrowed` of a derived key: the whole-key checks, its `DecodeSegment` body
/// and the end of the key, in one generic call.
#[inline]
pub fn decode_whole<'k, K: DecodeSegment<'k>>(
    key: &'k str,
    key_name: &'static str,
    max_len: usize,
) -> Result<K, DecodeError> {
    let mut cursor = decode_start(key, key_name, max_len)?;
    let value = K::decode_segment(&mut cursor, &WHOLE_KEY)?;
    cursor.expect_end()?;
    Ok(value)
}

/// A cursor on `key` after the whole-key checks (not empty, not over `max_len`).
#[inline]
pub fn decode_start<'k>(key: &'k str, key_name: &'static str, max_len: usize) -> Result<Cursor<'k>, DecodeError> {
    if key.is_empty() || key.len() > max_len {
        return Err(bad_length(key, key_name, max_len));
    }
    Ok(Cursor::new(key, key_name))
}

#[cold]
#[inline(never)]
fn bad_length(key: &str, key_name: &'static str, max_len: usize) -> DecodeError {
    if key.is_empty() {
        return DecodeError::new(key_name, None, 0, DecodeErrorKind::Empty, "a non-empty key", "an empty string");
    }
    let expected = format!("a key of at most {max_len} bytes");
    DecodeError::new(key_name, None, max_len, DecodeErrorKind::TooLong, expected, format!("{} bytes", key.len()))
}

/// Expects the key's literal prefix (with the separator after it when fields follow).
#[inline]
pub fn expect_prefix(cursor: &mut Cursor<'_>, prefix: &str) -> Result<(), DecodeError> {
    cursor.expect(prefix, DecodeErrorKind::WrongPrefix, None, "the prefix")
}

/// Expects the separator that follows `after`.
#[inline]
pub fn expect_separator(cursor: &mut Cursor<'_>, separator: &str, after: &Field) -> Result<(), DecodeError> {
    cursor
        .expect(separator, DecodeErrorKind::MissingSeparator, Some(after.name()), "the separator after it,")
        .map_err(|e| wider_width(cursor, after, e))
}

/// A digit where the separator belongs, after a field of digits, is a key of a wider width.
#[cold]
fn wider_width(cursor: &Cursor<'_>, after: &Field, e: DecodeError) -> DecodeError {
    match cursor.rest().as_bytes().first() {
        Some(b) if b.is_ascii_digit() && after.width() > 0 => e.with_kind(DecodeErrorKind::WrongWidth),
        _ => e,
    }
}
