//! What a typed Query of entities is: the trait [`query_page`](super::query_page) reads a page
//! of (a table's, an index's or a multi-attribute index's query), the page it gives, and what
//! it needs to read across the layout versions of the query's sort key.

use crate::encoding::key::{DecodeKey, SortKey};
use crate::encoding::layout::Layout;
use crate::encoding::shard::Shards;
use crate::error::{DecodeError, EncodeError};
use crate::query::condition::KeyCondition;
use crate::table::entity::Entity;
use crate::table::entity_query::TableQuery;
use crate::table::index::{IndexKey, IndexQuery, MultiKey};
use crate::table::item::{ItemKey, PartitionQuery};
use crate::table::multi::MultiCondition;
use crate::table::request::QueryRequest;

use super::Attributes;

/// One page of a Query's entities, in the query's order, and the typed key the next page
/// starts after.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityPage<E, C> {
    /// The page's entities.
    pub entities: Vec<E>,
    /// Where the next page starts (the page's `LastEvaluatedKey`, typed, or the last entity's
    /// key across layout versions); `None` after the last.
    pub next: Option<C>,
    /// The items the page's Queries returned: the page's entities, and across layout versions
    /// also the keys read beyond the page or outside the condition. What the page cost.
    pub read: usize,
    /// The Query requests made: 1, or across layout versions one or more per live layout.
    pub requests: usize,
}

/// What [`query_page`](super::query_page) needs to read a query across the live layouts of its sort key (the
/// current one and its `legacy` ones): the partition, the key attributes, the condition on the
/// current layout and the layout with its older ones.
#[derive(Debug, Clone)]
pub struct AcrossVersions<'q> {
    /// The sort key type's name, as errors and layouts name it.
    pub key_name: &'static str,
    /// The encoded partition key.
    pub partition: &'q str,
    /// The partition key attribute.
    pub partition_attribute: &'static str,
    /// The sort key attribute.
    pub sort_attribute: &'static str,
    /// The condition on the current layout's sort keys; `None` for every key of the partition.
    pub condition: Option<&'q KeyCondition>,
    /// The sort key's layout; its older layouts are [`Layout::legacy`].
    pub layout: Layout,
    /// The index read, for an index's query; `None` for the table's.
    pub index: Option<&'static str>,
}

/// A Query whose items are entities of one type, read a page at a time by [`query_page`](super::query_page): an
/// entity's table query (`Order::query(&pk)`), an index query (`Order::by_status(&pk)`) or a
/// multi-attribute index query.
pub trait EntityQuery {
    /// The entity the items hold.
    type Entity: Entity;
    /// The typed key a page starts after: the primary key, or the index key with it.
    type Cursor;

    /// The Query as data, starting after `start`.
    fn query_request(&self, start: Option<&Self::Cursor>) -> Result<QueryRequest, EncodeError>;

    /// The cursor a page's `LastEvaluatedKey` holds.
    fn cursor(&self, key: &Attributes) -> Result<Self::Cursor, DecodeError>;

    /// The shards of the partition it reads, when its partition key is sharded: then one Query
    /// reads one shard, and [`query_page`](super::query_page) refuses it for `query_merged`. `None` by default.
    fn shards(&self) -> Option<Shards> {
        None
    }

    /// The read across the live layouts of its sort key, for a query whose key can have older
    /// layouts: [`query_page`](super::query_page) then reads each layout by its own condition and merges them in
    /// the current order when the layout has older ones (`legacy`), and makes one Query
    /// otherwise. `None` by default: one Query.
    fn across_versions(&self) -> Option<AcrossVersions<'_>> {
        None
    }
}

impl<E> EntityQuery for TableQuery<E>
where
    E: Entity,
    E::Partition: for<'k> DecodeKey<'k>,
    E::Sort: for<'k> DecodeKey<'k>,
{
    type Entity = E;
    type Cursor = ItemKey<E::Partition, E::Sort>;

    fn query_request(&self, start: Option<&Self::Cursor>) -> Result<QueryRequest, EncodeError> {
        self.request(start)
    }

    fn cursor(&self, key: &Attributes) -> Result<Self::Cursor, DecodeError> {
        ItemKey::from_attributes(key, E::KEYS)
    }

    fn shards(&self) -> Option<Shards> {
        <E::Partition as SortKey>::LAYOUT.shard_field().map(|(_, shards)| shards)
    }

    fn across_versions(&self) -> Option<AcrossVersions<'_>> {
        AcrossVersions::of::<E, _, _>(self.partition_query(), None)
    }
}

impl<'q> AcrossVersions<'q> {
    /// The read across versions of `query` (of the table, or of the index `index`), an entity
    /// `E`'s: the key type named as `E`'s layouts name it. `None` for a key without a sort key.
    fn of<E: Entity, P, S: SortKey>(query: &'q PartitionQuery<P, S>, index: Option<&'static str>) -> Option<Self> {
        let names = query.names();
        let sort_attribute = names.sort()?;
        let key_name = E::LAYOUTS
            .iter()
            .find(|l| l.index == index && l.attribute == sort_attribute)
            .map_or_else(|| short_type_name::<S>(), |l| l.name);
        Some(AcrossVersions {
            key_name,
            partition: query.partition(),
            partition_attribute: names.partition(),
            sort_attribute,
            condition: query.condition(),
            layout: S::LAYOUT,
            index,
        })
    }
}

/// A type's name without its path.
fn short_type_name<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    name.rsplit("::").next().unwrap_or(name)
}

impl<E, P, S> EntityQuery for IndexQuery<E, P, S>
where
    E: Entity,
    E::Partition: for<'k> DecodeKey<'k>,
    E::Sort: for<'k> DecodeKey<'k>,
    P: SortKey + for<'k> DecodeKey<'k>,
    S: SortKey + for<'k> DecodeKey<'k>,
{
    type Entity = E;
    type Cursor = IndexKey<E, P, S>;

    fn query_request(&self, start: Option<&Self::Cursor>) -> Result<QueryRequest, EncodeError> {
        self.request(start)
    }

    fn cursor(&self, key: &Attributes) -> Result<Self::Cursor, DecodeError> {
        self.key(key)
    }

    fn across_versions(&self) -> Option<AcrossVersions<'_>> {
        AcrossVersions::of::<E, _, _>(self.partition_query(), Some(self.index().name()))
    }
}

impl<E> EntityQuery for MultiCondition<E>
where
    E: Entity,
    E::Partition: for<'k> DecodeKey<'k>,
    E::Sort: for<'k> DecodeKey<'k>,
{
    type Entity = E;
    type Cursor = MultiKey<E>;

    fn query_request(&self, start: Option<&Self::Cursor>) -> Result<QueryRequest, EncodeError> {
        self.request(start)
    }

    fn cursor(&self, key: &Attributes) -> Result<Self::Cursor, DecodeError> {
        self.key(key)
    }
}
