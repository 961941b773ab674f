//! The templates' own filters (askama looks them up as `filters::NAME` where a template is
//! defined).

use std::fmt::Display;

use askama::filters::{Escaper, Safe};

use crate::display::{Html, shown};

/// Keys longer than this show shortened on a page, the whole key a hover away.
const LONG: usize = 120;

/// A key (or any text from a table) as a cell shows it: as the terminal shows it
/// ([`shown`]: quoted and escaped when it holds a character a terminal acts on, a backslash or
/// a double quote, so that the key holding U+202E and the key holding the six characters
/// `\u{202e}` never look the same), and when it is long its first 60 and last 20 characters
/// around an ellipsis, the whole of it in the cell's title (a hover away), so that a 1,000-byte
/// key neither widens the page nor hides its ends.
pub(crate) fn short<T: Display>(value: T, _: &dyn askama::Values) -> askama::Result<Safe<String>> {
    let text = shown(&value.to_string()).into_owned();
    let mut out = String::new();
    let count = text.chars().count();
    if count <= LONG {
        Html.write_escaped_str(&mut out, &text)?;
        return Ok(Safe(out));
    }
    let head: String = text.chars().take(60).collect();
    let tail: String = text.chars().skip(count - 20).collect();
    out.push_str("<span class=\"long\" title=\"");
    Html.write_escaped_str(&mut out, &text)?;
    out.push_str("\">");
    Html.write_escaped_str(&mut out, &head)?;
    out.push('…');
    Html.write_escaped_str(&mut out, &tail)?;
    out.push_str("</span>");
    Ok(Safe(out))
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn a_long_key_shows_its_ends_and_the_whole_of_it_on_hover() {
        let key = format!("<{}>{}", "K".repeat(200), "\u{202e}end");
        let shown = short(&key, askama::NO_VALUES).unwrap().0;
        assert!(shown.starts_with("<span class=\"long\" title=\"&#34;&#60;KKK"), "{shown}");
        assert!(shown.contains(r"\u{202e}end&#34;</span>") && !shown.contains('\u{202e}'), "{shown}");
        assert_eq!(short("RUN#1", askama::NO_VALUES).unwrap().0, "RUN#1");
    }

    #[test]
    fn a_key_shows_on_a_page_as_the_terminal_shows_it() {
        let page = |key: &str| short(key, askama::NO_VALUES).unwrap().0;
        // U+202E, and the six characters that write it: told apart, as in a terminal.
        assert_eq!(page("p_\u{202e}x"), r"&#34;p_\u{202e}x&#34;");
        assert_eq!(page(r"p_\u{202e}x"), r"&#34;p_\\u{202e}x&#34;");
        assert_eq!(page("it's \"quoted\""), r"&#34;it&#39;s \&#34;quoted\&#34;&#34;");
        assert_eq!(page("<b>x</b>"), "&#60;b&#62;x&#60;/b&#62;");
    }
}
