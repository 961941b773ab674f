//! Keys in a table: an item's primary key and a partition's query (`item`), key families'
//! unit variants (`family`), entities and their key attributes (`entity`), an entity's own
//! partition query (`entity_query`), index queries and
//! keys (`index`), multi-attribute index keys (`multi`), the table's definition
//! (`definition`) and requests as plain data (`request`). Built on the encoding and the query
//! algebra.

pub(crate) mod definition;
pub(crate) mod entity;
pub(crate) mod entity_query;
pub(crate) mod family;
pub(crate) mod index;
pub(crate) mod item;
pub(crate) mod multi;
pub(crate) mod rank;
pub(crate) mod request;
