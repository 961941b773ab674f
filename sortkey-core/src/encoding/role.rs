//! The two kinds of DynamoDB key and their limits.

/// The attribute a key type is written to: DynamoDB's two kinds of key, whose limits and
/// conditions differ.
///
/// With the `serde` feature it is `"sort"` or `"partition"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum KeyRole {
    /// A sort key (range key): at most [`SORT_KEY_LIMIT`] bytes, queried with `=`, `<`, `<=`,
    /// `>`, `>=`, `BETWEEN` or `begins_with`.
    Sort,
    /// A partition key (hash key), `#[key(partition)]`: at most [`PARTITION_KEY_LIMIT`] bytes,
    /// compared with `=` only.
    Partition,
}

impl KeyRole {
    /// DynamoDB's limit on the length of a key of this role, in bytes.
    pub const fn limit(self) -> usize {
        match self {
            KeyRole::Sort => SORT_KEY_LIMIT,
            KeyRole::Partition => PARTITION_KEY_LIMIT,
        }
    }

    /// The role as messages name it: `"sort key"` or `"partition key"`.
    pub const fn name(self) -> &'static str {
        match self {
            KeyRole::Sort => "sort key",
            KeyRole::Partition => "partition key",
        }
    }
}

/// DynamoDB's limit on the length of a sort key value, in UTF-8 bytes.
pub const SORT_KEY_LIMIT: usize = 1024;

/// DynamoDB's limit on the length of a partition key value, in UTF-8 bytes.
pub const PARTITION_KEY_LIMIT: usize = 2048;
