//! The sort lab of the layouts page: a few numbers written as people write them by hand
//! (unpadded), as a layout writes them (padded to a width, and with `desc`), each list sorted as
//! DynamoDB sorts strings, by their UTF-8 bytes. The padded forms are the library's encoder's.

use sortkey_core::{DynLayout, DynValue};

/// One way of writing the values, sorted as DynamoDB sorts them.
pub(crate) struct Column {
    pub(crate) title: String,
    /// The strings in byte order, each with the value it writes.
    pub(crate) sorted: Vec<(String, u128)>,
    /// Whether byte order is the values' order (ascending, or descending for `desc`).
    pub(crate) in_order: bool,
}

/// The lab for `values` (comma-separated) at `width`: the columns, or why not.
pub(crate) fn lab(values: &str, width: u32) -> Result<Vec<Column>, String> {
    let values: Vec<u128> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| v.parse().map_err(|_| format!("expected numbers of 0 or more, found `{v}`")))
        .collect::<Result<_, _>>()?;
    if !(1..=39).contains(&width) {
        return Err(format!("expected a width from 1 to 39, found {width}"));
    }
    let unpadded = column("unpadded (by hand)".into(), values.iter().map(|v| (v.to_string(), *v)).collect(), false);
    let mut columns = vec![unpadded];
    for desc in [false, true] {
        let text = format!("{{v:u128 width={width}{}}}", if desc { " desc" } else { "" });
        let layout = DynLayout::parse(&text).map_err(|e| e.to_string())?;
        let mut written = Vec::new();
        for v in &values {
            let key = DynValue::Key(vec![("v", DynValue::Unsigned(*v))]);
            written.push((layout.encode(&key).map_err(|e| e.to_string())?, *v));
        }
        let title = format!("padded, width {width}{}", if desc { ", desc" } else { "" });
        columns.push(column(title, written, desc));
    }
    Ok(columns)
}

fn column(title: String, mut sorted: Vec<(String, u128)>, desc: bool) -> Column {
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let in_order = sorted.windows(2).all(|w| if desc { w[0].1 >= w[1].1 } else { w[0].1 <= w[1].1 });
    Column { title, sorted, in_order }
}

/// The columns side by side: each column's title (with whether it is in order), and the rows.
pub(crate) struct LabTable {
    pub(crate) titles: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

impl LabTable {
    pub(crate) fn new(columns: &[Column]) -> LabTable {
        let titles = columns
            .iter()
            .map(|c| format!("{}{}", c.title, if c.in_order { " ✓ in order" } else { " ✗ out of order" }))
            .collect();
        let count = columns.first().map_or(0, |c| c.sorted.len());
        let rows = (0..count).map(|i| columns.iter().map(|c| c.sorted[i].0.clone()).collect()).collect();
        LabTable { titles, rows }
    }
}
