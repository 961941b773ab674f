//! `sortkey layouts`: the lock's layouts, each field with what it can hold.

use serde::{Deserialize, Serialize};
use sortkey_core::{Capacity, DynBody, DynLayout, DynVariant, KeyRole, ShardRule, Versions};

use crate::ask::Context;
use crate::display::shown;
use crate::outcome::AskError;
use crate::output::{self, Answer, Document, format_tag, outln};
use crate::session::Session;

format_tag! {
    /// The layouts' format.
    LayoutsFormat = "sortkey layouts 3"
}

/// The report of `sortkey layouts`: every layout of the lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LayoutsDocument {
    pub(crate) format: LayoutsFormat,
    pub(crate) layouts: Vec<LayoutReport>,
    /// Which layouts are older versions of which (`Current > Older` lines of the lock).
    pub(crate) versions: Vec<Versions>,
    /// The `sortkey layouts` command line that gives this document, as its arguments.
    #[serde(default)]
    pub(crate) command: Vec<String>,
}

/// One layout of the lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LayoutReport {
    /// Its name in the lock.
    pub(crate) name: String,
    /// Its text.
    pub(crate) layout: String,
    pub(crate) role: KeyRole,
    /// The longest key it allows, in bytes.
    pub(crate) max_len: usize,
    /// A family's unit variants: keys that are one literal.
    pub(crate) literals: Vec<String>,
    /// Its fields, by path, in order.
    pub(crate) fields: Vec<FieldReport>,
    /// For a sharded partition key: its shards and what they can take; null otherwise.
    pub(crate) shards: Option<ShardsReport>,
}

/// A sharded partition key's shards: how many, how an item's is chosen, and what DynamoDB lets
/// them take together (each partition key value at most 1,000 write units and 3,000 read units a
/// second).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ShardsReport {
    /// The shard field.
    pub(crate) field: String,
    pub(crate) count: u16,
    /// `by=FIELD` (the sort key's field it is calculated from) or `random`.
    pub(crate) rule: String,
    /// Write units a second the logical partition can take: 1,000 a shard.
    pub(crate) write_units_per_second: u64,
    /// Read units a second (strongly consistent): 3,000 a shard.
    pub(crate) read_units_per_second: u64,
}

/// One field of a layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct FieldReport {
    /// Its name, after a family variant's prefix or the field holding a nested key.
    pub(crate) path: String,
    /// Its type as the layout text writes it.
    #[serde(rename = "type")]
    pub(crate) ty: String,
    /// Its width in every key: the one written, or its type's (and unit's) default; none for a
    /// field whose keys differ in length (text).
    pub(crate) width: Option<u32>,
    pub(crate) desc: bool,
    /// Its `max`, when one is written.
    #[serde(with = "sortkey_core::exact")]
    pub(crate) max: Option<u128>,
    /// What it can hold: null for a field that is no integer or timestamp.
    pub(crate) capacity: Option<Capacity>,
}

impl LayoutsDocument {
    /// The document of the lock's layouts.
    pub(crate) fn new(ctx: &Context<'_>) -> LayoutsDocument {
        let lock = ctx.lock;
        let layouts = lock.entries.iter().map(|(n, l)| LayoutReport::new(n, l)).collect();
        let command = ctx.command("layouts").argv;
        LayoutsDocument { format: LayoutsFormat, layouts, versions: lock.versions.clone(), command }
    }
}

impl LayoutReport {
    fn new(name: &str, layout: &DynLayout) -> LayoutReport {
        let fields = layout
            .field_paths()
            .into_iter()
            .map(|(path, field)| FieldReport {
                path,
                ty: field.ty.to_string(),
                width: Some(field.effective_width()).filter(|&w| w > 0),
                desc: field.desc,
                max: field.max,
                capacity: field.capacity(),
            })
            .collect();
        let shards = layout.shard_field().and_then(|(at, shards)| {
            let DynBody::Fields(fields) = &layout.key.body else { return None };
            let rule = match shards.rule() {
                ShardRule::By(field) => format!("by={field}"),
                ShardRule::Random => "random".to_owned(),
            };
            let n = u64::from(shards.count().get());
            Some(ShardsReport {
                field: fields[at].name.to_owned(),
                count: shards.count().get(),
                rule,
                write_units_per_second: n * 1000,
                read_units_per_second: n * 3000,
            })
        });
        LayoutReport {
            name: name.to_owned(),
            layout: layout.to_string(),
            role: layout.role,
            max_len: layout.max_len,
            literals: literals(layout),
            fields,
            shards,
        }
    }
}

/// Prints every layout of the lock, one row per field.
pub(crate) fn run(session: &Session) -> Result<Answer, AskError> {
    Ok(Answer::of(LayoutsDocument::new(&session.context())))
}

impl Document for LayoutsDocument {
    fn print_table(&self) {
        let mut table = output::table(&["layout", "role", "field", "type", "width", "desc", "max", "can hold"]);
        for l in &self.layouts {
            let role = if l.role == KeyRole::Partition { "partition" } else { "sort" };
            for f in &l.fields {
                // Names and types are the lock's text: shown as a terminal cannot misread them.
                table.add_row([
                    shown(&l.name).into_owned(),
                    role.to_owned(),
                    shown(&f.path).into_owned(),
                    shown(&f.ty).into_owned(),
                    f.width.map(|w| w.to_string()).unwrap_or_default(),
                    if f.desc { "desc".to_owned() } else { String::new() },
                    f.max.map(|m| m.to_string()).unwrap_or_default(),
                    f.capacity.as_ref().map(Capacity::to_string).unwrap_or_default(),
                ]);
            }
            for literal in &l.literals {
                table.add_row([
                    shown(&l.name).into_owned(),
                    role.to_owned(),
                    shown(literal).into_owned(),
                    "literal".to_owned(),
                ]);
            }
        }
        outln!("{table}");
        for l in &self.layouts {
            let Some(s) = &l.shards else { continue };
            outln!(
                "{}: {} shards ({}, {}): a partition can take {} write units and {} read units a second",
                shown(&l.name),
                s.count,
                shown(&s.field),
                shown(&s.rule),
                s.write_units_per_second,
                s.read_units_per_second
            );
        }
        for v in &self.versions {
            outln!("versions: {} (newest first: the first reads the others' keys)", shown(&v.to_string()));
        }
    }
}

/// A family's unit variants: keys that are one literal, with no fields to list.
fn literals(layout: &DynLayout) -> Vec<String> {
    match &layout.key.body {
        DynBody::Family(variants) => variants
            .iter()
            .filter_map(|v| match v {
                DynVariant::Unit(literal) => Some(literal.clone()),
                DynVariant::Key(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
