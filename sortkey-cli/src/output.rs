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
    outln!("{}", serde_json::to_string_pretty(doc).unwrap_or_default());
}

/// `println!` that ends the command quietly when standard output is closed (`sortkey audit |
/// head`), where `println!` would panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            $crate::output::closed(e);
        }
    }};
}
pub(crate) use outln;

/// Standard output failed: when its reader is gone (a broken pipe) there is no one left to tell,
/// and the command ends with success, as `cat` or `grep` do; otherwise it is an error.
pub(crate) fn closed(e: std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("sortkey: cannot write to standard output: {e}");
    std::process::exit(2);
}
