//! The layout grammar (README, "Locking a layout"), read by recursive descent: every text it
//! allows, and for anything else an error at the byte where the text leaves it, saying what was
//! expected and what was found. Never a panic, whatever the text.

use std::fmt;

use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::spec::KEY_NAME;
use crate::encoding::key::KeyRole;
use crate::encoding::shard::{ShardRule, Shards};
use crate::encoding::spec::TimeUnit;

/// A layout text the grammar does not allow: where, what was expected, what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutParseError {
    /// The byte offset in the text.
    pub offset: usize,
    /// What the grammar allows there.
    pub expected: String,
    /// What the text has there (its next characters, or "the end").
    pub found: String,
}

impl fmt::Display for LayoutParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout text at byte {}: expected {}, found {}", self.offset, self.expected, self.found)
    }
}

impl std::error::Error for LayoutParseError {}

type Result<T> = std::result::Result<T, LayoutParseError>;

/// A whole layout: `[partition ]key[ max_len=N]`, and nothing after it.
pub(crate) fn layout(text: &str) -> Result<DynLayout> {
    let mut p = Parser { text, at: 0 };
    let role = if p.eat("partition ") { KeyRole::Partition } else { KeyRole::Sort };
    let key = p.key()?;
    let max_len = if p.eat(" max_len=") { p.number("the longest encoding in bytes")? } else { role.limit() };
    if p.at != text.len() {
        return Err(p.error("the end of the layout (or ` max_len=N`)"));
    }
    let shard_fields = match &key.body {
        DynBody::Fields(fields) => fields.iter().filter(|f| f.shards.is_some()).count(),
        _ => 0,
    };
    if shard_fields > 1 || nested_shards(&key, false) || (shard_fields == 1 && role != KeyRole::Partition) {
        // At the second shard field when there are two, else at the one.
        let mut at = text.match_indices("shards=").map(|(i, _)| i);
        let first = at.next().unwrap_or(0);
        p.at = if shard_fields > 1 { at.next().unwrap_or(first) } else { first };
        return Err(
            p.error("`shards=N` on one field of a partition key (`partition ...`), not of a sort key or a nested key")
        );
    }
    Ok(DynLayout { name: KEY_NAME, role, max_len, key })
}

/// Whether a key nested in `key` (or `key` itself, when `nested`) has a shard field.
fn nested_shards(key: &DynKey, nested: bool) -> bool {
    fn in_type(ty: &DynType) -> bool {
        match ty {
            DynType::Option(inner) => in_type(inner),
            DynType::Key(key) => nested_shards(key, true),
            _ => false,
        }
    }
    match &key.body {
        DynBody::Fields(fields) => fields.iter().any(|f| (nested && f.shards.is_some()) || in_type(&f.ty)),
        DynBody::Family(variants) => variants.iter().any(|v| matches!(v, DynVariant::Key(k) if nested_shards(k, true))),
        DynBody::Custom => false,
    }
}

/// Gives a nested key of type `ty` (under any `option<..>`) whose text shows no separator (one
/// field and no prefix, or a family of literals) the separator `outer` of the key it is in.
fn inherit_separator(ty: &mut DynType, outer: char) {
    match ty {
        DynType::Option(inner) => inherit_separator(inner, outer),
        DynType::Key(key) if !shows_separator(key) => key.separator = outer,
        _ => {}
    }
}

/// Whether the text of `key` writes its separator.
fn shows_separator(key: &DynKey) -> bool {
    match &key.body {
        DynBody::Fields(fields) => key.prefix.is_some() || fields.len() > 1,
        DynBody::Custom => key.prefix.is_some(),
        DynBody::Family(variants) => variants.iter().any(|v| match v {
            DynVariant::Unit(lit) => lit.contains(key.separator),
            DynVariant::Key(k) => shows_separator(k),
        }),
    }
}

/// A field's shard options as read, before they are checked together.
#[derive(Default)]
struct ShardText {
    /// `shards=N`, and where it was written.
    count: Option<(u16, usize)>,
    /// `by=name`.
    by: Option<&'static str>,
    /// `random`.
    random: bool,
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    /// Consumes `s` if the text goes on with it.
    fn eat(&mut self, s: &str) -> bool {
        let found = self.rest().starts_with(s);
        if found {
            self.at += s.len();
        }
        found
    }

