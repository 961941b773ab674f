//! Printing results: every document is one value of a report type, printed as aligned tables for
//! people or as one JSON document for programs.

use std::fmt;

use comfy_table::presets;
use serde::Serialize;

use crate::outcome::Outcome;

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Output {
    /// Aligned columns, for people.
    Table,
    /// One JSON document on standard output, for programs (each document's shape is a page of the
    /// book's reference).
    Json,
}

/// A report the command prints: its JSON is its serde form, its tables [`print_table`](Self::print_table).
pub(crate) trait Document: Serialize {
    /// Prints the report as aligned tables.
    fn print_table(&self);

    /// What the report found: [`Outcome::Found`] (exit status 1) for a finding.
    fn outcome(&self) -> Outcome {
        Outcome::Clean
    }
}

/// A subcommand's answer: its document, which `main` prints as the output asks, and what it
/// found (the exit status).
pub(crate) struct Answer {
    doc: Box<dyn Printable>,
    pub(crate) outcome: Outcome,
}

impl Answer {
    /// The answer of `doc`.
    pub(crate) fn of(doc: impl Document + 'static) -> Answer {
        Answer { outcome: doc.outcome(), doc: Box::new(doc) }
    }

    /// No document: a subcommand that prints none of its own (`serve`).
    #[cfg(feature = "serve")]
    pub(crate) fn nothing() -> Answer {
        Answer { doc: Box::new(Nothing), outcome: Outcome::Clean }
    }

    /// Prints the document as `output` asks.
    pub(crate) fn print(&self, output: Output) {
        self.doc.print_as(output);
    }
}

/// What an answer without a document prints: nothing.
#[cfg(feature = "serve")]
struct Nothing;

#[cfg(feature = "serve")]
impl Printable for Nothing {
    fn print_as(&self, _: Output) {}
}

/// A document of any type, printed.
trait Printable {
    fn print_as(&self, output: Output);
}

impl<D: Document> Printable for D {
    fn print_as(&self, output: Output) {
        print(output, self);
    }
}

/// Prints `doc` as `output` asks: tables, or one JSON document.
pub(crate) fn print(output: Output, doc: &impl Document) {
    match output {
        Output::Json => print_json(doc),
        Output::Table => doc.print_table(),
    }
}

/// A table with `header`, in plain ASCII columns whatever the terminal's width.
pub(crate) fn table(header: &[&str]) -> Table {
    let mut table = comfy_table::Table::new();
    table.load_preset(presets::ASCII_MARKDOWN).set_header(header.iter().copied());
    Table(table)
}

/// An aligned table in Markdown's form (it pastes into an issue as a table): a `|` in a cell (an
/// enum's `enum(a|b)`, a key whose separator is `|`) is written `\|`, as Markdown escapes it, so
/// that it never splits the cell.
pub(crate) struct Table(comfy_table::Table);

impl Table {
    /// Adds a row of `cells`.
    pub(crate) fn add_row<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, cells: I) -> &mut Self {
        self.0.add_row(cells.into_iter().map(|c| c.into().replace('|', "\\|")));
        self
    }

    /// How many rows it has.
    pub(crate) fn row_count(&self) -> usize {
        self.0.row_count()
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// `n` of a `noun` for people: `1 key`, `2 keys`, `0 keys`.
pub(crate) fn counted(n: impl Into<u64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Prints one JSON document, pretty, with a final newline.
pub(crate) fn print_json(doc: &impl Serialize) {
    outln!("{}", serde_json::to_string_pretty(doc).unwrap_or_default());
}

/// A document's format and version, its first member (`"format": "sortkey audit 5"`): a unit
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

#[cfg(test)]
mod tests {
    /// A `|` in a cell (an enum's layout, a key whose separator is `|`) is escaped as Markdown
    /// escapes it, so that the row keeps its cells; a count of one is singular.
    #[test]
    fn a_bar_in_a_cell_does_not_split_the_row() {
        let mut t = super::table(&["field", "type"]);
        t.add_row(["status", "enum(open|shipped)"]);
        let text = t.to_string();
        let row = text.lines().last().unwrap();
        assert_eq!(row.matches(" | ").count(), 1, "{text}");
        assert!(row.contains("enum(open\\|shipped)"), "{text}");
        assert_eq!((super::counted(1u64, "key"), super::counted(0u64, "key")), ("1 key".into(), "0 keys".into()));
    }
}
