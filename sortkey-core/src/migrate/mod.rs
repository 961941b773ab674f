//! Layouts over time: reading older layouts (`legacy`), test vectors of a layout for other
//! languages (`vectors`), rewriting a table's items from older layouts (`backfill`, feature
//! `dynamodb`; an index's key in place, `in_place`), where a worker stands in it (`progress`), keeping its place (`checkpoint`), an item's size
//! (`size`), and what becomes of each key (`rekey`: a key type's older layouts, or two layouts of a lock).

#[cfg(feature = "dynamodb")]
pub(crate) mod backfill;
#[cfg(feature = "dynamodb")]
pub(crate) mod checkpoint;
#[cfg(feature = "dynamodb")]
pub(crate) mod counters;
#[cfg(feature = "dynamodb")]
mod in_place;
pub(crate) mod legacy;
#[cfg(feature = "dynamodb")]
pub(crate) mod progress;
#[cfg(feature = "dynamodb")]
pub(crate) mod rate;
pub(crate) mod rekey;
#[cfg(feature = "dynamodb")]
pub(crate) mod size;
pub mod vectors;
