//! The segment impls of the types sortkey-core knows: integers, text and `bool`, timestamps,
//! `Option`, and the UUID and ULID types of the optional features. Each file depends on the
//! traits, the spec, the cursor and the digit helpers, never on another impl file but `time`
//! on `int` (Unix time is an integer segment).

mod decimal;
mod float;
mod ids;
mod int;
mod option;
mod text;
pub(crate) mod time;
