//! A table with one global secondary index, `gsi1` (`gsi1pk`, `gsi1sk`, every attribute
//! projected), created on demand: what the reads of an index across versions run on (the
//! DynamoDB tests and the index benchmark).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection, ProjectionType,
    ScalarAttributeType,
};

/// Creates `table`, its key `pk` (and `sort`, when given), with the index `gsi1`.
pub async fn create_gsi1_table(client: &Client, table: &str, sort: Option<&str>) {
    let attribute = |name: &str| {
        AttributeDefinition::builder().attribute_name(name).attribute_type(ScalarAttributeType::S).build().unwrap()
    };
    let key = |name: &str, kind| KeySchemaElement::builder().attribute_name(name).key_type(kind).build().unwrap();
    let gsi = GlobalSecondaryIndex::builder()
        .index_name("gsi1")
        .key_schema(key("gsi1pk", KeyType::Hash))
        .key_schema(key("gsi1sk", KeyType::Range))
        .projection(Projection::builder().projection_type(ProjectionType::All).build())
        .build()
        .unwrap();
    let names = ["pk", "gsi1pk", "gsi1sk"].into_iter().chain(sort);
    let create = client.create_table().table_name(table).billing_mode(BillingMode::PayPerRequest);
    let mut create =
        names.fold(create, |c, a| c.attribute_definitions(attribute(a))).key_schema(key("pk", KeyType::Hash));
    if let Some(sort) = sort {
        create = create.key_schema(key(sort, KeyType::Range));
    }
    create.global_secondary_indexes(gsi).send().await.expect("create a table with the index gsi1");
}
