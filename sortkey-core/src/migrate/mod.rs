//! Layouts over time: reading older layouts (`legacy`), test vectors of a layout for other
//! languages (`vectors`), rewriting a table's items from older layouts (`backfill`, feature
//! `dynamodb`), where a worker stands in it (`progress`) and keeping its place (`checkpoint`).

#[cfg(feature = "dynamodb")]
pub(crate) mod backfill;
#[cfg(feature = "dynamodb")]
pub(crate) mod checkpoint;
pub(crate) mod legacy;
#[cfg(feature = "dynamodb")]
pub(crate) mod progress;
pub mod vectors;
