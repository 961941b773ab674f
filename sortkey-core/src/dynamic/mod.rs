//! Layouts you can run: the text of a key's layout (what `K::LAYOUT` prints and `layouts.lock`
//! holds) parsed back into an owned schema, [`DynLayout`], which prints the same text. The
//! foundation of tools that read a table without the Rust types (the `sortkey` command) and of
//! readers in other languages: the text is the system of record.

mod audit;
mod balance;
mod capacity;
mod convert;
mod decode;
mod enclosing;
mod encode;
#[cfg(feature = "serde")]
pub mod exact;
mod generations;
#[cfg(feature = "serde")]
mod json;
mod lock;
mod lock_check;
mod migration;
mod model;
mod parse;
mod placement;
mod plan;
mod query;
mod ranked;
mod reshape;
mod samples;
mod shards;
mod spec;
mod usage;
mod value;
mod verdict;
mod versions;
mod walk;

pub use audit::{
    AuditMergeError, AuditReport, KeyAudit, LayoutCount, MixedWidth, Unread, UnreadSample, WidthMismatch, read_furthest,
};
pub use balance::{JUDGED_PER_SHARD, SKEW_LIMIT, ShardBalance};
pub use capacity::Capacity;
pub use generations::OldKeys;
#[cfg(feature = "serde")]
pub use json::ValueSeed;
pub use lock::{
    LayoutDifference, LockError, LockErrorKind, LockFile, LockParseError, TableAttribute, UPDATE_LOCK_VAR, Versions,
};
pub use lock_check::{LockedKeys, check_lock_file, lock_text};
pub use migration::DynMigration;
pub use model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
pub use parse::LayoutParseError;
pub use placement::{Misplaced, MisplacedSample};
pub use plan::LayoutPlan;
pub use query::DynQuery;
pub use ranked::RankLine;
pub use reshape::ReshapeError;
pub use shards::ShardedPartition;
pub use usage::{FieldUsage, Headroom, LayoutUsage};
pub use value::{DynValue, ValueTextError, ValueTextErrorKind};
pub use verdict::{CannotMove, LeftSample, MigrationVerdict, VerdictAudit};
pub use versions::{ConditionEnd, CursorError, FieldCondition, LiveKey, LiveLayouts, LiveResults, Outside};
