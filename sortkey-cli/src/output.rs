//! Printing results: every document is one value of a report type, printed as aligned tables for
//! people or as one JSON document for programs.

use comfy_table::{Table, presets};
use serde::Serialize;

use crate::cli::{Args, Output};

/// A report the command prints: its JSON is its serde form, its tables [`print_table`](Self::print_table).
pub(crate) trait Document: Serialize {
    /// Prints the report as aligned tables.
    fn print_table(&self);
}

/// Prints `doc` as the arguments ask: tables, or one JSON document.
pub(crate) fn print(args: &Args, doc: &impl Document) {
    match args.output() {
        Output::Json => print_json(doc),
        Output::Table => doc.print_table(),
    }
}

/// A table with `header`, in plain ASCII columns whatever the terminal's width.
pub(crate) fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::ASCII_MARKDOWN).set_header(header.iter().copied());
    table
}

/// Prints one JSON document, pretty, with a final newline.
pub(crate) fn print_json(doc: &impl Serialize) {
    outln!("{}", serde_json::to_string_pretty(doc).unwrap_or_default());
}

/// A document's format and version, its first member (`"format": "sortkey audit 3"`): a unit
/// type that writes its text and reads only that text back.
macro_rules! format_tag {
    ($(#[$doc:meta])* $name:ident = $text:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub(crate) struct $name;

        impl $name {
            /// The tag's text.
            #[allow(dead_code, reason = "not every tag is named outside its serde")]
            pub(crate) const TEXT: &'static str = $text;
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($text)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let found = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                if found == $text {
                    Ok($name)
                } else {
                    Err(serde::de::Error::custom(format_args!("expected the format `{}`, found `{found}`", $text)))
                }
            }
        }
    };
}
pub(crate) use format_tag;

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
