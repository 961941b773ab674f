//! What `sortkey browse` and the browse page ask: a page of a table's partition.

use serde::{Deserialize, Serialize};

use crate::ask::command::CommandLine;
use crate::ask::context::{Context, DEFAULT_ITEMS};
use crate::outcome::AskError;

/// A page of one partition, in the order DynamoDB returns it: from the command line (`sortkey
/// browse`) or a page's query string (`/browse?table=T&pk=P&limit=10&after=K`), which is also
/// what it serializes to (a page's links to its next and previous pages: every field kept).
#[derive(Debug, Clone, PartialEq, Eq, Default, clap::Args, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct BrowseAsk {
    /// The table.
    #[arg(long)]
    pub(crate) table: String,
    /// A global secondary index of the table to read instead.
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) index: Option<String>,
    /// The partition key's value, as stored (its encoded key).
    #[arg(long, value_name = "VALUE")]
    pub(crate) pk: String,
    /// Only the keys of this layout of the lock and of its other versions (its `Current > Older`
    /// line): one Query per version, merged in the current layout's order.
    #[arg(long, value_name = "LAYOUT")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) layout: Option<String>,
    /// At most this many items (1 to 1000).
    #[arg(long, default_value_t = DEFAULT_ITEMS)]
    #[serde(default = "default_limit")]
    pub(crate) limit: usize,
    /// Highest sort key first (with --layout, in the current layout's order).
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) reverse: bool,
    /// Starts after this sort key (the last of a page, for the next one; with --reverse, the
    /// first, for the one before); the table's own key, not an index's. With --layout, a
    /// page's `next`: a key in the current layout (an older version's is read as its value's).
    #[arg(long, value_name = "SORT_KEY")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<String>,
    /// One shard of a sharded partition (the lock's layout of the partition key says
    /// `shards=N`): by default a partition given without its shard is read merged over all.
    #[arg(long, value_name = "I")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) shard: Option<u16>,
    /// One table per layout (a family's variant each apart), instead of one table in the
    /// partition's order with the layout as a column.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) group: bool,
    /// The page's own parameter: its JSON instead of HTML.
    #[arg(skip)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) format: Option<String>,
}

fn default_limit() -> usize {
    DEFAULT_ITEMS
}

impl BrowseAsk {
    /// The ask, when it is one the command answers: a table that may be read, a partition, a
    /// layout of the lock, a limit of 1 to 1000, and no mix the command line refuses.
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<(), AskError> {
        ctx.may_read(&self.table)?;
        if self.pk.is_empty() {
            return Err(AskError::bad("expected the partition key's value (pk), found nothing"));
        }
        ctx.limit(self.limit)?;
        if let Some(layout) = &self.layout {
            ctx.layout(layout)?;
        }
        if let (Some(_), Some(index)) = (&self.after, &self.index) {
            return Err(AskError::bad(format!("after starts a page of the table, not of the index {index}")));
        }
        Ok(())
    }

    /// The command line that asks the same.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("browse");
        line.option("--table", &self.table)
            .option_if("--index", self.index.as_deref())
            .option("--pk", &self.pk)
            .option_if("--layout", self.layout.as_deref())
            .option("--limit", self.limit.to_string())
            .flag("--reverse", self.reverse)
            .option_if("--after", self.after.as_deref())
            .option_if("--shard", self.shard.map(|s| s.to_string()).as_deref())
            .flag("--group", self.group);
        line
    }
}
