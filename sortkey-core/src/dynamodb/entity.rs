//! Entities' items and updates: the key attributes merged into an item, an update's key part
//! on an UpdateItem, an entity's `Key`.

use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;

use crate::error::EncodeError;
use crate::table::entity::{Entity, EntityKeys, KeyUpdate};

use super::Attributes;
use super::multi::scalar;

impl EntityKeys {
    /// Every key attribute of the item as `S` attributes: merged into the item of a PutItem (for
    /// example over a `serde_dynamo::to_item` map of its other fields), they write every index
    /// key the item belongs to.
    pub fn to_item(&self) -> Attributes {
        self.present().iter().map(|(name, value)| ((*name).to_owned(), scalar(value))).collect()
    }

    /// Writes the key attributes into `item` (a `serde_dynamo::to_item` map of the entity, say)
    /// and removes from it the attributes of the indexes the item is absent from, so that no
    /// `NULL` or stale value is left where an index expects a key.
    pub fn write_into(&self, item: &mut Attributes) {
        for name in self.absent() {
            item.remove(*name);
        }
        item.extend(self.to_item());
    }
}

impl KeyUpdate {
    /// Sets `UpdateExpression` on an UpdateItem to the key part with the caller's own `set`
    /// assignments and `remove` attributes (their placeholders the caller adds to the builder),
    /// and adds the key part's names and values.
    pub fn apply_to_update(
        &self,
        update: UpdateItemFluentBuilder,
        set: &[&str],
        remove: &[&str],
    ) -> UpdateItemFluentBuilder {
        let update = update.update_expression(self.expression_with(set, remove));
        let update = self.names.iter().fold(update, |u, (p, n)| u.expression_attribute_names(p, n));
        self.values.iter().fold(update, |u, (p, v)| u.expression_attribute_values(p, scalar(v)))
    }
}

/// The `Key` of an entity's item: its primary key under the entity's attribute names.
pub fn entity_key<E: Entity>(entity: &E) -> Result<Attributes, EncodeError> {
    entity.primary_key().to_attributes(E::KEYS)
}
