//! What `sortkey rank` asks: the rank of a value (or a whole key) of a ranked layout on a
//! table's partition, every shard of it when the lock shards the partition key.

use sortkey_core::RankedField;

use crate::ask::command::CommandLine;
use crate::ask::context::Context;
use crate::ask::query::{Condition, refused, typed};
use crate::outcome::AskError;

/// A rank: `sortkey rank --table T --pk SEASON#2026 'score=1500'`.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub(crate) struct RankAsk {
    /// The table.
    #[arg(long)]
    pub(crate) table: String,
    /// The partition key's value, as stored; a sharded partition (the lock's layout of the
    /// partition key says `shards=N`) given without its shard is ranked over every shard.
    #[arg(long, value_name = "VALUE")]
    pub(crate) pk: String,
    /// The ranked layout of the sort key, by its name in the lock (the one a `rank` line names
    /// when the lock has one).
    #[arg(long)]
    pub(crate) layout: Option<String>,
    /// Ranks in descending key order: one more than the items after the key.
    #[arg(long)]
    pub(crate) reverse: bool,
    /// Ranks nothing: reads the partition whole and names every counter item that differs from
    /// the count of its items (exit status 1 when one does), with the command that repairs them.
    #[arg(long, conflicts_with_all = ["repair", "reverse"])]
    pub(crate) check: bool,
    /// Rewrites the counter items that differ from the count of their items, each batch
    /// conditional on no write having run since the partition was read, then checks.
    #[arg(long, conflicts_with = "reverse")]
    pub(crate) repair: bool,
    /// The value ranked, field by field in the layout's order, each `field=value`: the ranked
    /// field (`score=1500`: one more than the items that sort before every key of that score),
    /// then more fields for a whole key (`score=1500 player=p_7`: among its ties too).
    #[arg(required_unless_present_any = ["check", "repair"], conflicts_with_all = ["check", "repair"])]
    pub(crate) conditions: Vec<Condition>,
}

/// The rank page's form (`/rank?table=T&pk=P&value=1500`): the table, the partition, the
/// ranked layout when the lock ranks more than one, the ranked field's value and, for a whole
/// key, its other fields (`then=player=p_7`, space-separated), highest first or not.
#[cfg(feature = "serve")]
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct RankForm {
    pub(crate) table: String,
    pub(crate) pk: String,
    pub(crate) layout: Option<String>,
    pub(crate) value: String,
    pub(crate) then: String,
    pub(crate) reverse: bool,
    /// `json` for the command's document (read by the page's handler).
    pub(crate) format: Option<String>,
}

#[cfg(feature = "serve")]
impl RankForm {
    /// Whether the form asks anything yet.
    pub(crate) fn asked(&self) -> bool {
        !(self.table.is_empty() && self.pk.is_empty() && self.value.is_empty())
    }

    /// The command's ask: the value as the ranked field's `field=value`, then the other fields.
    pub(crate) fn ask(&self, ctx: &Context<'_>) -> Result<RankAsk, AskError> {
        let layout = self.layout.clone().filter(|l| !l.is_empty());
        let rank = match &layout {
            Some(name) => ctx.lock.ranks.iter().find(|r| r.layout == *name),
            None => ctx.lock.ranks.first(),
        };
        let field = rank.map(|r| r.field.clone()).ok_or_else(|| {
            AskError::bad(format!(
                "{}: no layout keeps rank counters; expected a `rank Layout.field levels=N` line",
                ctx.lock_path
            ))
        })?;
        let mut conditions = vec![Condition::Fix { field, value: self.value.clone() }];
        for more in self.then.split_whitespace() {
            conditions
                .push(more.parse().map_err(|e: String| AskError::bad(format!("the page's parameter `then`: {e}")))?);
        }
        Ok(RankAsk {
            table: self.table.clone(),
            pk: self.pk.clone(),
            layout,
            reverse: self.reverse,
            check: false,
            repair: false,
            conditions,
        })
    }
}

/// What a rank ask names, checked: the layout, its ranked field, and the key ranked.
pub(crate) struct Ranked {
    pub(crate) layout: String,
    pub(crate) field: RankedField,
    /// None for `--check` and `--repair`, which rank nothing.
    pub(crate) key: Option<String>,
}

impl RankAsk {
    /// The ask against the lock: a table that may be read, a layout with a `rank` line, and
    /// fixed values of its fields in order, from the ranked one.
    pub(crate) fn validate(&self, ctx: &Context<'_>) -> Result<Ranked, AskError> {
        ctx.may_read(&self.table)?;
        let layout = match (&self.layout, ctx.lock.ranks.as_slice()) {
            (Some(name), _) => name.clone(),
            (None, [one]) => one.layout.clone(),
            (None, []) => {
                return Err(AskError::bad(format!(
                    "{}: no layout keeps rank counters; expected a `rank Layout.field levels=N` line",
                    ctx.lock_path
                )));
            }
            (None, many) => {
                let names: Vec<&str> = many.iter().map(|r| r.layout.as_str()).collect();
                return Err(AskError::bad(format!("expected --layout, one of {}", names.join(", "))));
            }
        };
        let dyn_layout = ctx.layout(&layout)?;
        let field = ctx.lock.ranked(&layout).ok_or_else(|| {
            AskError::bad(format!(
                "{}: layout `{layout}` keeps no rank counters; expected a `rank {layout}.FIELD levels=N` line",
                ctx.lock_path
            ))
        })?;
        let mut query = dyn_layout.query();
        for condition in &self.conditions {
            let Condition::Fix { field: name, value } = condition else {
                return Err(AskError::bad(format!(
                    "condition {}: expected `field=value`, a value to rank",
                    crate::display::quoted(&condition.to_string())
                )));
            };
            let value = typed(&query, &layout, name, value)?;
            query = query.fix(name, &value);
        }
        if self.conditions.is_empty() {
            return Ok(Ranked { layout, field, key: None });
        }
        let condition = if query.next_field().is_some() { query.begins_with() } else { query.eq() };
        let condition = condition.map_err(refused)?;
        let key = condition.values().first().map(|v| (*v).to_owned());
        Ok(Ranked { layout, field, key })
    }

    /// The command line that asks the same.
    pub(crate) fn command_line(&self, ctx: &Context<'_>) -> CommandLine {
        let mut line = ctx.command("rank");
        line.option("--table", &self.table).option("--pk", &self.pk).option_if("--layout", self.layout.as_deref());
        line.flag("--reverse", self.reverse).flag("--check", self.check).flag("--repair", self.repair);
        for condition in &self.conditions {
            line.arg(condition.to_string());
        }
        line
    }
}
