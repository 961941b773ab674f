//! The key encoding: a key and its segments as text. Digits and widths (`digits`), the
//! segment's attributes (`spec`), the strict reader (`cursor`), a key's role (`role`), the layout
//! description (`layout`) and whether two encode alike (`layout_eq`), the segment and key traits
//! (`segment`, `key`) and the segment impls of the types the crate knows (`impls/`). Nothing here
//! knows of queries, tables or DynamoDB.

pub(crate) mod cursor;
pub(crate) mod digits;
pub(crate) mod impls;
pub(crate) mod key;
pub(crate) mod layout;
pub(crate) mod layout_eq;
pub(crate) mod role;
pub(crate) mod segment;
pub(crate) mod spec;
