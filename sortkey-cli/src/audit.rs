//! `sortkey audit`: every item of a table (or index) read by parallel Scan segments, its key
//! attributes classified by sortkey-core's [`KeyAudit`] against the lock's layouts of their
//! role, and the report printed. Read only.

use std::collections::HashMap;
use std::io::IsTerminal;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use sortkey_core::{AuditReport, Capacity, KeyAudit, KeyRole, LockFile};
use tokio::sync::mpsc;

use crate::cli::{Args, AuditArgs, Output};
use crate::table::sdk_message;
use crate::{Failure, Outcome, connect, lock, output, table};

/// One key attribute's audit.
struct Attribute {
    name: String,
    role: KeyRole,
    audit: KeyAudit,
    /// Values that are no string (a number or binary key), which no layout describes.
    not_strings: u64,
}

/// Reads the table and prints what its keys are.
pub(crate) fn run(args: &Args, audit: &AuditArgs) -> Result<Outcome, Failure> {
    let lock = lock::read(&args.lock)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let attributes = runtime.block_on(async {
        let client = connect::client(args).await;
        let (pk, sk) = match (&audit.pk, &audit.sk) {
            (Some(pk), Some(sk)) => (pk.clone(), Some(sk.clone())),
            _ => table::key_names(&client, &audit.table, audit.index.as_deref()).await?,
        };
        // An attribute is audited when the lock has layouts of its role.
        let mut attributes: Vec<Attribute> = [Some((pk, KeyRole::Partition)), sk.map(|sk| (sk, KeyRole::Sort))]
            .into_iter()
            .flatten()
            .filter(|(_, role)| lock.entries.iter().any(|(_, l)| l.role == *role))
            .map(|(name, role)| attribute(&lock, name, role))
            .collect();
        if attributes.is_empty() {
            return Err(Failure(format!("{}: no layout of the table's key attributes' roles", args.lock.display())));
        }
        // A progress bar on a terminal, unless the output is one JSON document.
        let progress = (std::io::stderr().is_terminal() && args.output() == Output::Table).then(progress_bar);
        if let Some(bar) = &progress {
            bar.set_length(table::item_count(&client, &audit.table).await.unwrap_or(0));
        }
        scan(&client, audit, &mut attributes, progress.as_ref()).await?;
        if let Some(bar) = progress {
            bar.finish_and_clear();
        }
        Ok::<_, Failure>(attributes)
    })?;
    let low = low_headroom(&attributes, audit.headroom);
    let found = !low.is_empty() || attributes.iter().any(|a| a.audit.report().has_findings() || a.not_strings > 0);
    match args.output() {
        Output::Json => output::print_json(&report_json(audit, &attributes, found)),
        Output::Table => print_tables(audit, &attributes, &low),
    }
    Ok(if found { Outcome::Found } else { Outcome::Clean })
}

/// The audit of attribute `name`, against the lock's layouts of `role`.
fn attribute(lock: &LockFile, name: String, role: KeyRole) -> Attribute {
    let layouts = lock.entries.iter().filter(|(_, l)| l.role == role).cloned();
    Attribute { name, role, audit: KeyAudit::new(layouts), not_strings: 0 }
}

