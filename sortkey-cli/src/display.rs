//! Text you can trust: the one display of text from a table, a lock or a request (a key, a
//! value, a name), for the terminal and the web view alike. What a terminal or a browser would
//! act on instead of showing (control characters, bidirectional overrides and isolates,
//! zero-width and other invisible characters) is shown escaped, the text then quoted, as `ls` and
//! `git` show file names.

use std::borrow::Cow;

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

/// Text from a table or a request, quoted in a message for people: always in double quotes,
/// escaped as [`shown`] escapes it.
pub(crate) fn quoted(text: &str) -> String {
    escaped(text)
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

/// The web view's escaper (askama.toml names it for every template): each value a page writes,
/// in an element or an attribute, with HTML's special characters as entities (`&#60;` and the
/// rest, as askama writes them) and every character a terminal or a browser would act on
/// instead of showing escaped as [`shown`] escapes it (`\u{202e}`, `\n`), so that a key shows
/// on a page as it does in a terminal.
#[derive(Debug, Clone, Copy)]
#[cfg(feature = "serve")]
pub(crate) struct Html;

#[cfg(feature = "serve")]
impl askama::filters::Escaper for Html {
    fn write_escaped_str<W: std::fmt::Write>(&self, mut dest: W, string: &str) -> std::fmt::Result {
        for c in string.chars() {
            match c {
                '&' => dest.write_str("&#38;")?,
                '<' => dest.write_str("&#60;")?,
                '>' => dest.write_str("&#62;")?,
                '"' => dest.write_str("&#34;")?,
                '\'' => dest.write_str("&#39;")?,
                '\n' => dest.write_str("\\n")?,
                '\t' => dest.write_str("\\t")?,
                '\r' => dest.write_str("\\r")?,
                c if acts_on_terminal(c) => write!(dest, "\\u{{{:x}}}", c as u32)?,
                c => dest.write_char(c)?,
            }
        }
        Ok(())
    }
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

    #[test]
    fn a_page_shows_text_as_the_terminal_does_and_html_as_text() {
        use askama::filters::Escaper;
        let html = |text: &str| {
            let mut out = String::new();
            super::Html.write_escaped_str(&mut out, text).unwrap();
            out
        };
        assert_eq!(html("p_\u{202e}evil.exe"), r"p_\u{202e}evil.exe");
        assert_eq!(html("<script>&'\""), "&#60;script&#62;&#38;&#39;&#34;");
        assert_eq!(html("a\u{1b}[2Jb\nc"), r"a\u{1b}[2Jb\nc");
        assert_eq!(html("\u{200b}\u{2066}x\u{2069}\u{feff}"), r"\u{200b}\u{2066}x\u{2069}\u{feff}");
        assert_eq!(html("é 日本 #$&"), "é 日本 #$&#38;");
    }
}
