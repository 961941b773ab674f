//! The audit's document: what was read, whether it found anything, and each key attribute's
//! report (sortkey-core's [`AuditReport`]); printed as tables or as JSON from the same value.

use serde::{Deserialize, Serialize};
use sortkey_core::{AuditReport, KeyRole, SKEW_LIMIT, ShardBalance};

use crate::ask::{CommandLine, Context, MigrationAsk};
use crate::counters::CountersReport;
use crate::display::{sanitized, shown};
use crate::outcome::Outcome;
use crate::output::{self, Document, format_tag, outln};
use crate::pages::SegmentOf;

format_tag! {
    /// The audit's format.
    AuditFormat = "sortkey audit 5"
}

/// The report of `sortkey audit` (and of `sortkey audit merge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct AuditDocument {
    pub(crate) format: AuditFormat,
    /// The command line that gives this document, as its arguments.
    pub(crate) command: Vec<String>,
    /// What was read.
    #[serde(flatten)]
    pub(crate) source: AuditSource,
    /// Whether there is anything to act on (the exit status 1).
    pub(crate) findings: bool,
    /// The part of a field's range left under which its headroom is a finding.
    pub(crate) headroom_threshold: f64,
    /// Each key attribute's report.
    pub(crate) attributes: Vec<AttributeReport>,
    /// The rank counters of the ranked partitions the Scan came upon, held to their items (a
    /// table's audit, when the lock has `rank` lines); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) counters: Option<CountersReport>,
}

/// The table an export's moves name until `--table` names the export's own.
const PLACEHOLDER: &str = "TABLE";

/// Where the items came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum AuditSource {
    /// A table (or its index), whole or one segment of a split.
    Table {
        table: String,
        index: Option<String>,
        /// The segment this report covers, of a split into `total`; null for every segment.
        segment: Option<SegmentOf>,
    },
    /// A DynamoDB export (its folder or `s3://` address), whole or one share of its files.
    Export {
        export: String,
        /// The share of the files this report covers (every `total`th from `segment`), of a
        /// split into `total`; null for every file.
        #[serde(default)]
        segment: Option<SegmentOf>,
    },
}

/// One key attribute's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct AttributeReport {
    /// The attribute's name.
    pub(crate) name: String,
    /// Which key it is, and so which of the lock's layouts read it.
    pub(crate) role: KeyRole,
    /// Its values, classified.
    #[serde(flatten)]
    pub(crate) report: AuditReport,
    /// Values that are no string (a number or binary key), which no layout describes.
    pub(crate) not_strings: u64,
    /// The fields whose headroom is under the threshold.
    pub(crate) low_headroom: Vec<LowHeadroom>,
    /// The command lines that move the keys of older versions (`old_keys`) to their current
    /// layout, each as its arguments.
    pub(crate) moves: Vec<Vec<String>>,
}

/// A field with less of its range left than the threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LowHeadroom {
    pub(crate) layout: String,
    pub(crate) field: String,
    pub(crate) fraction_left: f64,
}

impl AttributeReport {
    /// The report of an attribute, with the fields under `threshold`; a shard field (`shards`,
    /// by layout and field name) fills its range by design and is none of them.
    pub(crate) fn new(
        (name, role): (String, KeyRole),
        report: AuditReport,
        not_strings: u64,
        threshold: f64,
        shards: &[(String, String)],
    ) -> Self {
        let mut low_headroom = Vec::new();
        for layout in &report.layouts {
            for field in &layout.fields {
                if shards.iter().any(|(l, f)| *l == layout.name && *f == field.path) {
                    continue;
                }
                if let Some(h) = field.headroom().filter(|h| h.fraction_left < threshold) {
                    let (layout, field) = (layout.name.clone(), field.path.clone());
                    low_headroom.push(LowHeadroom { layout, field, fraction_left: h.fraction_left });
                }
            }
        }
        AttributeReport { name, role, report, not_strings, low_headroom, moves: Vec::new() }
    }

    /// Whether field `field` of layout `layout` is one of those under the threshold (a shard
    /// field never is).
    #[cfg(feature = "serve")]
    pub(crate) fn is_low(&self, layout: &str, field: &str) -> bool {
        self.low_headroom.iter().any(|low| low.layout == layout && low.field == field)
    }

    /// Whether it found anything: a key in no layout, a value that is no string, a field under
    /// the threshold.
    pub(crate) fn has_findings(&self) -> bool {
        self.report.has_findings() || self.not_strings > 0 || !self.low_headroom.is_empty()
    }
}

impl AuditDocument {
    /// The rank counters' check joined to the report: a partition whose counters differ is a
    /// finding.
    pub(crate) fn with_counters(mut self, counters: Option<CountersReport>) -> Self {
        self.findings |= counters.as_ref().is_some_and(|c| !c.differ.is_empty());
        self.counters = counters;
        self
    }

