//! Layouts over time: reading older layouts (`legacy`), test vectors of a layout for other
//! languages (`vectors`), and rewriting a table's items from older layouts (`backfill`, feature
//! `dynamodb`).

#[cfg(feature = "dynamodb")]
pub(crate) mod backfill;
pub(crate) mod legacy;
pub mod vectors;
