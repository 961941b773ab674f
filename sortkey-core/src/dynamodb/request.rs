//! Write requests as plain data (the item or key, the expressions, their names and values),
//! which a test, another SDK or a tool reads as they are, and `apply_to` sets on the SDK's
//! fluent builders.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::delete_item::builders::DeleteItemFluentBuilder;
use aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder;
use aws_sdk_dynamodb::operation::transact_write_items::builders::TransactWriteItemsFluentBuilder;
use aws_sdk_dynamodb::operation::update_item::builders::UpdateItemFluentBuilder;
use aws_sdk_dynamodb::types::{AttributeValue, Delete, Put, TransactWriteItem};

use super::Attributes;

/// Conditions, the attribute names and the values their placeholders stand for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conditions {
    /// Conditions that must all hold, each a `ConditionExpression` of its own.
    pub all: Vec<String>,
    /// `ExpressionAttributeNames`: placeholder, attribute name (of the conditions and, for an
    /// update, of its assignments too).
    pub names: Vec<(String, String)>,
    /// `ExpressionAttributeValues`: placeholder, value.
    pub values: Vec<(String, AttributeValue)>,
}

impl Conditions {
    /// The `ConditionExpression`: every condition, each in parentheses, joined by `AND`; `None`
    /// when there is none.
    pub fn expression(&self) -> Option<String> {
        match self.all.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            all => Some(all.iter().map(|c| format!("({c})")).collect::<Vec<_>>().join(" AND ")),
        }
    }

    /// Adds a condition of the caller's own; its placeholders go in `names` and `values`, and
    /// must be other than the request's own (which start with `#e_` and `:e_`).
    pub fn and(&mut self, condition: &str) {
        self.all.push(condition.to_owned());
    }

    /// `ExpressionAttributeNames` and `ExpressionAttributeValues` as the SDK takes them: `None`
    /// for an empty map, which DynamoDB refuses.
    fn maps(&self) -> (Option<Attributes>, Option<std::collections::HashMap<String, String>>) {
        let values: Attributes = self.values.iter().cloned().collect();
        let names: std::collections::HashMap<String, String> = self.names.iter().cloned().collect();
        ((!values.is_empty()).then_some(values), (!names.is_empty()).then_some(names))
    }
}

/// A PutItem as data: the item, and the conditions it is written under.
#[derive(Debug, Clone, PartialEq)]
pub struct PutRequest {
    /// The whole item.
    pub item: Attributes,
    /// What must hold for the write to happen.
    pub conditions: Conditions,
}

impl PutRequest {
    /// Sets the item and the conditions on a PutItem (the table is the caller's).
    pub fn apply_to(&self, put: PutItemFluentBuilder) -> PutItemFluentBuilder {
        let (values, names) = self.conditions.maps();
        put.set_item(Some(self.item.clone()))
            .set_condition_expression(self.conditions.expression())
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
    }

    /// The transaction action of the put into `table`.
    pub fn to_transact(&self, table: &str) -> Result<TransactWriteItem, BuildError> {
        let (values, names) = self.conditions.maps();
        let put = Put::builder()
            .table_name(table)
            .set_item(Some(self.item.clone()))
            .set_condition_expression(self.conditions.expression())
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .build()?;
        Ok(TransactWriteItem::builder().put(put).build())
    }
}

/// An UpdateItem as data: the key, the `SET` assignments and `REMOVE`d attributes, and the
/// conditions (whose names and values serve the assignments too). The caller may add
/// assignments and conditions of its own with placeholders of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateRequest {
    /// The item's primary key.
    pub key: Attributes,
    /// `#name = :value` assignments.
    pub set: Vec<String>,
    /// `#name`s to remove.
    pub remove: Vec<String>,
    /// The conditions, and every name and value of the request.
    pub conditions: Conditions,
}

impl UpdateRequest {
    /// The `UpdateExpression`: one `SET` and one `REMOVE` clause.
    pub fn update_expression(&self) -> String {
        let mut out = Vec::new();
        if !self.set.is_empty() {
            out.push(format!("SET {}", self.set.join(", ")));
        }
        if !self.remove.is_empty() {
            out.push(format!("REMOVE {}", self.remove.join(", ")));
        }
        out.join(" ")
    }

    /// Sets the key, the update and the conditions on an UpdateItem (the table is the caller's).
    pub fn apply_to(&self, update: UpdateItemFluentBuilder) -> UpdateItemFluentBuilder {
        let (values, names) = self.conditions.maps();
        update
            .set_key(Some(self.key.clone()))
            .update_expression(self.update_expression())
            .set_condition_expression(self.conditions.expression())
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
    }
}

/// A DeleteItem as data: the key, and the conditions it is deleted under.
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteRequest {
    /// The item's primary key.
    pub key: Attributes,
    /// What must hold for the delete to happen.
    pub conditions: Conditions,
}

impl DeleteRequest {
    /// Sets the key and the conditions on a DeleteItem (the table is the caller's).
    pub fn apply_to(&self, delete: DeleteItemFluentBuilder) -> DeleteItemFluentBuilder {
        let (values, names) = self.conditions.maps();
        delete
            .set_key(Some(self.key.clone()))
            .set_condition_expression(self.conditions.expression())
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
    }

    /// The transaction action of the delete from `table`.
    pub fn to_transact(&self, table: &str) -> Result<TransactWriteItem, BuildError> {
        let (values, names) = self.conditions.maps();
        let delete = Delete::builder()
            .table_name(table)
            .set_key(Some(self.key.clone()))
            .set_condition_expression(self.conditions.expression())
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .build()?;
        Ok(TransactWriteItem::builder().delete(delete).build())
    }
}

/// A changed primary key as data: the delete of the old item and the put of the new one, which
/// go in one `TransactWriteItems`, so that both happen or neither does.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRequest {
    /// The delete of the old item, conditioned on it being as read.
    pub delete: DeleteRequest,
    /// The put of the new item, conditioned on no item having its key.
    pub put: PutRequest,
}

impl MoveRequest {
    /// Sets both actions, on `table`, on a TransactWriteItems.
    pub fn apply_to(
        &self,
        table: &str,
        transaction: TransactWriteItemsFluentBuilder,
    ) -> Result<TransactWriteItemsFluentBuilder, BuildError> {
        Ok(transaction.transact_items(self.delete.to_transact(table)?).transact_items(self.put.to_transact(table)?))
    }
}
