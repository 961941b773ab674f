//! Printing results: every document is one value of a report type, printed as aligned tables for
//! people or as one JSON document for programs.

use std::borrow::Cow;

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

/// Text from a table or an export (a key, a value), shown to people: as it is when it holds
/// nothing a terminal acts on, else quoted and escaped (`"RUN#\u{1b}]0;x\u{7}"`), as `ls` and `git`
/// show file names. A key that holds a backslash or a double quote is quoted too, so that a
/// quoted key is always an escaped one.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    if text.chars().any(|c| acts_on_terminal(c) || c == '\\' || c == '"') {
        Cow::Owned(escaped(text))
    } else {
        Cow::Borrowed(text)
    }
}

/// A message for people (an error that may quote a key) with every character a terminal would
/// act on escaped as `\u{..}`.
pub(crate) fn sanitized(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts_on_terminal(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` in double quotes, escaped: `\\`, `\"`, `\n`, `\t`, `\r`, and `\u{..}` for every other
/// character a terminal acts on.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if acts_on_terminal(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether a terminal acts on `c` instead of showing it: a control character (C0, DEL, C1: the
/// escape sequences start with one) or an invisible format character that reorders or hides
/// text (bidirectional overrides and isolates, zero-width characters).
fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// A document's format and version, its first member (`"format": "sortkey audit 1"`): a unit
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
    use super::{sanitized, shown};

    #[test]
    fn text_a_terminal_acts_on_is_shown_escaped_and_quoted() {
        assert_eq!(shown("RUN#0001#p_1"), "RUN#0001#p_1");
        assert_eq!(shown("RUN#\u{1b}]0;pwned\u{7}"), r#""RUN#\u{1b}]0;pwned\u{7}""#);
        assert_eq!(shown("a\u{1b}[31mred"), r#""a\u{1b}[31mred""#);
        assert_eq!(shown("evil\u{202e}txt.exe"), r#""evil\u{202e}txt.exe""#);
        assert_eq!(shown("tab\there\n"), r#""tab\there\n""#);
        // A key that holds a backslash (or a quote) is quoted too: a quoted key is an escaped one.
        assert_eq!(shown(r"a\u{1b}"), r#""a\\u{1b}""#);
        assert_eq!(shown(r#""x""#), r#""\"x\"""#);
        assert_eq!(shown("é ü 日本"), "é ü 日本");
        assert_eq!(sanitized("found \"\u{1b}[2J\""), "found \"\\u{1b}[2J\"");
    }
}
