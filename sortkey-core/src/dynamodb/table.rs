//! Table definitions: a CreateTable from the entities' declarations, and the differences of
//! a DescribeTable from them.

use aws_sdk_dynamodb::error::BuildError;
use aws_sdk_dynamodb::operation::create_table::builders::CreateTableFluentBuilder;
use aws_sdk_dynamodb::types::{self as ddb};

use crate::table::definition::{Billing, Projection, TableDefinition};
use crate::table::multi::ScalarType;
use crate::table::request::{CreateTableRequest, KeySchema, KeyType, index_schema};

impl TableDefinition {
    /// Sets the table's name, `AttributeDefinitions`, `KeySchema`, global secondary indexes
    /// (with their key schema and projection) and billing mode on a CreateTable: its
    /// [`create_request`](Self::create_request) applied.
    pub fn apply_to_create(&self, create: CreateTableFluentBuilder) -> Result<CreateTableFluentBuilder, BuildError> {
        self.create_request().apply_to(create)
    }

    /// How a described table differs from this definition: its key schema, attribute types and
    /// indexes (their key schema and projection type); empty when it matches. A check for a
    /// deployed table, or one created from this definition.
    pub fn differences(&self, table: &ddb::TableDescription) -> Vec<String> {
        let mut out = Vec::new();
        let schema = |keys: &[ddb::KeySchemaElement]| -> Vec<(String, String)> {
            keys.iter().map(|k| (k.attribute_name().to_owned(), k.key_type().as_str().to_owned())).collect()
        };
        let want = |k: &KeySchema| -> Vec<(String, String)> {
            k.iter().map(|(n, t)| ((*n).to_owned(), t.as_str().to_owned())).collect()
        };
        let request = self.create_request();
        if schema(table.key_schema()) != want(&request.key_schema) {
            let expected = want(&request.key_schema);
            out.push(format!("key schema: expected {expected:?}, found {:?}", schema(table.key_schema())));
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
            let expected = want(&index_schema(&index.names));
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

impl CreateTableRequest {
    /// Sets the request on a CreateTable.
    pub fn apply_to(&self, create: CreateTableFluentBuilder) -> Result<CreateTableFluentBuilder, BuildError> {
        let mut create = create.table_name(&self.table_name);
        for (name, t) in &self.attribute_definitions {
            let def = ddb::AttributeDefinition::builder()
                .attribute_name(*name)
                .attribute_type(scalar_attribute_type(*t))
                .build()?;
            create = create.attribute_definitions(def);
        }
        create = create.set_key_schema(Some(schema_elements(&self.key_schema)?));
        let throughput = match self.billing {
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
        for index in &self.indexes {
            let gsi = ddb::GlobalSecondaryIndex::builder()
                .index_name(index.name)
                .set_key_schema(Some(schema_elements(&index.key_schema)?))
                .projection(projection(&index.projection))
                .set_provisioned_throughput(throughput.clone())
                .build()?;
            create = create.global_secondary_indexes(gsi);
        }
        Ok(create)
    }
}

/// A key schema as the SDK's elements.
fn schema_elements(schema: &KeySchema) -> Result<Vec<ddb::KeySchemaElement>, BuildError> {
    let key_type = |t: &KeyType| match t {
        KeyType::Hash => ddb::KeyType::Hash,
        KeyType::Range => ddb::KeyType::Range,
    };
    schema
        .iter()
        .map(|(n, t)| ddb::KeySchemaElement::builder().attribute_name(*n).key_type(key_type(t)).build())
        .collect()
}

/// A projection as the SDK's.
fn projection(projection: &Projection) -> ddb::Projection {
    match projection {
        Projection::All => ddb::Projection::builder().projection_type(ddb::ProjectionType::All).build(),
        Projection::KeysOnly => ddb::Projection::builder().projection_type(ddb::ProjectionType::KeysOnly).build(),
        Projection::Include(attrs) => ddb::Projection::builder()
            .projection_type(ddb::ProjectionType::Include)
            .set_non_key_attributes(Some(attrs.clone()))
            .build(),
    }
}

fn scalar_attribute_type(t: ScalarType) -> ddb::ScalarAttributeType {
    match t {
        ScalarType::S => ddb::ScalarAttributeType::S,
        ScalarType::N => ddb::ScalarAttributeType::N,
    }
}
