//! The attributes as written: `#[key(...)]` on the struct, its fields, an enum and its variants.
//!
//! Parsed by hand (with syn's `parse_nested_meta`) so that every message names the attribute
//! and what it is on, says which literal kind the attribute takes and which it found, and for
//! an unknown name lists the attributes that position accepts. Every mistake in every
//! attribute list is reported, each at its own token.

use darling::util::SpannedValue;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Data, DeriveInput, Expr, Fields, Generics, Ident, Lit, Path, Token, Type};

use crate::keywords::{FormatAttr, Keyword, RenameRule, TimeUnit};

/// `#[key(...)]` on the struct.
pub(crate) struct KeyInput {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    pub(crate) generics: Generics,
    /// Whether the struct has no fields (a unit struct or `{}`).
    pub(crate) no_fields: bool,
    /// A literal first segment.
    pub(crate) prefix: Option<SpannedValue<String>>,
    /// The character between segments.
    pub(crate) separator: Option<SpannedValue<char>>,
    /// The longest key in bytes.
    pub(crate) max_len: Option<SpannedValue<usize>>,
    /// `partition`: the key is a partition key, where the flag is written.
    pub(crate) partition: Option<Span>,
    /// The path of the runtime crate.
    pub(crate) krate: Option<Path>,
    /// `legacy = OldKey`, repeatable: older layouts the key also reads.
    pub(crate) legacy: Vec<Path>,
}

/// `#[key(...)]` on a field.
pub(crate) struct KeyField {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    pub(crate) options: FieldOptions,
}

/// A segment's options, as `#[key(...)]` on a key's field or `field(...)` in an entity's key
/// writes them.
#[derive(Default)]
pub(crate) struct FieldOptions {
    /// Characters of an integer segment.
    pub(crate) width: Option<SpannedValue<u32>>,
    /// Reverse order: where `desc` is written.
    pub(crate) desc: Option<Span>,
    /// The largest allowed value.
    pub(crate) max: Option<SpannedValue<u128>>,
    /// The precision of a timestamp: `"s"`, `"ms"`, `"us"` or `"ns"`.
    pub(crate) unit: Option<SpannedValue<TimeUnit>>,
    /// How a timestamp or float is written: `"rfc3339"`, `"hex"`.
    pub(crate) format: Option<SpannedValue<FormatAttr>>,
    /// The fractional digits of a fixed-point decimal.
    pub(crate) scale: Option<SpannedValue<u32>>,
    /// `shards = N`: the field is the shard of a sharded partition key.
    pub(crate) shards: Option<SpannedValue<u16>>,
    /// `by = field`: the sort key's field a shard is calculated from.
    pub(crate) by: Option<Path>,
    /// `random`: a shard chosen at random, where `random` is written.
    pub(crate) random: Option<Span>,
}

/// `#[key(...)]` on an enum that derives `KeySegment`.
pub(crate) struct SegmentInput {
    pub(crate) ident: Ident,
    pub(crate) variants: Vec<SegmentVariant>,
    /// How variant names become encodings: `"snake_case"`, `"kebab-case"`, ...
    pub(crate) rename_all: Option<SpannedValue<RenameRule>>,
    /// The path of the runtime crate.
    pub(crate) krate: Option<Path>,
}

/// `#[key(...)]` on a variant.
pub(crate) struct SegmentVariant {
    pub(crate) ident: Ident,
    /// Whether the variant has no fields.
    pub(crate) is_unit: bool,
    /// The variant's encoding, instead of its name.
    pub(crate) rename: Option<SpannedValue<String>>,
}

/// `#[key(...)]` on an enum that derives `SortKey`: a key family.
pub(crate) struct FamilyInput {
    /// The character between segments, which every variant's key type must use.
    pub(crate) separator: Option<SpannedValue<char>>,
    /// The path of the runtime crate.
    pub(crate) krate: Option<Path>,
    /// `legacy = OldFamily`, repeatable: older layouts of the family (an enum of the variants'
    /// older key types), newest first, which it reads too.
    pub(crate) legacy: Vec<Path>,
    pub(crate) variants: Vec<FamilyVariant>,
}