    /// The document of `attributes` read from `source`, asked by `command` (in `ctx`, whose lock
    /// and connection the printed moves name too); the moves of an export's old keys run on
    /// `export_table` when given (`sortkey audit --export ... --table T`), on the placeholder
    /// `TABLE` otherwise.
    pub(crate) fn new(
        source: AuditSource,
        threshold: f64,
        attributes: Vec<AttributeReport>,
        (ctx, command): (&Context<'_>, CommandLine),
        export_table: Option<&str>,
    ) -> Self {
        let (table, index) = match &source {
            AuditSource::Table { table, index, .. } => (table.clone(), index.clone()),
            AuditSource::Export { .. } => (export_table.unwrap_or(PLACEHOLDER).to_owned(), None),
        };
        let findings = attributes.iter().any(AttributeReport::has_findings);
        let mut doc = AuditDocument {
            format: AuditFormat,
            command: command.argv,
            source,
            findings,
            headroom_threshold: threshold,
            attributes,
            counters: None,
        };
        for a in &mut doc.attributes {
            // The layouts to move keys to: of older versions' keys, and of items in another
            // shard than their sort key's (a migration to the layout moves both).
            let mut currents: Vec<&str> = a.report.old_keys.iter().map(|o| o.current.as_str()).collect();
            currents.dedup();
            for m in &a.report.misplaced {
                if !currents.contains(&m.layout.as_str()) {
                    currents.push(&m.layout);
                }
            }
            a.moves = currents
                .iter()
                .map(|c| {
                    // A command that runs as printed: the move check named (the exact one,
                    // --version-attribute, needs the application's version attribute, which
                    // the audit cannot know; the migrate docs say when to prefer it).
                    let mut line = MigrationAsk::to(&table, index.as_deref(), c).command_line(ctx);
                    line.arg("--compare-attributes");
                    line.argv
                })
                .collect();
        }
        doc
    }

    /// What was read, for people.
    fn title(&self) -> String {
        match &self.source {
            AuditSource::Table { table, index, segment } => {
                let index = index.as_ref().map(|i| format!(" index {i}")).unwrap_or_default();
                let segment = segment.map(|s| format!(" (segment {} of {})", s.segment, s.total)).unwrap_or_default();
                format!("{table}{index}{segment}")
            }
            AuditSource::Export { export, segment } => {
                let segment = segment.map(|s| format!(" (files of segment {} of {})", s.segment, s.total));
                format!("{export}{}", segment.unwrap_or_default())
            }
        }
    }
}

impl Document for AuditDocument {
    /// A key in no layout (unread, of a mixed width, empty or too long), a value that is no
    /// string, or a field under the headroom threshold: exit status 1.
    fn outcome(&self) -> Outcome {
        if self.findings { Outcome::Found } else { Outcome::Clean }
    }

