//! The key encoding: a key and its segments as text. Digits and widths (`digits`), the
//! segment's attributes (`spec`), the strict reader (`cursor`), a key's role (`role`), the layout
//! description (`layout`) and whether two encode alike (`layout_eq`), the segment and key traits
//! (`segment`, `key`), the segment impls of the types the crate knows (`impls/`), and the framing
//! of whole keys, families and enum names that generated code calls (`framing`, `families`,
//! `names`, re-exported by the private module). Nothing here knows of queries, tables or
//! DynamoDB.

pub(crate) mod cursor;
pub(crate) mod digits;
pub(crate) mod families;
pub(crate) mod framing;
pub(crate) mod impls;
pub(crate) mod key;
pub(crate) mod layout;
pub(crate) mod layout_eq;
pub(crate) mod names;
pub(crate) mod role;
pub(crate) mod segment;
pub(crate) mod shard;
pub(crate) mod spec;
