//! Unit enum variants as segments: `#[derive(KeySegment)]` on an enum writes and reads names.

use crate::encoding::cursor::Cursor;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::Field;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};

/// Writes a unit enum variant's `name`, as text: the derive rejects, at compile time, names that
/// a non-final position cannot hold; the text segment's check covers a [`Field`] built by hand.
#[inline]
pub fn encode_name(name: &str, field: &Field, out: &mut String) -> Result<(), EncodeError> {
    name.encode_segment(field, out)
}

/// Reads the text of a unit enum variant's name: the rest of the key in the last position,
/// up to the separator otherwise. Returns where it starts and the text.
#[inline]
pub fn take_name<'k>(cursor: &mut Cursor<'k>, field: &Field) -> Result<(usize, &'k str), DecodeError> {
    let start = cursor.position();
    let text = cursor.take_text(field)?;
    Ok((start, text))
}

/// The error for text at `start` that is none of the enum's `names`.
#[cold]
pub fn unknown_name(cursor: &Cursor<'_>, start: usize, field: &Field, names: &[&str], found: &str) -> DecodeError {
    let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    let expected = format!("one of the names {}", list.join(", "));
    let found = if found.is_empty() { "nothing".to_owned() } else { format!("{found:?}") };
    cursor.error_at(start, field, DecodeErrorKind::UnknownName, expected, found)
}