    fn print_table(&self) {
        let title = self.title();
        let named = self.command.iter().any(|arg| arg == "--table" || arg.starts_with("--table="));
        let unnamed = matches!(self.source, AuditSource::Export { .. }) && !named;
        for a in &self.attributes {
            print_attribute(&title, a, unnamed);
        }
        if let Some(counters) = &self.counters {
            print_counters(counters);
        }
        for a in &self.attributes {
            for low in &a.low_headroom {
                outln!(
                    "warning: {}: {}.{} has {:.1}% of its range left",
                    a.name,
                    low.layout,
                    low.field,
                    low.fraction_left * 100.0
                );
            }
        }
    }
}

/// The rank counters' check: how many ranked partitions, and each whose counters differ, with
/// the command that repairs it.
fn print_counters(c: &CountersReport) {
    outln!(
        "rank counters: {} read whole, {} with counters that differ from their items",
        output::counted(c.checked, "ranked partition"),
        c.differ.len()
    );
    for p in &c.differ {
        let mut t = output::table(&["partition", "counters of", "node", "counters", "items"]);
        let counts = |c: &[u64; 10]| c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        for d in &p.differences {
            let of = format!("{}.{}", shown(&p.layout), shown(&p.field));
            t.add_row([shown(&d.partition).into_owned(), of, d.node.clone(), counts(&d.counters), counts(&d.items)]);
        }
        outln!("{t}");
        outln!("repair: {}", CommandLine { argv: p.repair.clone() });
    }
}

/// One attribute's tables: its keys per layout, mixed widths, headroom and keys no layout reads.
/// `unnamed`: the moves name the placeholder table (an export audited without `--table`).
fn print_attribute(title: &str, a: &AttributeReport, unnamed: bool) {
    let r = &a.report;
    outln!("{title} `{}` ({}): {}", a.name, a.role.name(), output::counted(r.keys, "value"));
    let mut t = output::table(&["layout", "keys"]);
    for l in &r.layouts {
        t.add_row([l.name.clone(), l.count.to_string()]);
    }
    t.add_row(["(in no layout)".to_owned(), r.in_no_layout().to_string()]);
    outln!("{t}");
    if !r.mixed_widths.is_empty() {
        let mut t = output::table(&["mixed widths: layout", "field", "width", "seen", "keys", "sample"]);
        for m in &r.mixed_widths {
            let sample = m.samples.first().map(|s| shown(s).into_owned()).unwrap_or_default();
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
    print_headroom(r);
    print_unread(r);
    for argv in &a.moves {
        outln!("move them: {}", CommandLine { argv: argv.clone() });
    }
    if unnamed && !a.moves.is_empty() {
        outln!("(an export names no table: give the export's with --table T, and these commands name it)");
    }
    if !r.shards.is_empty() {
        print_shards(&r.shards);
    }
    if r.empty > 0 || r.too_long > 0 || a.not_strings > 0 {
        outln!("empty: {}, over DynamoDB's limit: {}, not strings: {}", r.empty, r.too_long, a.not_strings);
    }
    outln!();
}

/// The headroom of every field that holds values: the least and largest value, what the width
/// can hold and how much of it is left.
fn print_headroom(r: &AuditReport) {
    let header = ["headroom: layout", "field", "values", "least", "largest", "can hold", "digits left", "left"];
    let mut t = output::table(&header);
    for l in &r.layouts {
        for f in l.fields.iter().filter(|f| f.seen > 0) {
            let h = f.headroom();
            t.add_row([
                l.name.clone(),
                f.path.clone(),
                f.seen.to_string(),
                f.least.as_ref().map(|v| f.capacity.value_text(v)).unwrap_or_default(),
                f.largest.as_ref().map(|v| f.capacity.value_text(v)).unwrap_or_default(),
                f.capacity.to_string(),
                h.map(|h| h.digits_left.to_string()).unwrap_or_default(),
                h.map(|h| format!("{:.1}%", h.fraction_left * 100.0)).unwrap_or_default(),
            ]);
        }
    }
    if t.row_count() > 0 {
        outln!("{t}");
    }
}

/// The keys no layout reads (by error), the keys of older versions and the items in another
/// shard than their sort key's, a sample of each.
fn print_unread(r: &AuditReport) {
    if !r.unread.is_empty() {
        let mut t = output::table(&["no layout reads: error", "keys", "sample", "closest layout", "its error"]);
        for u in &r.unread {
            let Some(s) = u.samples.first() else { continue };
            t.add_row([
                u.kind.name().to_owned(),
                u.count.to_string(),
                shown(&s.key).into_owned(),
                s.layout.clone(),
                sanitized(&s.error).into_owned(),
            ]);
        }
        outln!("{t}");
    }
    if !r.old_keys.is_empty() {
        let header = ["older version", "of", "keys", "partitions", "with current keys", "sample partition"];
        let mut t = output::table(&header);
        for o in &r.old_keys {
            t.add_row([
                o.layout.clone(),
                o.current.clone(),
                o.keys.to_string(),
                o.partitions.to_string(),
                o.partitions_with_current.to_string(),
                o.partition_samples.first().map(|p| shown(p).into_owned()).unwrap_or_default(),
            ]);
        }
        outln!("{t}");
    }
    if !r.misplaced.is_empty() {
        let header =
            ["in another shard than their sort key's", "items", "sample partition key", "sort key", "belongs under"];
        let mut t = output::table(&header);
        for m in &r.misplaced {
            let Some(s) = m.samples.first() else { continue };
            t.add_row([
                m.layout.clone(),
                m.count.to_string(),
                shown(&s.key).into_owned(),
                shown(&s.sort).into_owned(),
                shown(&s.expected).into_owned(),
            ]);
        }
        outln!("{t}");
    }
}

/// The sharded partitions, the most skewed first (at most [`SHARD_ROWS`]): items, the fullest and
/// the emptiest shard, the skew, whether it is a finding, and the bytes and the largest shard by
/// bytes when the audit read whole items.
fn print_shards(shards: &[ShardBalance]) {
    let sized = shards.iter().any(|b| b.bytes.is_some());
    let mut header = vec!["sharded partition", "layout", "items", "shards", "fullest", "emptiest", "skew", ""];
    if sized {
        header.extend(["bytes", "largest (bytes)"]);
    }
    let mut t = output::table(&header);
    for b in shards.iter().take(SHARD_ROWS) {
        let (fullest, emptiest) = extremes(&b.items);
        let flag = if b.is_finding() { format!("over {SKEW_LIMIT}") } else { String::new() };
        let mut row = vec![
            shown(&b.partition).into_owned(),
            b.layout.clone(),
            b.total().to_string(),
            b.items.len().to_string(),
            fullest,
            emptiest,
            format!("{:.2}", b.skew()),
            flag,
        ];
        if sized {
            let bytes = b.bytes.as_deref();
            row.push(bytes.map(|v| v.iter().sum::<u64>().to_string()).unwrap_or_default());
            row.push(bytes.map(|v| extremes(v).0).unwrap_or_default());
        }
        t.add_row(row);
    }
    outln!("{t}");
    if shards.len() > SHARD_ROWS {
        outln!("... and {} more sharded partitions (-o json lists them all)", shards.len() - SHARD_ROWS);
    }
}

/// The most sharded partitions a terminal report lists.
const SHARD_ROWS: usize = 10;

/// The fullest and the emptiest shard, as `shard: items` (the first of equals).
fn extremes(items: &[u64]) -> (String, String) {
    let show = |v: Option<&u64>| {
        v.and_then(|v| items.iter().position(|x| x == v).map(|i| format!("{i}: {v}"))).unwrap_or_default()
    };
    (show(items.iter().max()), show(items.iter().min()))
}