    fn expect(&mut self, s: &str) -> Result<()> {
        if self.eat(s) { Ok(()) } else { Err(self.error(format!("`{s}`"))) }
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn error(&self, expected: impl Into<String>) -> LayoutParseError {
        let rest = self.rest();
        let found = match rest.char_indices().nth(16) {
            _ if rest.is_empty() => "the end".to_owned(),
            Some((i, _)) => format!("`{}...`", &rest[..i]),
            None => format!("`{rest}`"),
        };
        LayoutParseError { offset: self.at, expected: expected.into(), found }
    }

    /// Decimal digits, as a number of type `T`.
    fn number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T> {
        let digits = self.rest().bytes().take_while(u8::is_ascii_digit).count();
        let value = self.rest()[..digits].parse().map_err(|_| self.error(format!("{what}, in decimal digits")))?;
        self.at += digits;
        Ok(value)
    }

    /// The characters up to the first of `stops` (or the end), consumed.
    fn until(&mut self, stops: &[char]) -> &str {
        let rest = &self.text[self.at..];
        let end = rest.find(stops).unwrap_or(rest.len());
        self.at += end;
        &rest[..end]
    }

    /// `family(variant | ...)`, or `[prefix sep]{custom}`, or `[prefix sep]field sep field ...`.
    fn key(&mut self) -> Result<DynKey> {
        if self.eat("family(") {
            return self.family();
        }
        let start = self.at;
        let (prefix, separator) = match self.peek() {
            Some('{') => (None, None),
            _ => {
                let before = self.until(&['{', ')']).to_owned();
                let mut chars = before.chars();
                let sep = chars.next_back().filter(|c| c.is_ascii_punctuation() && self.peek() == Some('{'));
                match (sep, chars.as_str()) {
                    (Some(sep), prefix) if !prefix.is_empty() => (Some(prefix.to_owned()), Some(sep)),
                    _ => {
                        self.at = start;
                        return Err(self.error("a prefix and a separator before a field `{`, or a field"));
                    }
                }
            }
        };
        if self.eat("{custom}") {
            return Ok(DynKey { prefix, separator: separator.unwrap_or('#'), body: DynBody::Custom });
        }
        let mut fields = vec![self.field()?];
        let mut separator = separator;
        // Another field follows a separator; a separator is one ASCII punctuation character.
        while let Some(c) = self.peek().filter(char::is_ascii_punctuation) {
            if !self.rest()[c.len_utf8()..].starts_with('{') {
                break;
            }
            if separator.is_some_and(|s| s != c) {
                return Err(self.error(format!("the separator `{}` again", separator.unwrap_or('#'))));
            }
            separator = Some(c);
            self.at += c.len_utf8();
            fields.push(self.field()?);
        }
        let separator = separator.unwrap_or('#');
        // A nested key's text shows its separator only between two of its segments; it is the
        // outer key's (the derive requires it), also where the text cannot show it.
        for field in &mut fields {
            inherit_separator(&mut field.ty, separator);
        }
        Ok(DynKey { prefix, separator, body: DynBody::Fields(fields) })
    }

    /// The variants of `family(...)`, after its `(`.
    fn family(&mut self) -> Result<DynKey> {
        let mut variants = Vec::new();
        let mut separator = None;
        loop {
            let start = self.at;
            let literal = self.until(&['{', '|', ')']).to_owned();
            let keyed = self.peek() == Some('{');
            self.at = start;
            if keyed {
                let key = self.key()?;
                separator = separator.or(Some(key.separator));
                variants.push(DynVariant::Key(key));
            } else {
                let literal = literal.strip_suffix(' ').unwrap_or(&literal).to_owned();
                if literal.is_empty() {
                    return Err(self.error("a variant: a literal or a key"));
                }
                self.at += literal.len();
                variants.push(DynVariant::Unit(literal));
            }
            if self.eat(" | ") {
                continue;
            }
            self.expect(")")?;
            let separator = separator.unwrap_or('#');
            return Ok(DynKey { prefix: None, separator, body: DynBody::Family(variants) });
        }
    }

    /// `{name:type option ...}`.
    fn field(&mut self) -> Result<DynField> {
        self.expect("{")?;
        let start = self.at;
        let name = self.until(&[':', '{', '}', ' ']).to_owned();
        if name.is_empty() || self.peek() != Some(':') {
            self.at = start;
            return Err(self.error("a field's name and `:`"));
        }
        self.at += 1;
        let ty = self.ty()?;
        let mut field = DynField::new(crate::dynamic::spec::intern(&name), ty);
        let (mut width_at, mut shards) = (None, ShardText::default());
        while self.eat(" ") {
            if self.rest().starts_with("width=") {
                width_at = Some(self.at);
            }
            if !self.shard_option(&mut shards)? {
                self.option(&mut field)?;
            }
        }
        self.shards(&mut field, shards, width_at)?;
        // An RFC 3339 timestamp is as long as its unit makes it: a text that gives it another
        // width would say the keys are something they are not.
        let text_len = crate::dynamic::spec::time_format(&field).default_width();
        if let Some(at) = width_at.filter(|_| field.rfc3339 && field.width != text_len) {
            self.at = at;
            return Err(self.error(format!(
                "no width, or `width={text_len}`, for an RFC 3339 timestamp of unit `{}` (its length)",
                field.unit.unwrap_or(TimeUnit::Seconds).name()
            )));
        }
        self.expect("}")?;
        Ok(field)
    }

    /// `shards=N`, `by=name` or `random`, when the text goes on with one (`Ok(false)` when not).
    fn shard_option(&mut self, shards: &mut ShardText) -> Result<bool> {
        let start = self.at;
        let twice = |p: &mut Self, what: &str| {
            p.at = start;
            Err(p.error(format!("`{what}` once, and `by=` or `random`, not both")))
        };
        if self.eat("shards=") {
            if shards.count.is_some() {
                return twice(self, "shards");
            }
            shards.count = Some((self.number("a shard count")?, start));
        } else if self.eat("by=") {
            if shards.by.is_some() || shards.random {
                return twice(self, "by");
            }
            let name = self.until(&[' ', '}']).to_owned();
            if name.is_empty() {
                return Err(self.error("the name of the sort key's field the shard is calculated from"));
            }
            shards.by = Some(crate::dynamic::spec::intern(&name));
        } else if self.eat("random") {
            if shards.by.is_some() || shards.random {
                return twice(self, "random");
            }
            shards.random = true;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// Makes `field` the shard field its `shards=N` and `by=`/`random` say, with the width and
    /// the largest value they imply; refuses a shard field that is no `u16` or that says a
    /// `max`, another width or `desc`.
    fn shards(&mut self, field: &mut DynField, shards: ShardText, width_at: Option<usize>) -> Result<()> {
        let Some((count, at)) = shards.count else {
            if shards.by.is_some() || shards.random {
                return Err(self.error("`shards=N` before `by=` or `random` (a field with a rule is a shard)"));
            }
            return Ok(());
        };
        let rule = match shards.by {
            Some(name) => ShardRule::By(name),
            None if shards.random => ShardRule::Random,
            None => return Err(self.error("`by=name` or `random` after `shards=N`: how an item's shard is chosen")),
        };
        let here = self.at;
        let refuse = |p: &mut Self, at: usize, expected: String| {
            p.at = at;
            Err(p.error(expected))
        };
        if !(1..=Shards::MAX).contains(&count) {
            return refuse(self, at, format!("a shard count of 1 to {}", Shards::MAX));
        }
        if field.ty != DynType::Unsigned(16) {
            return refuse(self, at, "a shard field of type u16".into());
        }
        if field.max.is_some() || field.desc {
            return refuse(
                self,
                at,
                "no `max` and no `desc` on a shard field (its count sets its largest value)".into(),
            );
        }
        let shards = Shards::new(count, rule);
        if let Some(width_at) = width_at.filter(|_| field.width != shards.width()) {
            return refuse(self, width_at, format!("no width, or `width={}`, for {count} shards", shards.width()));
        }
        field.width = shards.width();
        field.max = Some(u128::from(shards.last()));
        field.shards = Some(shards);
        self.at = here;
        Ok(())
    }

    /// A field's type.
    fn ty(&mut self) -> Result<DynType> {
        const NUMBERS: [(&str, DynType); 14] = [
            ("usize", DynType::Unsigned(0)),
            ("isize", DynType::Signed(0)),
            ("u128", DynType::Unsigned(128)),
            ("u64", DynType::Unsigned(64)),
            ("u32", DynType::Unsigned(32)),
            ("u16", DynType::Unsigned(16)),
            ("u8", DynType::Unsigned(8)),
            ("i128", DynType::Signed(128)),
            ("i64", DynType::Signed(64)),
            ("i32", DynType::Signed(32)),
            ("i16", DynType::Signed(16)),
            ("i8", DynType::Signed(8)),
            ("f32", DynType::Float(32)),
            ("f64", DynType::Float(64)),
        ];
        if self.eat("option<") {
            let inner = self.ty()?;
            self.expect(">")?;
            return Ok(DynType::Option(Box::new(inner)));
        }
        if self.eat("enum(") {
            let mut names = Vec::new();
            loop {
                let name = self.until(&['|', ')']).to_owned();
                if name.is_empty() {
                    return Err(self.error("a variant's name"));
                }
                names.push(name);
                if !self.eat("|") {
                    self.expect(")")?;
                    return Ok(DynType::Enum(names));
                }
            }
        }
        if self.eat("key(") {
            let key = self.key()?;
            self.expect(")")?;
            return Ok(DynType::Key(key));
        }
        let word_end = self.rest().find([' ', '}', '>']).unwrap_or(self.rest().len());
        let word = &self.rest()[..word_end];
        let found =
            NUMBERS.iter().find(|(name, _)| *name == word).map(|(_, ty)| ty.clone()).or_else(|| DynType::named(word));
        match found {
            Some(ty) => {
                self.at += word.len();
                Ok(ty)
            }
            None => Err(self.error(
                "a type: u8..u128, usize, i8..i128, isize, bool, char, text, f32, f64, timestamp, uuid, ulid, \
                 decimal, option<..>, enum(..), key(..) or custom",
            )),
        }
    }

    /// One option of a field, after its space; each at most once.
    fn option(&mut self, field: &mut DynField) -> Result<()> {
        let start = self.at;
        let word = self.until(&[' ', '}', '=']).to_owned();
        let once = |set: bool, p: &mut Self| {
            if set {
                p.at = start;
                Err(p.error(format!("`{word}` once")))
            } else {
                Ok(())
            }
        };
        match word.as_str() {
            "desc" => {
                once(field.desc, self)?;
                field.desc = true;
            }
            "width" => {
                once(field.width > 0, self)?;
                self.expect("=")?;
                field.width = self.number("a width")?;
            }
            "max" => {
                once(field.max.is_some(), self)?;
                self.expect("=")?;
                field.max = Some(self.number("a largest value")?);
            }
            "scale" => {
                once(field.scale.is_some(), self)?;
                self.expect("=")?;
                field.scale = Some(self.number("a scale")?);
            }
            "unit" => {
                once(field.unit.is_some(), self)?;
                self.expect("=")?;
                let at = self.at;
                let unit = match self.until(&[' ', '}']) {
                    "s" => TimeUnit::Seconds,
                    "ms" => TimeUnit::Millis,
                    "us" => TimeUnit::Micros,
                    "ns" => TimeUnit::Nanos,
                    _ => {
                        self.at = at;
                        return Err(self.error("a unit: s, ms, us or ns"));
                    }
                };
                field.unit = Some(unit);
            }
            "format" => {
                once(field.rfc3339 || field.hex, self)?;
                self.expect("=")?;
                if self.eat("rfc3339") {
                    field.rfc3339 = true;
                } else if self.eat("hex") {
                    field.hex = true;
                } else {
                    return Err(self.error("a format: rfc3339 or hex"));
                }
            }
            _ => {
                self.at = start;
                return Err(self.error(
                    "an option: width=N, desc, max=N, unit=.., format=.., scale=N, shards=N, by=name or random",
                ));
            }
        }
        Ok(())
    }
}

impl DynLayout {
    /// Reads a layout's text, as `K::LAYOUT` prints it: every text the grammar allows, and
    /// nothing else (an error at the byte where the text leaves the grammar).
    pub fn parse(text: &str) -> std::result::Result<DynLayout, LayoutParseError> {
        layout(text)
    }
}
