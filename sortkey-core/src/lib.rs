//! Composite DynamoDB sort keys as Rust types.
//!
//! DynamoDB orders string sort keys by their UTF-8 bytes, so `"10"` sorts before `"2"`.
//! `#[derive(SortKey)]` turns a struct into a key schema: every field is one segment of the
//! key, numbers are zero-padded to a fixed width (nines' complement for `desc`), and the
//! runtime refuses to write a key that would sort wrongly.
//!
//! ```
//! use sortkey_core::SortKey;
//!
//! #[derive(SortKey, Debug, Clone, PartialEq)]
//! #[key(prefix = "RUN")]
//! struct RankKey {
//!     #[key(width = 10, desc)]
//!     score: u64,
//!     #[key(width = 16)]
//!     timestamp: u64,
//!     player_id: String,
//! }
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let k = RankKey { score: 1500, timestamp: 1719100800, player_id: "p_8842".into() };
//! assert_eq!(k.encode()?, "RUN#9999998499#0000001719100800#p_8842");
//! assert_eq!(RankKey::decode("RUN#9999998499#0000001719100800#p_8842")?, k);
//!
//! // Higher scores sort first, as bytes:
//! let better = RankKey { score: 1501, ..k.clone() };
//! assert!(better.encode()? < k.encode()?);
//!
//! // A value wider than its width is an error, not a truncated key.
//! let err = RankKey { score: 10_000_000_000, ..k }.encode().unwrap_err();
//! assert_eq!(err.field(), Some("score"));
//! # Ok(())
//! # }
//! ```
//!
//! # Attributes
//!
//! On the struct:
//!
//! | attribute | meaning |
//! |---|---|
//! | `prefix = "RUN"` | a literal first segment |
//! | `separator = '\|'` | the character between segments, one ASCII punctuation character, `#` by default |
//! | `max_len = 2048` | the longest key, 1024 bytes (DynamoDB's sort key limit) by default |
//! | `crate = path` | where the runtime is, `::sortkey_core` by default |
//!
//! On a field:
//!
//! | attribute | meaning |
//! |---|---|
//! | `width = N` | the number of characters of an integer segment (1..=40, within what the type can fill) |
//! | `desc` | reverse the field's order (integers and `bool`) |
//! | `max = N` | values above `N` are an error even when they fit the width |
//!
//! # Format
//!
//! | field type | encoding | default width |
//! |---|---|---|
//! | `u8 u16 u32 u64 u128 usize` | exactly `width` digits, zero-padded | digits of `MAX`: 3, 5, 10, 20, 39, 20 |
//! | `i8 i16 i32 i64 i128 isize` | `0` then `width - 1` digits, or `-` then the nines' complement of `abs(v)` | 1 + digits of `abs(MIN)`: 4, 6, 11, 20, 40, 20 |
//! | `bool` | `0` / `1` | 1 |
//! | `String`, `&str`, `Cow<str>`, `char` | the text itself | variable |
//!
//! A text segment that is not the last one may contain only characters greater than the
//! separator; that is exactly when byte order of the key equals the order of its fields.

#![warn(missing_docs)]

mod error;
mod key;
mod num;
mod query;
mod segment;
mod text;

#[cfg(feature = "dynamodb")]
pub mod dynamodb;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use error::{DecodeError, EncodeError, EncodeErrorKind};
pub use key::{DecodeKey, SortKey};
pub use query::{Comparison, KeyCondition, KeyExpression, QueryHead};
pub use segment::{Cursor, DecodeSegment, Field, KeySegment, Width};

/// Derives [`SortKey`] (and [`DecodeKey`], and `FromStr` for types without lifetimes) for a
/// struct with named fields. See the [crate docs](crate) for the attributes.
#[cfg(feature = "derive")]
pub use sortkey_derive::SortKey;
