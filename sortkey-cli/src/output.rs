//! Printing results: aligned tables for people, one JSON document for programs.

use comfy_table::{Table, presets};

/// A table with `header`, in plain ASCII columns whatever the terminal's width.
pub(crate) fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::ASCII_MARKDOWN).set_header(header.iter().copied());
    table
}

/// Prints one JSON document, pretty, with a final newline.
pub(crate) fn print_json(doc: &serde_json::Value) {
    println!("{}", serde_json::to_string_pretty(doc).unwrap_or_default());
}
