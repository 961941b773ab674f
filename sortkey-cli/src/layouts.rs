//! `sortkey layouts`: the lock's layouts, each field with what it can hold.

use serde_json::{Value, json};
use sortkey_core::{Capacity, DynBody, DynField, DynLayout, DynVariant, KeyRole};

use crate::cli::{Args, Output};
use crate::outcome::Failure;
use crate::output::outln;
use crate::{lock, output};

/// Prints every layout of the lock, one row per field.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let lock = lock::read(&args.lock)?;
    match args.output() {
        Output::Table => {
            let mut table =
                output::table(&["layout", "role", "field", "type", "width", "desc", "max", "largest value"]);
            for (name, layout) in &lock.entries {
                for (path, field) in layout.field_paths() {
                    table.add_row([
                        name.clone(),
                        role(layout).to_owned(),
                        path,
                        field.ty.to_string(),
                        width(field),
                        if field.desc { "desc".to_owned() } else { String::new() },
                        field.max.map(|m| m.to_string()).unwrap_or_default(),
                        largest(field),
                    ]);
                }
                for literal in literals(layout) {
                    table.add_row([name.clone(), role(layout).to_owned(), literal.to_owned(), "literal".to_owned()]);
                }
            }
            outln!("{table}");
        }
        Output::Json => {
            let layouts: Vec<Value> = lock.entries.iter().map(|(name, layout)| layout_json(name, layout)).collect();
            output::print_json(&json!({ "layouts": layouts }));
        }
    }
    Ok(())
}

/// A family's unit variants: keys that are one literal, with no fields to list.
fn literals(layout: &DynLayout) -> Vec<&str> {
    match &layout.key.body {
        DynBody::Family(variants) => variants
            .iter()
            .filter_map(|v| match v {
                DynVariant::Unit(literal) => Some(literal.as_str()),
                DynVariant::Key(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn role(layout: &DynLayout) -> &'static str {
    match layout.role {
        KeyRole::Partition => "partition",
        _ => "sort",
    }
}

/// The width as written, or what the field takes without one.
fn width(field: &DynField) -> String {
    if field.width > 0 { field.width.to_string() } else { String::new() }
}

/// The largest value a numeric or timestamp field can hold (a timestamp's last instant).
fn largest(field: &DynField) -> String {
    match field.capacity() {
        Some(Capacity::Unsigned { largest }) => largest.to_string(),
        Some(Capacity::Signed { least, largest }) => format!("{largest} (least {least})"),
        Some(Capacity::Timestamp { last_instant, .. }) => last_instant,
        None => String::new(),
    }
}

/// A layout as JSON: its name, text, role, longest key and fields.
fn layout_json(name: &str, layout: &DynLayout) -> Value {
    let fields: Vec<Value> = layout
        .field_paths()
        .into_iter()
        .map(|(path, field)| {
            let capacity = match field.capacity() {
                Some(Capacity::Unsigned { largest }) => json!({ "largest": number(largest) }),
                Some(Capacity::Signed { least, largest }) => {
                    json!({ "least": signed(least), "largest": signed(largest) })
                }
                Some(Capacity::Timestamp { unit, largest, last_instant }) => {
                    json!({ "unit": unit.name(), "largest": number(largest), "last_instant": last_instant })
                }
                None => Value::Null,
            };
            json!({
                "path": path,
                "type": field.ty.to_string(),
                "width": (field.width > 0).then_some(field.width),
                "desc": field.desc,
                "max": field.max.map(number),
                "capacity": capacity,
            })
        })
        .collect();
    json!({
        "name": name,
        "layout": layout.to_string(),
        "role": role(layout),
        "max_len": layout.max_len,
        "literals": literals(layout),
        "fields": fields,
    })
}

/// An integer as JSON: a number when an `f64` holds it exactly, else its digits as a string
/// (as layouts' values are written).
fn number(v: u128) -> Value {
    if v <= 1 << 53 { json!(v as u64) } else { json!(v.to_string()) }
}

fn signed(v: i128) -> Value {
    if v.unsigned_abs() <= 1 << 53 { json!(v as i64) } else { json!(v.to_string()) }
}
