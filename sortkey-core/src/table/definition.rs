//! Table definitions: the key schema of a table and of its secondary indexes, from the
//! declarations of the entities that share it, so that no attribute definition is written by
//! hand (with the `dynamodb` feature, `TableDefinition::apply_to_create` sets them on a
//! CreateTable).

use std::fmt;

use crate::table::entity::{Entity, IndexKeys, IndexNames, KeyLayout};
use crate::table::item::KeyNames;
use crate::table::multi::ScalarType;

/// What a secondary index copies from the items.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Projection {
    /// Every attribute (the default).
    #[default]
    All,
    /// The key attributes of the table and the index only.
    KeysOnly,
    /// The keys and these attributes.
    Include(Vec<String>),
}

/// How the table is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Billing {
    /// On demand (the default).
    #[default]
    PayPerRequest,
    /// Provisioned capacity, for the table and each index alike.
    Provisioned {
        /// Read capacity units.
        read: i64,
        /// Write capacity units.
        write: i64,
    },
}

/// One global secondary index of a table definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexDefinition {
    /// The index's name and key attributes.
    pub names: IndexNames,
    /// What it projects.
    pub projection: Projection,
    /// The entities that declare it.
    pub entities: Vec<&'static str>,
}

/// The definition of one table: its key attributes, its global secondary indexes and its
/// billing, from one or more entities.
///
/// ```
/// use sortkey_core::{Entity, Projection, TableDefinition};
///
/// #[derive(Entity)]
/// #[entity(
///     pk(prefix = "CUST", customer_id),
///     sk(prefix = "ORDER", order_id),
///     index(gsi1(pk(prefix = "STATUS", status), sk(order_id)))
/// )]
/// struct Order {
///     customer_id: u32,
///     order_id: String,
///     status: String,
/// }
///
/// #[derive(Entity)]
/// #[entity(pk(prefix = "CUST", customer_id), sk(prefix = "ADDR", label))]
/// struct Address {
///     customer_id: u32,
///     label: String,
/// }
///
/// let table = TableDefinition::of::<Order>("shop")
///     .with::<Address>()
///     .unwrap()
///     .projection("gsi1", Projection::KeysOnly)
///     .unwrap();
/// assert_eq!(table.attributes(), ["pk", "sk", "gsi1pk", "gsi1sk"]);
/// assert_eq!(table.indexes()[0].projection, Projection::KeysOnly);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDefinition {
    name: String,
    keys: KeyNames,
    indexes: Vec<IndexDefinition>,
    billing: Billing,
    entities: Vec<&'static str>,
    /// The composite keys of its entities, each once: what a lock of the table holds.
    layouts: Vec<KeyLayout>,
}

impl TableDefinition {
    /// The table `name` with the primary key attributes `keys` and no index yet, billed on
    /// demand: for keys without an entity (an `ItemKey`), or to add entities to.
    pub fn new(name: &str, keys: KeyNames) -> Self {
        TableDefinition {
            name: name.to_owned(),
            keys,
            indexes: Vec::new(),
            billing: Billing::default(),
            entities: Vec::new(),
            layouts: Vec::new(),
        }
    }

    /// The table `name` of the entity `E`: its primary key and its indexes, projecting all
    /// attributes, billed on demand.
    pub fn of<E: Entity>(name: &str) -> Self {
        let indexes = E::INDEXES
            .iter()
            .map(|&names| IndexDefinition { names, projection: Projection::All, entities: vec![E::NAME] })
            .collect();
        let layouts = E::LAYOUTS.to_vec();
        TableDefinition { entities: vec![E::NAME], indexes, layouts, ..TableDefinition::new(name, E::KEYS) }
    }

    /// Adds the entity `E`, which shares the table: its primary key attributes must be the
    /// table's, and an index it shares must have the same key attributes.
    pub fn with<E: Entity>(mut self) -> Result<Self, TableError> {
        if E::KEYS != self.keys {
            return Err(TableError {
                table: self.name,
                message: format!(
                    "entity `{}` has the primary key attributes {}, but {} has {}; expected one key schema per table",
                    E::NAME,
                    E::KEYS,
                    entities(&self.entities),
                    self.keys
                ),
            });
        }
        for &names in E::INDEXES {
            match self.indexes.iter_mut().find(|i| i.names.name() == names.name()) {
                Some(existing) if existing.names.keys() != names.keys() => {
                    let message = format!(
                        "index `{}` of entity `{}` has the key attributes {}, but {} gives it {}: {}; expected one \
                         key schema per index",
                        names.name(),
                        E::NAME,
                        names.keys(),
                        entities(&existing.entities),
                        existing.names.keys(),
                        first_difference(names.keys(), existing.names.keys())
                    );
                    return Err(TableError { table: self.name, message });
                }
                Some(existing) => existing.entities.push(E::NAME),
                None => {
                    self.indexes.push(IndexDefinition { names, projection: Projection::All, entities: vec![E::NAME] })
                }
            }
        }
        if let Err(message) = self.check_types(E::NAME) {
            return Err(TableError { table: self.name, message });
        }
        self.entities.push(E::NAME);
        for layout in E::LAYOUTS {
            if !self.layouts.contains(layout) {
                self.layouts.push(*layout);
            }
        }
        Ok(self)
    }