/// `#[key(...)]` on a variant of a key family.
pub(crate) struct FamilyVariant {
    pub(crate) ident: Ident,
    pub(crate) fields: Fields,
    /// The literal key of a unit variant.
    pub(crate) prefix: Option<SpannedValue<String>>,
}

/// One attribute a position accepts: its name, and what reads its value into the owner's
/// model. Each position's `parse` has one table of them, in the order the messages list them,
/// so that adding an attribute is one entry.
pub(crate) type Accepted<'a> =
    (&'static str, &'a mut dyn FnMut(&'static str, &ParseNestedMeta<'_>) -> darling::Result<()>);

impl KeyInput {
    /// The struct's attributes; the fields are parsed apart ([`KeyField::parse`]).
    pub(crate) fn parse(input: &DeriveInput) -> darling::Result<KeyInput> {
        let owner = Owner::new("struct", &input.ident);
        let (mut prefix, mut separator, mut max_len, mut partition, mut krate) = (None, None, None, None, None);
        let mut legacy = Vec::new();
        owner.parse(
            List::Attrs(&input.attrs, "key"),
            &mut [
                ("prefix", &mut |n, m| owner.string(n, m).map(|v| prefix = Some(v))),
                ("separator", &mut |n, m| owner.char(n, m).map(|v| separator = Some(v))),
                ("max_len", &mut |n, m| owner.int(n, m).map(|v| max_len = Some(v))),
                ("partition", &mut |n, m| owner.flag(n, m).map(|v| partition = Some(v))),
                ("crate", &mut |n, m| owner.path(n, m).map(|v| krate = Some(v))),
                ("legacy", &mut |n, m| owner.path(n, m).map(|v| legacy.push(v))),
            ],
            None,
        )?;
        let no_fields = match &input.data {
            Data::Struct(s) => s.fields.is_empty(),
            _ => false,
        };
        Ok(KeyInput {
            ident: input.ident.clone(),
            vis: input.vis.clone(),
            generics: input.generics.clone(),
            no_fields,
            prefix,
            separator,
            max_len,
            partition,
            krate,
            legacy,
        })
    }
}

impl KeyField {
    /// The attributes of the named field `ident`.
    pub(crate) fn parse(ident: &Ident, field: &syn::Field) -> darling::Result<KeyField> {
        let owner = Owner::new("field", ident);
        let (options, result) = FieldOptions::parse(&owner, List::Attrs(&field.attrs, "key"));
        result.map(|()| KeyField { ident: ident.clone(), ty: field.ty.clone(), options })
    }
}

impl FieldOptions {
    /// The options in `list`, as far as they could be read, and the errors of the rest.
    pub(crate) fn parse(owner: &Owner, list: List<'_, '_>) -> (FieldOptions, darling::Result<()>) {
        let mut o = FieldOptions::default();
        let result = owner.parse(
            list,
            &mut [
                ("width", &mut |n, m| owner.int(n, m).map(|v| o.width = Some(v))),
                ("desc", &mut |n, m| owner.flag(n, m).map(|v| o.desc = Some(v))),
                ("max", &mut |n, m| owner.int(n, m).map(|v| o.max = Some(v))),
                ("unit", &mut |n, m| owner.keyword(n, m).map(|v| o.unit = Some(v))),
                ("format", &mut |n, m| owner.keyword(n, m).map(|v| o.format = Some(v))),
                ("scale", &mut |n, m| owner.int(n, m).map(|v| o.scale = Some(v))),
                ("shards", &mut |n, m| owner.int(n, m).map(|v| o.shards = Some(v))),
                ("by", &mut |n, m| owner.path(n, m).map(|v| o.by = Some(v))),
                ("random", &mut |n, m| owner.flag(n, m).map(|v| o.random = Some(v))),
            ],
            None,
        );
        (o, result)
    }

    /// Whether no option is set.
    pub(crate) fn is_empty(&self) -> bool {
        let FieldOptions { width, desc, max, unit, format, scale, shards, by, random } = self;
        width.is_none()
            && desc.is_none()
            && max.is_none()
            && unit.is_none()
            && format.is_none()
            && scale.is_none()
            && shards.is_none()
            && by.is_none()
            && random.is_none()
    }

