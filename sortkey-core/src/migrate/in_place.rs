//! A secondary index's key migrated in place: the item stays under its primary key, and the
//! index attribute ([`Backfill::index_attribute`]) is rewritten from an older layout to the
//! current one, under the same move check, checkpoints, leases and rate as a sort key's move.

use std::borrow::Cow;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::migrate::backfill::{Backfill, Failure, MOVE_ATTEMPTS, Progress};
use crate::migrate::rekey::{Rekey, Rekeyed};

/// An item as the SDK holds it.
type Attributes = std::collections::HashMap<String, AttributeValue>;

impl Backfill<'_> {
    /// One Scan page in place: each item's `attribute` classified by `rekey`; one in a layout
    /// the migration moves from is rewritten.
    pub(super) async fn rewrite_in_place<R: Rekey + Sync>(
        &self,
        rekey: &R,
        attribute: &str,
        items: &[Attributes],
        done: &mut Progress,
    ) -> Result<(), Failure> {
        for item in items {
            done.scanned += 1;
            match target(rekey, attribute, item)? {
                Target::Keep(Rekeyed::Current) => done.current += 1,
                Target::Keep(_) | Target::Absent => done.other += 1,
                Target::Rewrite(_, _) => self.rewrite_attribute(rekey, attribute, item, done).await?,
            }
        }
        Ok(())
    }

    /// Rewrites one item's `attribute` to its key in the current layout, on the condition that
    /// it still holds the old key and that the item is as read. An item changed meanwhile is read
    /// again and rewritten as it is now, up to [`MOVE_ATTEMPTS`] times; one whose attribute
    /// someone else brought to the current layout (or removed) is `superseded`; one still
    /// changing, or gone, is `changed` and left for the next pass.
    async fn rewrite_attribute<R: Rekey + Sync>(
        &self,
        rekey: &R,
        attribute: &str,
        item: &Attributes,
        done: &mut Progress,
    ) -> Result<(), Failure> {
        let mut item = Cow::Borrowed(item);
        for attempt in 1..=MOVE_ATTEMPTS {
            let (old, new) = match target(rekey, attribute, &item)? {
                Target::Rewrite(old, new) => (old, new),
                Target::Keep(_) | Target::Absent => {
                    done.superseded += 1;
                    return Ok(());
                }
            };
            let unchanged = self.unchanged(&item)?;
            let mut update = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(self.key_in(&item)))
                .update_expression("SET #ia = :ia");
            if !planted_bug!(InPlaceUnconditioned) {
                update = update
                    .condition_expression(format!("({}) AND #ia = :io", unchanged.expression))
                    .set_expression_attribute_names(Some(unchanged.names))
                    .set_expression_attribute_values(Some(unchanged.values))
                    .expression_attribute_values(":io", AttributeValue::S(old));
            }
            let update = update
                .expression_attribute_names("#ia", attribute)
                .expression_attribute_values(":ia", AttributeValue::S(new));
            match update.send().await {
                Ok(_) => {
                    done.rewritten += 1;
                    return Ok(());
                }
                Err(e) if e.as_service_error().is_some_and(|s| s.is_conditional_check_failed_exception()) => {}
                Err(e) => return Err(Failure::sdk("UpdateItem", e)),
            }
            if attempt == MOVE_ATTEMPTS {
                break;
            }
            match self.read_again(&item).await? {
                Some(now) => item = Cow::Owned(now),
                None => break,
            }
        }
        done.changed += 1;
        Ok(())
    }
}

/// What becomes of one item's index attribute.
enum Target {
    /// The item has no such attribute as a string: it is not in the index.
    Absent,
    /// The attribute stays: current, or in no layout the migration moves from.
    Keep(Rekeyed),
    /// The attribute holds the old key `.0`, to be rewritten as `.1`.
    Rewrite(String, String),
}

/// What `rekey` says of `item`'s `attribute`; an error names the key it cannot decide on.
fn target<R: Rekey>(rekey: &R, attribute: &str, item: &Attributes) -> Result<Target, Failure> {
    let Some(AttributeValue::S(old)) = item.get(attribute) else { return Ok(Target::Absent) };
    let rekeyed =
        rekey.rekey(old).map_err(|e| Failure::decode(format!("the item's `{attribute}` `{old}`: {}", e.kind)))?;
    Ok(match rekeyed {
        Rekeyed::Move(new) => Target::Rewrite(old.clone(), new),
        other => Target::Keep(other),
    })
}