    /// One type per attribute across the table, as DynamoDB's `AttributeDefinitions` hold one:
    /// an attribute that the entity `entity`'s indexes type otherwise than another index of the
    /// table is an error naming both.
    fn check_types(&self, entity: &str) -> Result<(), String> {
        let mut seen: Vec<(&str, ScalarType, &IndexDefinition)> = Vec::new();
        for index in &self.indexes {
            for (name, ty) in typed_attributes(index.names.keys()) {
                match seen.iter().find(|(n, _, _)| *n == name) {
                    Some(&(_, other, first)) if other != ty => {
                        // The entity being added is on one side; the table as it was, the other.
                        let ((new, new_ty), (old, old_ty)) = match index.entities.contains(&entity) {
                            true => ((index, ty), (first, other)),
                            false => ((first, other), (index, ty)),
                        };
                        return Err(format!(
                            "entity `{entity}` types the attribute `{name}` {} in index `{}`, but {} types it {} in \
                             index `{}`; expected one type per attribute, as a table defines each attribute once",
                            new_ty.as_str(),
                            new.names.name(),
                            entities(&old.entities),
                            old_ty.as_str(),
                            old.names.name()
                        ));
                    }
                    Some(_) => {}
                    None => seen.push((name, ty, index)),
                }
            }
        }
        Ok(())
    }

    /// The composite keys of the table's entities (the primary key's and each index's), each
    /// once, in the order the entities were added: what [`LockedKeys::table`](crate::LockedKeys::table)
    /// locks, with the attribute each is held in.
    pub fn key_layouts(&self) -> &[KeyLayout] {
        &self.layouts
    }

    /// Sets what the index `index` projects; an error when the table has no such index.
    pub fn projection(mut self, index: &str, projection: Projection) -> Result<Self, TableError> {
        match self.indexes.iter_mut().find(|i| i.names.name() == index) {
            Some(i) => {
                i.projection = projection;
                Ok(self)
            }
            None => {
                let known: Vec<&str> = self.indexes.iter().map(|i| i.names.name()).collect();
                Err(TableError {
                    table: self.name,
                    message: format!("no index `{index}` to project; expected one of {known:?}"),
                })
            }
        }
    }

    /// Sets the billing mode.
    pub fn billing(mut self, billing: Billing) -> Self {
        self.billing = billing;
        self
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The primary key attributes.
    pub fn keys(&self) -> KeyNames {
        self.keys
    }

    /// The global secondary indexes, in the order the entities declare them.
    pub fn indexes(&self) -> &[IndexDefinition] {
        &self.indexes
    }

    /// The billing mode.
    pub fn billing_mode(&self) -> Billing {
        self.billing
    }

    /// Every key attribute of the table and its indexes, once each, in order of first use.
    pub fn attributes(&self) -> Vec<&'static str> {
        self.attribute_types().into_iter().map(|(n, _)| n).collect()
    }

    /// The `AttributeDefinitions`: every key attribute once, with its type (`S` for the
    /// composite string keys; `S` or `N` for the attributes of a multi-attribute index).
    pub fn attribute_types(&self) -> Vec<(&'static str, ScalarType)> {
        let mut out: Vec<(&'static str, ScalarType)> = Vec::new();
        let mut add = |name: &'static str, t: ScalarType| {
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, t));
            }
        };
        add(self.keys.partition(), ScalarType::S);
        if let Some(sort) = self.keys.sort() {
            add(sort, ScalarType::S);
        }
        for index in &self.indexes {
            typed_attributes(index.names.keys()).into_iter().for_each(|(n, t)| add(n, t));
        }
        out
    }
}

/// An index's key attributes with their types: `S` for a composite key's two.
fn typed_attributes(keys: IndexKeys) -> Vec<(&'static str, ScalarType)> {
    match keys {
        IndexKeys::Composite(keys) => {
            let sort = keys.sort().map(|s| (s, ScalarType::S));
            std::iter::once((keys.partition(), ScalarType::S)).chain(sort).collect()
        }
        IndexKeys::Multi(multi) => multi.partition.iter().chain(multi.sort).copied().collect(),
    }
}

/// Where two key schemas of one index part: the first attribute, role or type that differs.
fn first_difference(mine: IndexKeys, theirs: IndexKeys) -> String {
    match (mine, theirs) {
        (IndexKeys::Composite(a), IndexKeys::Composite(b)) if a.partition() != b.partition() => {
            format!("its partition attribute is `{}` here and `{}` there", a.partition(), b.partition())
        }
        (IndexKeys::Composite(a), IndexKeys::Composite(b)) => {
            let show = |s: Option<&str>| s.map_or_else(|| "none".to_owned(), |s| format!("`{s}`"));
            format!("its sort attribute is {} here and {} there", show(a.sort()), show(b.sort()))
        }
        (IndexKeys::Multi(_), IndexKeys::Composite(_)) => {
            "it is a multi-attribute key here and two composite strings there".to_owned()
        }
        (IndexKeys::Composite(_), IndexKeys::Multi(_)) => {
            "it is two composite strings here and a multi-attribute key there".to_owned()
        }
        (IndexKeys::Multi(a), IndexKeys::Multi(b)) => {
            let roles = [("partition", a.partition, b.partition), ("sort", a.sort, b.sort)];
            for (role, mine, theirs) in roles {
                let at = (0..mine.len().max(theirs.len())).find(|&i| mine.get(i) != theirs.get(i));
                let Some(i) = at else { continue };
                let show = |a: Option<&(&str, ScalarType)>| match a {
                    Some((n, t)) => format!("`{n}` {}", t.as_str()),
                    None => "none".to_owned(),
                };
                return format!(
                    "its {role} attribute {} is {} here and {} there",
                    i + 1,
                    show(mine.get(i)),
                    show(theirs.get(i))
                );
            }
            "they differ".to_owned()
        }
    }
}

fn entities(names: &[&str]) -> String {
    if names.is_empty() {
        return "the table definition".to_owned();
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!("entity {}", quoted.join(" and "))
}

/// Entities that cannot share a table as declared: the message names them and the attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    table: String,
    message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table `{}`: {}", self.table, self.message)
    }
}

impl std::error::Error for TableError {}
