//! Table definitions: a CreateTable from the entities' declarations, and the differences of
//! a DescribeTable from them.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{self as ddb};

use crate::table::definition::{Billing, Projection, TableDefinition};
use crate::table::entity::IndexKeys;
use crate::table::item::KeyNames;
use crate::table::multi::ScalarType;

impl TableDefinition {
    /// Sets the table's name, `AttributeDefinitions`, `KeySchema`, global secondary indexes
    /// (with their key schema and projection) and billing mode on a CreateTable.
    pub fn apply_to_create(&self, create: CreateTableFluentBuilder) -> Result<CreateTableFluentBuilder, BuildError> {
        let mut create = create.table_name(self.name());
        for (name, t) in self.attribute_types() {
            let def = ddb::AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(scalar_attribute_type(t))
                .build()?;
            create = create.attribute_definitions(def);
        }
        for key in key_schema(self.keys())? {
            create = create.key_schema(key);
        }
        let throughput = match self.billing_mode() {
            Billing::PayPerRequest => {
                create = create.billing_mode(ddb::BillingMode::PayPerRequest);
                None
            }
            Billing::Provisioned { read, write } => {
                let t = ddb::ProvisionedThroughput::builder()
                    .read_capacity_units(read)
                    .write_capacity_units(write)
                    .build()?;
                create = create.billing_mode(ddb::BillingMode::Provisioned).provisioned_throughput(t.clone());
                Some(t)
            }
        };
        for index in self.indexes() {
            let projection = match &index.projection {
                Projection::All => ddb::Projection::builder().projection_type(ddb::ProjectionType::All).build(),
                Projection::KeysOnly => {
                    ddb::Projection::builder().projection_type(ddb::ProjectionType::KeysOnly).build()
                }
                Projection::Include(attrs) => ddb::Projection::builder()
                    .projection_type(ddb::ProjectionType::Include)
                    .set_non_key_attributes(Some(attrs.clone()))
                    .build(),
            };
            let gsi = ddb::GlobalSecondaryIndex::builder()
                .index_name(index.names.name())
                .set_key_schema(Some(index_schema(&index.names)?))
                .projection(projection)
                .set_provisioned_throughput(throughput.clone())
                .build()?;
            create = create.global_secondary_indexes(gsi);
        }
        Ok(create)
    }

    /// How a described table differs from this definition: its key schema, attribute types and
    /// indexes (their key schema and projection type); empty when it matches. A check for a
    /// deployed table, or one created from this definition.
    pub fn differences(&self, table: &ddb::TableDescription) -> Vec<String> {
        let mut out = Vec::new();
        let schema = |keys: &[ddb::KeySchemaElement]| -> Vec<(String, String)> {
            keys.iter().map(|k| (k.attribute_name().to_owned(), k.key_type().as_str().to_owned())).collect()
        };
        let want = |k: KeyNames| {
            let sort = k.sort().map(|s| (s.to_owned(), "RANGE".to_owned()));
            std::iter::once((k.partition().to_owned(), "HASH".to_owned())).chain(sort).collect::<Vec<_>>()
        };
        if schema(table.key_schema()) != want(self.keys()) {
            out.push(format!("key schema: expected {:?}, found {:?}", want(self.keys()), schema(table.key_schema())));
        }
        for (name, t) in self.attribute_types() {
            let found = table.attribute_definitions().iter().find(|d| d.attribute_name() == name);
            match found.map(|d| d.attribute_type().as_str()) {
                Some(x) if x == t.as_str() => {}
                other => out.push(format!("attribute `{name}`: expected type {}, found {other:?}", t.as_str())),
            }
        }
        let gsis = table.global_secondary_indexes();
        for index in self.indexes() {
            let Some(found) = gsis.iter().find(|g| g.index_name() == Some(index.names.name())) else {
                out.push(format!("index `{}`: expected it, found none", index.names.name()));
                continue;
            };
            let expected: Vec<(String, String)> = match index_schema(&index.names) {
                Ok(keys) => schema(&keys),
                Err(e) => vec![(e.to_string(), String::new())],
            };
            if schema(found.key_schema()) != expected {
                out.push(format!(
                    "index `{}` key schema: expected {expected:?}, found {:?}",
                    index.names.name(),
                    schema(found.key_schema())
                ));
            }
            let expected = match index.projection {
                Projection::All => "ALL",
                Projection::KeysOnly => "KEYS_ONLY",
                Projection::Include(_) => "INCLUDE",
            };
            let projected = found.projection().and_then(|p| p.projection_type()).map(|t| t.as_str());
            if projected != Some(expected) {
                out.push(format!(
                    "index `{}` projection: expected {expected}, found {projected:?}",
                    index.names.name()
                ));
            }
        }
        for g in gsis {
            let name = g.index_name().unwrap_or_default();
            if !self.indexes().iter().any(|i| i.names.name() == name) {
                out.push(format!("index `{name}`: not in the definition, found in the table"));
            }
        }
        out
    }
}

/// An index's key schema: HASH attributes, then RANGE attributes, in order.
fn index_schema(index: &crate::table::entity::IndexNames) -> Result<Vec<ddb::KeySchemaElement>, BuildError> {
    let multi = match index.keys() {
        IndexKeys::Composite(keys) => return key_schema(keys),
        IndexKeys::Multi(multi) => multi,
    };
    let hash = multi.partition.iter().map(|(n, _)| (n, ddb::KeyType::Hash));
    let range = multi.sort.iter().map(|(n, _)| (n, ddb::KeyType::Range));
    hash.chain(range).map(|(n, t)| ddb::KeySchemaElement::builder().attribute_name(*n).key_type(t).build()).collect()
}

/// A key schema of a partition attribute and, when there is one, a sort attribute.
fn key_schema(keys: KeyNames) -> Result<Vec<ddb::KeySchemaElement>, BuildError> {
    let sort = keys.sort().map(|s| (s, ddb::KeyType::Range));
    std::iter::once((keys.partition(), ddb::KeyType::Hash))
        .chain(sort)
        .map(|(n, t)| ddb::KeySchemaElement::builder().attribute_name(n).key_type(t).build())
        .collect()
}

fn scalar_attribute_type(t: ScalarType) -> ddb::ScalarAttributeType {
    match t {
        ScalarType::S => ddb::ScalarAttributeType::S,
        ScalarType::N => ddb::ScalarAttributeType::N,
    }
}
