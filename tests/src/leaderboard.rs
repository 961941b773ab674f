//! The leaderboard key in two layouts, the migration the layout tests, the DynamoDB backfill
//! tests and the backfill benchmark share: the score widened from 10 to 12 digits, which old
//! keys cannot be read as, and the current type reading both through `#[key(legacy)]`.

use sortkey_core::SortKey;

/// The old layout: a 10-digit descending score.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
pub struct RankKeyV1 {
    /// The run's score, highest first.
    #[key(width = 10, desc)]
    pub score: u64,
    /// The player, the tiebreaker.
    pub player: String,
}

/// The current layout: 12 digits; it reads [`RankKeyV1`] keys too.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN", legacy = RankKeyV1)]
pub struct RankKey {
    /// The run's score, highest first.
    #[key(width = 12, desc)]
    pub score: u64,
    /// The player, the tiebreaker.
    pub player: String,
}

impl From<RankKeyV1> for RankKey {
    fn from(old: RankKeyV1) -> Self {
        RankKey { score: old.score, player: old.player }
    }
}
