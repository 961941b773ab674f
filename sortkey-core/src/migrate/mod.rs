//! Layouts over time: reading older layouts (`legacy`), test vectors of a layout for other
//! languages (`vectors`), rewriting a table's items from older layouts (`backfill`, feature
//! `dynamodb`) and keeping a worker's place in it (`checkpoint`).

#[cfg(feature = "dynamodb")]
pub(crate) mod backfill;
#[cfg(feature = "dynamodb")]
pub(crate) mod checkpoint;
pub(crate) mod legacy;
pub mod vectors;
