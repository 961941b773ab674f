//! The audit's report: aligned tables for people, one JSON document for programs (its shape in
//! the README), and the warnings of fields under the headroom threshold.

use serde_json::{Value, json};
use sortkey_core::{AuditReport, Capacity, KeyRole};

use crate::audit::Attribute;
use crate::output;
use crate::output::outln;

/// One field's headroom under the threshold: (attribute, layout, field path, fraction left).
pub(crate) type Low = (String, String, String, f64);

/// The fields whose headroom is under `threshold`.
pub(crate) fn low_headroom(attributes: &[Attribute], threshold: f64) -> Vec<Low> {
    let mut low = Vec::new();
    for a in attributes {
        for layout in &a.audit.report().layouts {
            for field in layout.usage.fields() {
                if let Some(h) = field.headroom().filter(|h| h.fraction_left < threshold) {
                    low.push((a.name.clone(), layout.name.clone(), field.path.clone(), h.fraction_left));
                }
            }
        }
    }
    low
}

pub(crate) fn role(role: KeyRole) -> &'static str {
    if role == KeyRole::Partition { "partition" } else { "sort" }
}

/// A value seen (`DynValue::Unsigned` or `Signed`) as text.
fn shown(value: Option<&sortkey_core::DynValue>) -> String {
    match value {
        Some(sortkey_core::DynValue::Unsigned(v)) => v.to_string(),
        Some(sortkey_core::DynValue::Signed(v)) => v.to_string(),
        _ => String::new(),
    }
}

fn capacity(capacity: &Capacity) -> String {
    match capacity {
        Capacity::Unsigned { largest } => largest.to_string(),
        Capacity::Signed { least, largest } => format!("{least}..{largest}"),
        Capacity::Timestamp { largest, unit, last_instant } => format!("{largest} {} ({last_instant})", unit.name()),
    }
}

/// The report as tables: per attribute, its keys per layout, mixed widths, headroom and keys no
/// layout reads; then the warnings.
pub(crate) fn print_tables(title: &str, attributes: &[Attribute], low: &[Low]) {
    for a in attributes {
        let r = a.audit.report();
        outln!("{title} `{}` ({} key): {} values", a.name, role(a.role), r.keys);
        let mut t = output::table(&["layout", "keys"]);
        for l in &r.layouts {
            t.add_row([l.name.clone(), l.count.to_string()]);
        }
        t.add_row(["(none)".to_owned(), r.unread.iter().map(|u| u.count).sum::<u64>().to_string()]);
        outln!("{t}");
        if !r.mixed_widths.is_empty() {
            let mut t = output::table(&["mixed widths: layout", "field", "width", "seen", "keys", "sample"]);
            for m in &r.mixed_widths {
                let sample = m.samples.first().cloned().unwrap_or_default();
                t.add_row([
                    m.layout.clone(),
                    m.field.clone(),
                    m.width.to_string(),
                    m.seen.to_string(),
                    m.count.to_string(),
                    sample,
                ]);
            }
            outln!("{t}");
        }
        let mut t = output::table(&[
            "headroom: layout",
            "field",
            "values",
            "least",
            "largest",
            "can hold",
            "digits left",
            "left",
        ]);
        for l in &r.layouts {
            for f in l.usage.fields().iter().filter(|f| f.seen > 0) {
                let h = f.headroom();
                t.add_row([
                    l.name.clone(),
                    f.path.clone(),
                    f.seen.to_string(),
                    shown(f.least.as_ref()),
                    shown(f.largest.as_ref()),
                    capacity(&f.capacity),
                    h.map(|h| h.digits_left.to_string()).unwrap_or_default(),
                    h.map(|h| format!("{:.1}%", h.fraction_left * 100.0)).unwrap_or_default(),
                ]);
            }
        }
        if t.row_count() > 0 {
            outln!("{t}");
        }
        if !r.unread.is_empty() {
            let mut t = output::table(&["no layout reads: error", "keys", "sample", "closest layout", "its error"]);
            for u in &r.unread {
                let (key, layout, error) = &u.samples[0];
                t.add_row([
                    format!("{:?}", u.kind),
                    u.count.to_string(),
                    key.clone(),
                    layout.clone(),
                    error.to_string(),
                ]);
            }
            outln!("{t}");
        }
        if r.empty > 0 || r.too_long > 0 || a.not_strings > 0 {
            outln!("empty: {}, over DynamoDB's limit: {}, not strings: {}", r.empty, r.too_long, a.not_strings);
        }
        outln!();
    }
    for (attribute, layout, field, left) in low {
        outln!("warning: {attribute}: {layout}.{field} has {:.1}% of its range left", left * 100.0);
    }
}

/// The report as one JSON document: `source`'s members (what was read: `table` and `index`, or
/// `export`), then `findings` and `attributes`.
pub(crate) fn report_json(source: Value, attributes: &[Attribute], threshold: f64, found: bool) -> Value {
    let mut doc = match source {
        Value::Object(members) => members,
        _ => serde_json::Map::new(),
    };
    doc.insert("findings".to_owned(), Value::Bool(found));
    let attributes = attributes.iter().map(|a| attribute_json(a, threshold)).collect();
    doc.insert("attributes".to_owned(), Value::Array(attributes));
    Value::Object(doc)
}

/// One attribute's report as JSON: also what a partial report keeps, and reads back.
pub(crate) fn attribute_json(a: &Attribute, threshold: f64) -> Value {
    let r: &AuditReport = a.audit.report();
    let layouts: Vec<Value> = r
        .layouts
        .iter()
        .map(|l| {
            let fields: Vec<Value> = l
                .usage
                .fields()
                .iter()
                .map(|f| {
                    let h = f.headroom();
                    json!({
                        "path": f.path,
                        "values": f.seen,
                        "least": f.least.as_ref().map(|v| serde_json::to_value(v).unwrap_or_default()),
                        "largest": f.largest.as_ref().map(|v| serde_json::to_value(v).unwrap_or_default()),
                        "can_hold": capacity(&f.capacity),
                        "digits_left": h.map(|h| h.digits_left),
                        "fraction_left": h.map(|h| h.fraction_left),
                        "low": h.is_some_and(|h| h.fraction_left < threshold),
                    })
                })
                .collect();
            json!({ "name": l.name, "keys": l.count, "fields": fields })
        })
        .collect();
    let mixed: Vec<Value> = r
        .mixed_widths
        .iter()
        .map(|m| json!({ "layout": m.layout, "field": m.field, "width": m.width, "seen": m.seen, "keys": m.count, "samples": m.samples }))
        .collect();
    let unread: Vec<Value> = r
        .unread
        .iter()
        .map(|u| {
            let samples: Vec<Value> = u
                .samples
                .iter()
                .map(|(key, layout, e)| json!({ "key": key, "layout": layout, "error": e.to_string(), "offset": e.offset() }))
                .collect();
            json!({ "kind": format!("{:?}", u.kind), "keys": u.count, "samples": samples })
        })
        .collect();
    json!({
        "name": a.name,
        "role": role(a.role),
        "values": r.keys,
        "layouts": layouts,
        "mixed_widths": mixed,
        "unread": unread,
        "empty": r.empty,
        "too_long": r.too_long,
        "too_long_samples": r.too_long_samples,
        "not_strings": a.not_strings,
    })
}