/// Scans every segment in parallel; the pages' key values come back to be classified here.
async fn scan(
    client: &Client,
    audit: &AuditArgs,
    attributes: &mut [Attribute],
    progress: Option<&ProgressBar>,
) -> Result<(), Failure> {
    let names: Vec<String> = attributes.iter().map(|a| a.name.clone()).collect();
    let (send, mut receive) = mpsc::channel::<Result<Vec<HashMap<String, AttributeValue>>, Failure>>(16);
    for segment in 0..audit.segments {
        let (client, send, names) = (client.clone(), send.clone(), names.clone());
        let (table, index, total) = (audit.table.clone(), audit.index.clone(), audit.segments);
        // Each segment's share of `--rate`, in items per second, and a page size that keeps
        // the pauses short.
        let share = audit.rate.map(|rate| (rate as f64 / f64::from(total)).max(1.0));
        tokio::spawn(async move {
            let mut start = None;
            loop {
                let began = tokio::time::Instant::now();
                let mut request = client.scan().table_name(&table).segment(segment as i32).total_segments(total as i32);
                if let Some(share) = share {
                    request = request.limit(share.min(1000.0) as i32);
                }
                let projection: Vec<String> = (0..names.len()).map(|i| format!("#k{i}")).collect();
                request = request.projection_expression(projection.join(", "));
                for (i, name) in names.iter().enumerate() {
                    request = request.expression_attribute_names(format!("#k{i}"), name);
                }
                if let Some(index) = &index {
                    request = request.index_name(index);
                }
                let page = match request.set_exclusive_start_key(start.take()).send().await {
                    Ok(page) => page,
                    Err(e) => {
                        let _ = send.send(Err(Failure(format!("cannot scan {table}: {}", sdk_message(&e))))).await;
                        return;
                    }
                };
                start = page.last_evaluated_key().cloned();
                if send.send(Ok(page.items().to_vec())).await.is_err() || start.is_none() {
                    return;
                }
                if let Some(share) = share {
                    let due = std::time::Duration::from_secs_f64(page.items().len() as f64 / share);
                    tokio::time::sleep_until(began + due).await;
                }
            }
        });
    }
    drop(send);
    while let Some(page) = receive.recv().await {
        let page = page?;
        if let Some(bar) = progress {
            bar.inc(page.len() as u64);
        }
        for item in page {
            for attribute in attributes.iter_mut() {
                match item.get(&attribute.name) {
                    Some(AttributeValue::S(key)) => attribute.audit.observe(key),
                    Some(_) => attribute.not_strings += 1,
                    None => {}
                }
            }
        }
    }
    Ok(())
}

/// Items read, items per second and the time left against DescribeTable's estimate.
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{bar:30} {human_pos}/~{human_len} items, {per_sec}, {eta} left")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// One field's headroom under the threshold: (attribute, layout, field path, fraction left).
type Low = (String, String, String, f64);

/// The fields whose headroom is under `threshold`.
fn low_headroom(attributes: &[Attribute], threshold: f64) -> Vec<Low> {
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

/// A layout's decode error, naming the layout (the runtime names it `DynLayout`, as the text has
/// no type name).
fn named(error: &sortkey_core::DecodeError, layout: &str) -> String {
    error.to_string().replacen("`DynLayout`", &format!("`{layout}`"), 1)
}

fn role(role: KeyRole) -> &'static str {
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

fn print_tables(audit: &AuditArgs, attributes: &[Attribute], low: &[Low]) {
    for a in attributes {
        let r = a.audit.report();
        println!("{} `{}` ({} key): {} values", audit.table, a.name, role(a.role), r.keys);
        let mut t = output::table(&["layout", "keys"]);
        for l in &r.layouts {
            t.add_row([l.name.clone(), l.count.to_string()]);
        }
        t.add_row(["(none)".to_owned(), r.unread.iter().map(|u| u.count).sum::<u64>().to_string()]);
        println!("{t}");
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
            println!("{t}");
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
            println!("{t}");
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
                    named(error, layout),
                ]);
            }
            println!("{t}");
        }
        if r.empty > 0 || r.too_long > 0 || a.not_strings > 0 {
            println!("empty: {}, over DynamoDB's limit: {}, not strings: {}", r.empty, r.too_long, a.not_strings);
        }
        println!();
    }
    for (attribute, layout, field, left) in low {
        println!("warning: {attribute}: {layout}.{field} has {:.1}% of its range left", left * 100.0);
    }
}

fn report_json(audit: &AuditArgs, attributes: &[Attribute], found: bool) -> Value {
    let attributes: Vec<Value> = attributes.iter().map(|a| attribute_json(a, audit.headroom)).collect();
    json!({
        "table": audit.table,
        "index": audit.index,
        "findings": found,
        "attributes": attributes,
    })
}

fn attribute_json(a: &Attribute, threshold: f64) -> Value {
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
                .map(|(key, layout, e)| json!({ "key": key, "layout": layout, "error": named(e, layout), "offset": e.offset() }))
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
        "not_strings": a.not_strings,
    })
}
