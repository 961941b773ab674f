//! The `dynamodb` feature: keys as `AttributeValue::S`, and conditions applied to a Query
//! builder of the official `aws-sdk-dynamodb` crate, so that no expression string is written by hand.
//!
//! ```no_run
//! # async fn run(client: aws_sdk_dynamodb::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use aws_sdk_dynamodb::types::{self as ddb, AttributeValue};
//! use sortkey_core::{SortKey, dynamodb::KeyAttribute};
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
//! let key = RankKey { score: 1500, timestamp: 1719100800, player_id: "p_8842".into() };
//! client
//!     .put_item()
//!     .table_name("runs")
//!     .item("pk", AttributeValue::S("SEASON#7".into()))
//!     .item("sk", key.to_attribute_value()?)
//!     .send()
//!     .await?;
//!
//! let top = RankKey::query().score_range().gte(1000)?;
//! let page = top
//!     .apply_to_query(client.query().table_name("runs"), "pk", AttributeValue::S("SEASON#7".into()), "sk")
//!     .send()
//!     .await?;
//! for item in page.items() {
//!     let run = RankKey::from_attribute_value(&item["sk"])?;
//!     println!("{run:?}");
//! }
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

pub use crate::error::sdk_error_line;
pub use crate::migrate::backfill::{
    Backfill, BackfillError, BackfillErrorKind, MoveCheck, Progress, SegmentCursor, Verdict,
};
pub use crate::migrate::checkpoint::{
    Checkpoint, CheckpointError, FileCheckpoint, Lease, SegmentState, TableCheckpoint, worker_index,
};
pub use crate::migrate::rate::RateShare;
pub use crate::migrate::size::item_size;

mod entity;
mod entity_query;
mod entity_rank;
mod failed;
mod index_versions;
mod item;
mod keys;
mod merged;
mod multi;
mod query;
mod rank;
mod rank_repair;
mod rank_stream;
mod read;
mod request;
mod stored;
mod table;
mod typed_versions;
mod versions;
mod write;
mod written;

pub use entity::entity_key;
pub use entity_query::{AcrossVersions, EntityPage, EntityQuery};
pub use failed::{RequestError, RequestErrorKind};
pub use index_versions::{IndexCursor, IndexVersionsPage, IndexVersionsQuery};
pub use item::{EntityItem, ItemError, ItemErrorKind, PutMode};
pub use keys::KeyAttribute;
pub use merged::{CONCURRENCY, MergedEntities, ShardedQuery, query_merged, query_merged_moving};
pub use rank::{RANK_ATTEMPTS, RankBoard, RankFailure, RankPage, RankRead, rank, rank_page, write_ranked};
pub use rank_repair::{CounterDifference, check_counters, repair_counters};
pub use rank_stream::{StreamApplied, StreamedChange, apply_stream};
pub use read::{get_item, query_page};
pub use request::{Conditions, DeleteRequest, MoveRequest, PutRequest, UpdateRequest};
pub use stored::{Stored, get_stored};
pub use versions::{VersionsError, VersionsPage, VersionsQuery};
pub use write::{delete_item, move_item, put_item, update_item};

/// An item, a `Key` or a page cursor, as the SDK holds them.
pub type Attributes = HashMap<String, AttributeValue>;
