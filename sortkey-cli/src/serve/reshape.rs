//! The sort lab on a table: a layout with one field given another width or `desc`
//! ([`DynLayout::reshaped`]), applied to a page of a partition's own keys: what each key would
//! become (or the encoder's refusal when its value does not fit), how the order changes, and the
//! lock lines and `sortkey migrate` commands that would get the table there. Reads one page.

use sortkey_core::{DynLayout, KeyRole, LockFile};

use crate::ask::{Context, MigrationAsk};
use crate::browse::{self, Target};
use crate::outcome::AskError;
use crate::serve::app::App;

/// What the lab is asked: a partition, and a field of a layout written otherwise.
pub(crate) struct Ask<'a> {
    pub(crate) table: &'a str,
    pub(crate) pk: &'a str,
    pub(crate) layout: &'a str,
    pub(crate) field: &'a str,
    pub(crate) width: u32,
    pub(crate) desc: bool,
}

/// One key of the partition, as it is and as the reshaped layout would write it.
pub(crate) struct Row {
    pub(crate) key: String,
    /// The field's value, as text.
    pub(crate) value: String,
    /// The key the reshaped layout writes, or why it cannot.
    pub(crate) new_key: Result<String, String>,
    /// Its place among the keys that fit, now and after (from 1).
    pub(crate) place: usize,
    pub(crate) new_place: Option<usize>,
}

/// The lab's answer.
pub(crate) struct Reshaped {
    pub(crate) old_text: String,
    pub(crate) new_text: String,
    /// The layout's keys on the page, in the partition's order.
    pub(crate) rows: Vec<Row>,
    /// The new keys in the order DynamoDB would return them.
    pub(crate) new_order: Vec<String>,
    /// How many keys would not fit, and how many change place.
    pub(crate) not_fit: usize,
    pub(crate) moved: usize,
    /// The lock lines of the change and the commands that carry it out, or why no migration can.
    pub(crate) steps: Result<Steps, String>,
    pub(crate) read_units: f64,
}

/// The lock lines of a change and the commands that carry it out.
pub(crate) struct Steps {
    pub(crate) lock_lines: Vec<String>,
    pub(crate) commands: Vec<String>,
}

/// The lock's sort key fields a lab may reshape: `Layout:path` of every field with a width.
pub(crate) fn choices(lock: &LockFile) -> Vec<String> {
    let sort = lock.entries.iter().filter(|(_, l)| l.role == KeyRole::Sort);
    sort.flat_map(|(name, layout)| layout.digit_fields().into_iter().map(move |(path, _)| format!("{name}:{path}")))
        .collect()
}

/// Reads a page of the partition and applies the reshaped layout to the keys of the layout.
pub(crate) async fn reshape(app: &App, ask: &Ask<'_>, limit: usize) -> Result<Reshaped, AskError> {
    let layout = app
        .lock
        .get(ask.layout)
        .ok_or_else(|| AskError::bad(crate::ask::no_layout(&app.lock, &app.lock_path, ask.layout)))?;
    if ask.width == 0 {
        return Err(AskError::bad(format!("expected a width of 1 or more for `{}.{}`", ask.layout, ask.field)));
    }
    let new = layout.reshaped(ask.field, ask.width, ask.desc)?;
    let target = Target { table: ask.table, index: None, pk: ask.pk, after: None, shard: None };
    let (doc, read_units) = browse::partition(&app.client, &target, &app.lock, limit, false).await?;
    let mut rows: Vec<Row> = Vec::new();
    for item in doc.items.iter().filter(|i| i.layout.as_deref() == Some(ask.layout)) {
        let value = item.fields.get(ask.field).map(|v| v.to_string()).unwrap_or_default();
        let new_key =
            layout.decode(&item.sk).map_err(|e| e.to_string()).and_then(|v| new.encode(&v).map_err(|e| e.to_string()));
        rows.push(Row { key: item.sk.clone(), value, new_key, place: 0, new_place: None });
    }
    let mut fitting: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].new_key.is_ok()).collect();
    for (place, &i) in fitting.iter().enumerate() {
        rows[i].place = place + 1;
    }
    let new_key = |i: usize| rows[i].new_key.as_deref().unwrap_or_default().as_bytes().to_vec();
    fitting.sort_by_key(|&i| new_key(i));
    let new_order: Vec<String> = fitting.iter().map(|&i| rows[i].new_key.clone().unwrap_or_default()).collect();
    for (place, &i) in fitting.iter().enumerate() {
        rows[i].new_place = Some(place + 1);
    }
    let not_fit = rows.iter().filter(|r| r.new_key.is_err()).count();
    let moved = rows.iter().filter(|r| r.new_place.is_some_and(|p| p != r.place)).count();
    // A new key the layout reads too (the width kept, `desc` turned) cannot be told from a key
    // still to move: the migration would refuse every such key, so the lab prints none.
    let steps = match rows.iter().find_map(|r| r.new_key.as_ref().ok().filter(|k| layout.decode(k).is_ok())) {
        None => Ok(steps(&app.context(), ask, layout, &new)),
        Some(key) => Err(format!(
            "no migration gets the table there: the new key `{key}` reads in `{}` as it is too, so a moved key \
             could not be told from one still to move; expected a layout no stored key reads in (another width for \
             `{}`, or a new prefix)",
            ask.layout, ask.field
        )),
    };
    Ok(Reshaped {
        old_text: layout.to_string(),
        new_text: new.to_string(),
        rows,
        new_order,
        not_fit,
        moved,
        steps,
        read_units,
    })
}

/// The lock after the change (the new layout current, the old one its older version) and the
/// commands that check and carry out the migration.
fn steps(ctx: &Context<'_>, ask: &Ask<'_>, old: &DynLayout, new: &DynLayout) -> Steps {
    let lock = ctx.lock;
    let versions = lock.versions_of(ask.layout);
    let older: Vec<&str> = versions.map(|v| v.older.iter().map(String::as_str).collect()).unwrap_or_default();
    let legacy = (older.len() + 1..).map(|n| format!("{}V{n}", ask.layout)).find(|n| lock.get(n).is_none());
    let legacy = legacy.unwrap_or_else(|| format!("{}Old", ask.layout));
    let mut chain = vec![ask.layout.to_owned(), legacy.clone()];
    chain.extend(older.iter().map(|o| (*o).to_owned()));
    let lock_lines = vec![format!("{} = {new}", ask.layout), format!("{legacy} = {old}"), chain.join(" > ")];
    let to = MigrationAsk::to(ask.table, None, ask.layout).command_line(ctx);
    let mut dry = to.clone();
    dry.arg("--dry-run");
    let mut run = to;
    run.arg("--compare-attributes");
    Steps { lock_lines, commands: vec![dry.to_string(), run.to_string()] }
}