    /// The options as `#[key(...)]` would write them, each literal with the span it was read at,
    /// so that a rule the key derive checks reports at the user's token.
    pub(crate) fn to_tokens(&self) -> Vec<TokenStream> {
        let int = |name: &str, v: String, span: Span| {
            let (name, lit) = (Ident::new(name, span), syn::LitInt::new(&v, span));
            quote!(#name = #lit)
        };
        let string = |name: &str, v: &'static str, span: Span| {
            let (name, lit) = (Ident::new(name, span), syn::LitStr::new(v, span));
            quote!(#name = #lit)
        };
        let mut out = Vec::new();
        out.extend(self.width.as_ref().map(|w| int("width", w.to_string(), w.span())));
        out.extend(self.desc.map(|span| Ident::new("desc", span).into_token_stream()));
        out.extend(self.max.as_ref().map(|m| int("max", m.to_string(), m.span())));
        out.extend(self.unit.as_ref().map(|u| string("unit", u.spelling(), u.span())));
        out.extend(self.format.as_ref().map(|f| string("format", f.spelling(), f.span())));
        out.extend(self.scale.as_ref().map(|s| int("scale", s.to_string(), s.span())));
        out.extend(self.shards.as_ref().map(|s| int("shards", s.to_string(), s.span())));
        out.extend(self.by.as_ref().map(|by| quote!(by = #by)));
        out.extend(self.random.map(|span| Ident::new("random", span).into_token_stream()));
        out
    }
}

impl SegmentInput {
    /// The enum's attributes and its variants'.
    pub(crate) fn parse(input: &DeriveInput) -> darling::Result<SegmentInput> {
        let owner = Owner::new("enum", &input.ident);
        let (mut rename_all, mut krate) = (None, None);
        let variants = owner.parse_enum(
            input,
            &mut [
                ("rename_all", &mut |n, m| owner.keyword(n, m).map(|v| rename_all = Some(v))),
                ("crate", &mut |n, m| owner.path(n, m).map(|v| krate = Some(v))),
            ],
            SegmentVariant::parse,
        )?;
        Ok(SegmentInput { ident: input.ident.clone(), variants, rename_all, krate })
    }
}

impl SegmentVariant {
    fn parse(variant: &syn::Variant) -> darling::Result<SegmentVariant> {
        let owner = Owner::new("variant", &variant.ident);
        let mut rename = None;
        let accepted: &mut [Accepted<'_>] = &mut [("rename", &mut |n, m| owner.string(n, m).map(|v| rename = Some(v)))];
        owner.parse(List::Attrs(&variant.attrs, "key"), accepted, None)?;
        let is_unit = matches!(variant.fields, Fields::Unit);
        Ok(SegmentVariant { ident: variant.ident.clone(), is_unit, rename })
    }
}

impl FamilyInput {
    /// The family's attributes and its variants'.
    pub(crate) fn parse(input: &DeriveInput) -> darling::Result<FamilyInput> {
        let owner = Owner::new("key family", &input.ident);
        let (mut separator, mut krate, mut legacy) = (None, None, Vec::new());
        let variants = owner.parse_enum(
            input,
            &mut [
                ("separator", &mut |n, m| owner.char(n, m).map(|v| separator = Some(v))),
                ("crate", &mut |n, m| owner.path(n, m).map(|v| krate = Some(v))),
                ("legacy", &mut |n, m| owner.path(n, m).map(|v| legacy.push(v))),
            ],
            FamilyVariant::parse,
        )?;
        Ok(FamilyInput { separator, krate, legacy, variants })
    }
}

impl FamilyVariant {
    fn parse(variant: &syn::Variant) -> darling::Result<FamilyVariant> {
        let owner = Owner::new("variant", &variant.ident);
        let mut prefix = None;
        let accepted: &mut [Accepted<'_>] = &mut [("prefix", &mut |n, m| owner.string(n, m).map(|v| prefix = Some(v)))];
        owner.parse(List::Attrs(&variant.attrs, "key"), accepted, None)?;
        Ok(FamilyVariant { ident: variant.ident.clone(), fields: variant.fields.clone(), prefix })
    }
}

/// What an attribute list is on, as messages name it: "field `score`", "the `pk` of entity
/// `Order`".
pub(crate) struct Owner {
    desc: String,
}

/// Where an attribute list is read from.
#[derive(Clone, Copy)]
pub(crate) enum List<'a, 'm> {
    /// Every `#[name(...)]` among an item's attributes.
    Attrs(&'a [Attribute], &'static str),
    /// The parenthesized list after a name inside another list: `pk(...)`.
    Nested(&'a ParseNestedMeta<'m>),
}

/// The attributes that may be written more than once, each adding one more: a key's `legacy`
/// layouts and an entity's `index(...)` lists. Any other name is refused at its second use.
const REPEATABLE: [&str; 2] = ["legacy", "index"];

/// What reads a list's items before its table does (an entity key's fields, which are the
/// names not followed by `=`): `None` for an item it does not take, which the table then reads.
pub(crate) type Open<'a> = &'a mut dyn FnMut(&ParseNestedMeta<'_>) -> Option<darling::Result<()>>;

impl Owner {
    /// `what `name``: "field `score`".
    pub(crate) fn new(what: &str, name: &impl std::fmt::Display) -> Owner {
        Owner { desc: format!("{what} `{name}`") }
    }

    /// An owner described by `desc` as it is.
    pub(crate) fn described(desc: String) -> Owner {
        Owner { desc }
    }

    /// How messages name the owner.
    pub(crate) fn desc(&self) -> &str {
        &self.desc
    }

    /// Reads every item of `list` with `open` if it takes it, or else with its entry in
    /// `accepted`, once per name; reports unknown and repeated names and every error an entry returns, all of them.
    pub(crate) fn parse(
        &self,
        list: List<'_, '_>,
        accepted: &mut [Accepted<'_>],
        mut open: Option<Open<'_>>,
    ) -> darling::Result<()> {
        let mut errors = darling::Error::accumulator();
        let mut seen: Vec<&'static str> = Vec::new();
        let mut item = |meta: ParseNestedMeta<'_>| {
            if let Some(result) = open.as_mut().and_then(|open| open(&meta)) {
                errors.handle(result);
                return Ok(());
            }
            let written = meta.path.get_ident().map(ToString::to_string).unwrap_or_else(|| path_text(&meta.path));
            match accepted.iter_mut().find(|(a, _)| *a == written) {
                None => {
                    let names: Vec<&'static str> = accepted.iter().map(|(a, _)| *a).collect();
                    errors.push(self.unknown(&written, &meta.path, &names));
                    skip_value(&meta)
                }
                Some((name, _)) if seen.contains(name) && !REPEATABLE.contains(name) => {
                    errors.push(self.error(name, "appears twice; expected it once".to_owned(), &meta.path));
                    skip_value(&meta)
                }
                Some((name, read)) => {
                    seen.push(name);
                    // An error in the value is reported; the rest of the list is still read.
                    if let Err(e) = read(name, &meta) {
                        errors.push(e);
                        skip_value(&meta)?;
                    }
                    Ok(())
                }
            }
        };
        // A list that does not parse at all (not `name = value` items) is reported too.
        let unreadable: Vec<syn::Error> = match list {
            List::Attrs(attrs, outer) => attrs
                .iter()
                .filter(|a| a.path().is_ident(outer))
                .filter_map(|attr| attr.parse_nested_meta(&mut item).err())
                .collect(),
            List::Nested(meta) => meta.parse_nested_meta(&mut item).err().into_iter().collect(),
        };
        for e in unreadable {
            errors.push(e.into());
        }
        errors.finish()
    }

    /// An enum's `#[key(...)]` with `accepted`, and each variant's with `variant`: the variants
    /// read, or every error of the enum and its variants.
    fn parse_enum<V>(
        &self,
        input: &DeriveInput,
        accepted: &mut [Accepted<'_>],
        variant: fn(&syn::Variant) -> darling::Result<V>,
    ) -> darling::Result<Vec<V>> {
        let mut errors = darling::Error::accumulator();
        errors.handle(self.parse(List::Attrs(&input.attrs, "key"), accepted, None));
        let variants = match &input.data {
            Data::Enum(e) => e.variants.iter().filter_map(|v| errors.handle(variant(v))).collect(),
            _ => Vec::new(),
        };
        errors.finish_with(variants)
    }

    /// `attribute `name` on field `score`: message`, at `span`.
    fn error(&self, name: &str, message: String, span: &impl Spanned) -> darling::Error {
        darling::Error::custom(format!("attribute `{name}` on {} {message}", self.desc)).with_span(&span.span())
    }

    /// `written` is none of the `accepted` names.
    pub(crate) fn unknown(&self, written: &str, path: &Path, accepted: &[&'static str]) -> darling::Error {
        let list: Vec<String> = accepted.iter().map(|a| format!("`{a}`")).collect();
        let expected = match list.as_slice() {
            [one] => one.clone(),
            _ => format!("one of {}", list.join(", ")),
        };
        let hint = closest(written, accepted).map(|a| format!(" (did you mean `{a}`?)")).unwrap_or_default();
        darling::Error::custom(format!("unknown attribute `{written}` on {}: expected {expected}{hint}", self.desc))
            .with_span(&path.span())
    }

    /// The literal after `name =`, which must exist.
    fn literal(
        &self,
        name: &str,
        meta: &ParseNestedMeta<'_>,
        kind: &str,
        example: &str,
    ) -> darling::Result<(Lit, Expr)> {
        if !meta.input.peek(Token![=]) {
            return Err(self.error(name, format!("needs a value, such as `{example}`; found none"), &meta.path));
        }
        let mut expr: Expr = meta.value().and_then(|v| v.parse()).map_err(darling::Error::from)?;
        // A literal passed through a `macro_rules!` fragment arrives in an invisible group.
        while let Expr::Group(group) = expr {
            expr = *group.expr;
        }
        match &expr {
            Expr::Lit(lit) => Ok((lit.lit.clone(), expr)),
            _ => Err(self.error(
                name,
                format!("expects {kind}, such as `{example}`; found `{}`, which is not a literal", expr_text(&expr)),
                &expr,
            )),
        }
    }

    /// `name = 10`: an integer literal of type `T`.
    pub(crate) fn int<T: std::str::FromStr>(
        &self,
        name: &str,
        meta: &ParseNestedMeta<'_>,
    ) -> darling::Result<SpannedValue<T>>
    where
        T::Err: std::fmt::Display,
    {
        let example = match name {
            "max_len" => "max_len = 2048",
            "max" => "max = 5000",
            "scale" => "scale = 2",
            "shards" => "shards = 16",
            _ => "width = 10",
        };
        match self.literal(name, meta, "an integer", example)? {
            (Lit::Int(i), _) => match i.base10_parse::<T>() {
                Ok(v) => Ok(SpannedValue::new(v, i.span())),
                Err(e) => Err(self.error(name, format!("expects an integer it can hold; found {} ({e})", i), &i)),
            },
            (lit, expr) => Err(self.error(
                name,
                format!("expects an integer, such as `{example}`; found {}", describe(&lit)),
                &expr,
            )),
        }
    }

    /// `name = "..."`: a string literal.
    pub(crate) fn string(&self, name: &str, meta: &ParseNestedMeta<'_>) -> darling::Result<SpannedValue<String>> {
        let example = match name {
            "prefix" => "prefix = \"RUN\"",
            "unit" => "unit = \"ms\"",
            "format" => "format = \"rfc3339\"",
            "rename_all" => "rename_all = \"snake_case\"",
            _ => "rename = \"done\"",
        };
        match self.literal(name, meta, "a string", example)? {
            (Lit::Str(s), _) => Ok(SpannedValue::new(s.value(), s.span())),
            (lit, expr) => {
                Err(self.error(name, format!("expects a string, such as `{example}`; found {}", describe(&lit)), &expr))
            }
        }
    }

    /// `name = "..."`: a string that spells one value of `K`.
    pub(crate) fn keyword<K: Keyword>(
        &self,
        name: &str,
        meta: &ParseNestedMeta<'_>,
    ) -> darling::Result<SpannedValue<K>> {
        let text = self.string(name, meta)?;
        match K::from_spelling(&text) {
            Some(value) => Ok(SpannedValue::new(value, text.span())),
            None => Err(darling::Error::custom(format!(
                "{}: {} must be one of {}; found {:?}",
                self.desc,
                K::WHAT,
                K::listed(),
                text.as_str()
            ))
            .with_span(&text.span())),
        }
    }

    /// `name = '|'`: a character literal.
    pub(crate) fn char(&self, name: &str, meta: &ParseNestedMeta<'_>) -> darling::Result<SpannedValue<char>> {
        let example = "separator = '|'";
        match self.literal(name, meta, "a char literal", example)? {
            (Lit::Char(c), _) => Ok(SpannedValue::new(c.value(), c.span())),
            (lit, expr) => Err(self.error(
                name,
                format!(
                    "expects one ASCII punctuation character written as a char literal, such as `{example}`; found {}",
                    describe(&lit)
                ),
                &expr,
            )),
        }
    }

    /// `desc`: a flag, with no value.
    pub(crate) fn flag(&self, name: &str, meta: &ParseNestedMeta<'_>) -> darling::Result<Span> {
        if meta.input.peek(Token![=]) {
            let expr: Expr = meta.value().and_then(|v| v.parse()).map_err(darling::Error::from)?;
            return Err(self.error(
                name,
                format!("is a flag: expected `{name}` alone, found `{name} = {}`", expr_text(&expr)),
                &expr,
            ));
        }
        Ok(meta.path.span())
    }

    /// `crate = path`: a path such as `::sortkey_core`.
    pub(crate) fn path(&self, name: &str, meta: &ParseNestedMeta<'_>) -> darling::Result<Path> {
        if !meta.input.peek(Token![=]) {
            let example = match name {
                "by" => "by = player_id",
                "legacy" => "legacy = RankKeyV1",
                _ => "crate = ::sortkey_core",
            };
            return Err(self.error(name, format!("needs a value, such as `{example}`; found none"), &meta.path));
        }
        let value = meta.value().map_err(darling::Error::from)?;
        if !value.peek(Lit) {
            return value.parse().map_err(darling::Error::from);
        }
        // A string holding a path is taken too, as serde's `crate = "..."` is.
        match value.parse().map_err(darling::Error::from)? {
            Lit::Str(s) => s.parse().map_err(|_| {
                self.error(name, format!("expects a path, such as `crate = ::sortkey_core`; found {}", s.token()), &s)
            }),
            lit => Err(self.error(
                name,
                format!("expects a path, such as `crate = ::sortkey_core`; found {}", describe(&lit)),
                &lit,
            )),
        }
    }
}

/// Consumes whatever value follows an attribute name (`= expr` or `(...)`), so that the rest of
/// the list can still be read.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        // Consumed whole: syn reports a list's unread tokens as an error of its own.
        let nested;
        syn::parenthesized!(nested in meta.input);
        nested.parse::<TokenStream>()?;
    }
    Ok(())
}

/// A literal as a message shows what was found: its kind and its text.
fn describe(lit: &Lit) -> String {
    let text = quote::ToTokens::to_token_stream(lit).to_string();
    match lit {
        Lit::Str(_) => format!("the string {text}"),
        Lit::Char(_) => format!("the character {text}"),
        Lit::Int(_) => format!("the integer {text}"),
        Lit::Float(_) => format!("the number {text}"),
        Lit::Bool(_) => format!("the boolean {text}"),
        _ => format!("`{text}`"),
    }
}

fn expr_text(expr: &Expr) -> String {
    quote::ToTokens::to_token_stream(expr).to_string()
}

pub(crate) fn path_text(path: &Path) -> String {
    quote::ToTokens::to_token_stream(path).to_string().replace(' ', "")
}

/// The accepted name nearest to `written`, if it is one or two edits away (Levenshtein, from
/// `strsim`, the crate darling's own suggestions use).
pub(crate) fn closest<'a>(written: &str, accepted: &[&'a str]) -> Option<&'a str> {
    accepted
        .iter()
        .map(|&a| (strsim::levenshtein(written, a), a))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_are_suggested() {
        let field = ["width", "desc", "max", "unit", "format", "scale", "shards", "by", "random"];
        assert_eq!(closest("widht", &field), Some("width"));
        assert_eq!(closest("prefx", &["prefix", "separator", "max_len"]), Some("prefix"));
        assert_eq!(closest("colour", &field), None);
    }
}
