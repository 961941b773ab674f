//! The words attribute values are spelled with, as the enums they become when parsed: a
//! timestamp's `unit`, a field's `format`, an enum's `rename_all`. Each has one table of
//! (spelling, value), which the reader (attr.rs), its message and the entity's re-emission of
//! the attribute all use; nothing downstream compares strings. The case conversion of
//! `rename_all` is here too, and serves every name the derives make from another.

/// An enum an attribute's string value becomes.
pub(crate) trait Keyword: Copy + PartialEq + 'static {
    /// What the value is, as messages name it: "unit".
    const WHAT: &'static str;
    /// Every value with its spelling, in the order messages list them.
    const ALL: &'static [(&'static str, Self)];

    /// The value `text` spells.
    fn from_spelling(text: &str) -> Option<Self> {
        Self::ALL.iter().find(|(s, _)| *s == text).map(|(_, v)| *v)
    }

    /// How the attribute spells this value.
    fn spelling(self) -> &'static str {
        Self::ALL.iter().find(|(_, v)| *v == self).map_or("", |(s, _)| s)
    }

    /// The spellings, quoted, for a message: `"s", "ms", "us", "ns"`.
    fn listed() -> String {
        Self::ALL.iter().map(|(s, _)| format!("{s:?}")).collect::<Vec<_>>().join(", ")
    }
}

/// The precision of a timestamp field, `#[key(unit = "...")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeUnit {
    Seconds,
    Millis,
    Micros,
    Nanos,
}

impl Keyword for TimeUnit {
    const WHAT: &'static str = "unit";
    const ALL: &'static [(&'static str, Self)] =
        &[("s", TimeUnit::Seconds), ("ms", TimeUnit::Millis), ("us", TimeUnit::Micros), ("ns", TimeUnit::Nanos)];
}

/// The value of `#[key(format = "...")]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FormatAttr {
    /// `"rfc3339"`: a timestamp as RFC 3339 text.
    Rfc3339,
    /// `"hex"`: a float as its order-preserving bits.
    Hex,
}

impl Keyword for FormatAttr {
    const WHAT: &'static str = "format";
    const ALL: &'static [(&'static str, Self)] = &[("rfc3339", FormatAttr::Rfc3339), ("hex", FormatAttr::Hex)];
}

/// How `rename_all` converts variant names, as serde spells the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl Keyword for RenameRule {
    const WHAT: &'static str = "rename_all";
    const ALL: &'static [(&'static str, Self)] = &[
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];
}

impl RenameRule {
    /// A PascalCase name (a variant's) under this rule; words start at upper-case letters, as
    /// serde's `apply_to_variant` splits them.
    pub(crate) fn apply_to_variant(self, ident: &str) -> String {
        let mut words: Vec<String> = Vec::new();
        for c in ident.chars() {
            match words.last_mut() {
                Some(w) if !c.is_uppercase() => w.push(c),
                _ => words.push(c.to_string()),
            }
        }
        match self {
            RenameRule::Pascal => ident.to_owned(),
            _ => self.join(&words),
        }
    }

    /// A snake_case name (a field's, an index's) under this rule; words end at `_`, as serde's
    /// `apply_to_field` splits them.
    pub(crate) fn apply_to_field(self, name: &str) -> String {
        let words: Vec<String> = name.split('_').filter(|w| !w.is_empty()).map(str::to_owned).collect();
        self.join(&words)
    }

    fn join(self, words: &[String]) -> String {
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let upper: Vec<String> = words.iter().map(|w| w.to_uppercase()).collect();
        let capitalized = || lower.iter().map(|w| capitalize(w)).collect::<Vec<_>>();
        match self {
            RenameRule::Lower => lower.concat(),
            RenameRule::Upper => upper.concat(),
            RenameRule::Pascal => capitalized().concat(),
            RenameRule::Camel => {
                let mut out = lower.first().cloned().unwrap_or_default();
                out.extend(capitalized().into_iter().skip(1));
                out
            }
            RenameRule::Snake => lower.join("_"),
            RenameRule::ScreamingSnake => upper.join("_"),
            RenameRule::Kebab => lower.join("-"),
            RenameRule::ScreamingKebab => upper.join("-"),
        }
    }
}

/// `word` with its first letter upper-cased.
fn capitalize(word: &str) -> String {
    let mut cs = word.chars();
    match cs.next() {
        Some(first) => first.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for &(s, v) in TimeUnit::ALL {
            assert_eq!((TimeUnit::from_spelling(s), v.spelling()), (Some(v), s));
        }
        assert_eq!(FormatAttr::from_spelling("hex"), Some(FormatAttr::Hex));
        assert_eq!(RenameRule::from_spelling("shouting"), None);
    }

    #[test]
    fn variants_convert_as_serde_does() {
        assert_eq!(RenameRule::Snake.apply_to_variant("InTransit"), "in_transit");
        assert_eq!(RenameRule::Camel.apply_to_variant("InTransit"), "inTransit");
        assert_eq!(RenameRule::ScreamingKebab.apply_to_variant("InTransit"), "IN-TRANSIT");
        assert_eq!(RenameRule::Pascal.apply_to_variant("InTransit"), "InTransit");
        assert_eq!(RenameRule::Snake.apply_to_variant("V2Order"), "v2_order");
    }

    #[test]
    fn fields_convert_as_serde_does() {
        assert_eq!(RenameRule::Pascal.apply_to_field("gsi1"), "Gsi1");
        assert_eq!(RenameRule::Pascal.apply_to_field("by_status"), "ByStatus");
        assert_eq!(RenameRule::Camel.apply_to_field("by_status"), "byStatus");
    }
}
