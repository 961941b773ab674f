//! The rules the macro can check in the tokens, each reported with the span of the offending token.

use darling::util::SpannedValue;
use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericParam, Generics};

use crate::attr::{KeyField, KeyInput};
use crate::generics::Parameters;
use crate::keywords::FormatAttr;
use crate::messages::{self, ENDS_EVERY_STAGE};
use crate::model::{
    DEFAULT_SEPARATOR, Encoding, Field, Key, PARTITION_KEY_LIMIT, Role, SORT_KEY_LIMIT, ShardDecl, TimeFormat, TimeUnit,
};
use crate::types::{Builtin, BuiltinWidth, builtin, type_name};

/// The widest integer segment: `i128` needs a sign position and 39 digits.
const MAX_WIDTH: u32 = 40;
/// The most shards a key may have: sortkey-core's `Shards::MAX`.
const SHARDS_MAX: u16 = 1000;
/// The most fractional digits a `rust_decimal::Decimal` holds.
const MAX_SCALE: u32 = 28;
impl Key {
    /// Checks the input's shape and attributes.
    pub(crate) fn from_input(input: &DeriveInput) -> darling::Result<Key> {
        check_shape(input)?;
        // Struct attributes and every field are parsed apart, and all their errors reported.
        let parsed = KeyInput::parse(input).and_then(KeyInput::validate);
        let mut errors = darling::Error::accumulator();
        let fields: Vec<KeyField> = match &input.data {
            // `check_shape` admitted named fields (or none) only.
            Data::Struct(s) => s
                .fields
                .iter()
                .filter_map(|f| Some((f.ident.as_ref()?, f)))
                .filter_map(|(ident, f)| errors.handle(KeyField::parse(ident, f).and_then(KeyField::validate)))
                .collect(),
            _ => Vec::new(),
        };
        match (parsed, errors.finish()) {
            (Ok(parsed), Ok(())) => parsed.into_key(fields).check_shard_fields()?.check_float_positions(),
            (Ok(_), Err(field_errors)) => Err(field_errors),
            (Err(struct_errors), field_errors) => {
                Err(darling::Error::multiple(std::iter::once(struct_errors).chain(field_errors.err()).collect()))
            }
        }
    }

    /// A shard field is one field of a partition key.
    fn check_shard_fields(self) -> darling::Result<Key> {
        let mut sharded = self.fields.iter().filter_map(|f| Some((f, f.shards.as_ref()?)));
        let first = sharded.next();
        if let (Some((field, shards)), Role::Sort) = (first, &self.role) {
            return Err(darling::Error::custom(format!(
                "field `{}`: `shards` on sort key `{}`; a shard spreads one partition over {} partitions, so it is a \
                 field of the partition key; expected `#[key(partition)]` on `{}`, or the shard in the partition key",
                field.ident, self.ident, shards.count, self.ident
            ))
            .with_span(&shards.span));
        }
        if let Some((field, shards)) = sharded.next() {
            return Err(darling::Error::custom(format!(
                "field `{}`: a second shard field in `{}`; a key has one shard field, found `{}` before it",
                field.ident,
                self.ident,
                first.map(|(f, _)| f.ident.to_string()).unwrap_or_default()
            ))
            .with_span(&shards.span));
        }
        Ok(self)
    }

    /// A float in the readable form is a prefix of a longer one (1.5 of 1.55), so before another
    /// field the separator must sort below its digits. Checked here for types spelled as `f32`
    /// or `f64` (the const check of the least byte covers aliases); the hex form has a fixed width.
    fn check_float_positions(self) -> darling::Result<Key> {
        let mut errors = darling::Error::accumulator();
        let before_last = self.fields.len().saturating_sub(1);
        for field in self.fields.iter().take(before_last).filter(|f| !matches!(f.encoding, Encoding::Hex(_))) {
            if builtin(&field.ty).is_some_and(|b| b.float) && self.separator >= '0' {
                errors.push(
                    darling::Error::custom(format!(
                        "field `{}`: `{}` is not the last field, so its digits would be compared with the separator \
                         {:?} and the key would not sort by it; expected a separator below '0' such as '#' (the \
                         default), format = \"hex\" (fixed width), or this field last",
                        field.ident,
                        type_name(&field.ty),
                        self.separator
                    ))
                    .with_span(&field.ty),
                );
            }
        }
        errors.finish_with(self)
    }
}

/// `SortKey` needs a struct with named fields (or a unit struct with a prefix).
fn check_shape(input: &DeriveInput) -> darling::Result<()> {
    let name = &input.ident;
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Unnamed(fields) => Err(darling::Error::custom(format!(
                "`SortKey` cannot be derived for tuple struct `{name}`: expected named fields, \
                 whose names the errors and queries use, found a tuple struct"
            ))
            .with_span(fields)),
            _ => Ok(()),
        },
        Data::Enum(e) => Err(darling::Error::custom(format!(
            "`SortKey` cannot be derived for enum `{name}`: expected a struct with named fields, \
             found an enum (an enum can be a field of a key, not a key)"
        ))
        .with_span(&e.enum_token)),
        Data::Union(u) => Err(darling::Error::custom(format!(
            "`SortKey` cannot be derived for union `{name}`: expected a struct with named fields, found a union"
        ))
        .with_span(&u.union_token)),
    }
}

impl KeyInput {
    /// Struct-level rules: separator, prefix, `max_len`, lifetimes, at least one segment.
    pub(crate) fn validate(self) -> darling::Result<Self> {
        let mut errors = darling::Error::accumulator();
        let separator = self.separator.as_ref().map_or(DEFAULT_SEPARATOR, |s| **s);
        let name = self.ident.to_string();
        if let Some(sep) = &self.separator {
            errors.handle(check_separator(&format!("struct `{name}`"), sep));
        }
        if let Some(prefix) = &self.prefix {
            errors.handle(check_prefix(&name, prefix, separator));
        }
        if let Some(max_len) = &self.max_len {
            errors.handle(check_max_len(&name, max_len, self.partition.is_some()));
        }
        errors.handle(check_lifetimes(&self.generics));
        if self.no_fields && self.prefix.is_none() {
            errors.push(
                darling::Error::custom(format!(
                    "key `{}` would always be empty: expected at least one field or a `#[key(prefix = \"...\")]`",
                    self.ident
                ))
                .with_span(&self.ident),
            );
        }
        errors.finish_with(self)
    }

    fn into_key(self, fields: Vec<KeyField>) -> Key {
        let lifetime = self.generics.lifetimes().next().map(|l| l.lifetime.clone());
        let role = self.partition.map_or(Role::Sort, Role::Partition);
        Key {
            params: Parameters::new(&self.generics, lifetime.as_ref()),
            ident: self.ident,
            vis: self.vis,
            generics: self.generics,
            prefix: self.prefix.map(SpannedValue::into_inner),
            separator: self.separator.map_or(DEFAULT_SEPARATOR, SpannedValue::into_inner),
            max_len: self.max_len.map_or(role.limit(), SpannedValue::into_inner),
            role,
            krate: self.krate.unwrap_or_else(crate::runtime::default_crate),
            lifetime,
            fields: fields.into_iter().map(KeyField::into_field).collect(),
            legacy: self.legacy,
        }
    }
}

/// `owner` is what the separator is on, as messages name it: "struct `K`".
pub(crate) fn check_separator(owner: &str, sep: &SpannedValue<char>) -> darling::Result<()> {
    if sep.is_ascii_punctuation() {
        return Ok(());
    }
    Err(darling::Error::custom(format!(
        "{owner}: separator must be one ASCII punctuation character such as '#', '|' or '$', found {:?}",
        **sep
    ))
    .with_span(&sep.span()))
}

fn check_prefix(key: &str, prefix: &SpannedValue<String>, separator: char) -> darling::Result<()> {
    if prefix.is_empty() {
        return Err(darling::Error::custom(format!(
            "struct `{key}`: prefix must not be empty: expected a literal such as \"RUN\", or no prefix attribute",
        ))
        .with_span(&prefix.span()));
    }
    // The separator inside a prefix would put this type's keys inside another type's
    // `begins_with` region ("RUN#X#..." under "RUN#"); control characters cannot be told apart
    // when the key is read back by a person or a tool.
    match prefix.chars().find(|&c| c == separator || c.is_control()) {
        None => Ok(()),
        Some(c) => Err(darling::Error::custom(format!(
            "struct `{key}`: prefix {:?} contains {c:?} (U+{:04X}): expected a prefix without the separator \
             {separator:?} and without control characters, so that the decoder can take it back and \
             no other key type's keys fall under it{}",
            **prefix,
            c as u32,
            if c == separator {
                format!(
                    "; a prefix of two parts is a first field (a unit enum with `#[derive(KeySegment)]`, or a \
                     family variant), or write it `{}`",
                    prefix.replace(separator, "_")
                )
            } else {
                String::new()
            }
        ))
        .with_span(&prefix.span())),
    }
}

fn check_max_len(key: &str, max_len: &SpannedValue<usize>, partition: bool) -> darling::Result<()> {
    let message = match **max_len {
        0 => format!("struct `{key}`: max_len must be at least 1, found 0"),
        n if n > PARTITION_KEY_LIMIT => format!(
            "struct `{key}`: max_len must be at most {PARTITION_KEY_LIMIT} (DynamoDB's partition key limit; sort keys \
             allow {SORT_KEY_LIMIT}), found {n}"
        ),
        n if n > SORT_KEY_LIMIT && !partition => format!(
            "struct `{key}`: max_len {n} is over {SORT_KEY_LIMIT} bytes, DynamoDB's sort key limit; expected at most \
             {SORT_KEY_LIMIT} for a sort key, or `#[key(partition)]` to declare a partition key (at most \
             {PARTITION_KEY_LIMIT} bytes, compared with `=` only)"
        ),
        _ => return Ok(()),
    };
    Err(darling::Error::custom(message).with_span(&max_len.span()))
}

/// Decoded text borrows from the key for one lifetime; two would need two keys.
fn check_lifetimes(generics: &Generics) -> darling::Result<()> {
    let mut lifetimes = generics.params.iter().filter(|p| matches!(p, GenericParam::Lifetime(_)));
    lifetimes.next();
    match lifetimes.next() {
        None => Ok(()),
        Some(second) => Err(darling::Error::custom(
            "a key type may have at most one lifetime parameter, which decoded text borrows from the key for; \
             found a second one",
        )
        .with_span(second)),
    }
}

impl KeyField {
    /// Field-level rules, reported for every field at once.
    pub(crate) fn validate(self) -> darling::Result<Self> {
        let mut errors = darling::Error::accumulator();
        let name = self.ident.to_string();
        if self.ident.unraw() == ENDS_EVERY_STAGE {
            errors.push(darling::Error::custom(messages::field_named_like_builder(&name)).with_span(&self.ident));
        }
        // A bad width is one error, not a second one about the `max` it cannot hold.
        let width_ok = self.options.width.as_ref().map(|width| errors.handle(check_width(&name, width)).is_some());
        if let (Some(max), Some(width), Some(true)) = (&self.options.max, &self.options.width, width_ok) {
            errors.handle(check_max_digits(&name, max, **width));
        }
        if let Some(format) = &self.options.format {
            errors.handle(check_format(&name, format, self.options.width.as_ref(), self.options.desc));
        }
        errors.handle(self.check_one_kind(&name));
        errors.handle(self.check_shards(&name));
        if let Some(scale) = self.options.scale.as_ref().filter(|s| ***s > MAX_SCALE) {
            errors.push(
                darling::Error::custom(format!(
                    "field `{name}`: scale must be at most {MAX_SCALE}, the most fractional digits a `Decimal` holds; found {}",
                    **scale
                ))
                .with_span(&scale.span()),
            );
        }
        // For a type spelled as a built-in one the macro knows what the type allows; the
        // checks above passed, so what is left can only be about the type.
        errors.finish()?;
        match builtin(&self.ty) {
            Some(builtin) => self.check_builtin(&name, builtin).map(|()| self),
            None => Ok(self),
        }
    }

    /// `width`, `desc`, `max`, `unit` and `format` against what a built-in type allows, each a
    /// plain error at its attribute (the same rules the `const` assertions check for other types).
    fn check_builtin(&self, name: &str, b: Builtin) -> darling::Result<()> {
        let mut errors = darling::Error::accumulator();
        let ty = type_name(&self.ty);
        let error = |message: String, span: Span| darling::Error::custom(message).with_span(&span);
        if let Some(desc) = self.options.desc
            && !b.reversible
        {
            errors.push(error(messages::desc_not_reversible(name, &ty), desc));
        }
        let resolved = match (b.width, &self.options.width) {
            (BuiltinWidth::Fixed, Some(w)) => {
                errors.push(error(messages::width_not_applicable(name, &ty, **w), w.span()));
                None
            }
            (BuiltinWidth::Digits { max, .. }, Some(w)) if **w > max => {
                let expected = format!("at most {max}, the digits of its largest value{}", sign_note(b));
                errors.push(error(messages::width_too_wide(name, **w, &ty, &expected), w.span()));
                None
            }
            (BuiltinWidth::Digits { min, .. }, Some(w)) if **w < min => {
                let expected = format!("at least {min} (a sign position and one digit)");
                errors.push(error(messages::width_too_narrow(name, **w, &ty, &expected), w.span()));
                None
            }
            (BuiltinWidth::Digits { .. }, Some(w)) => Some(**w),
            (BuiltinWidth::Digits { max, .. }, None) => Some(max),
            (BuiltinWidth::Fixed, None) => None,
        };
        if let Some(m) = &self.options.max {
            match b.max_value {
                None => errors.push(error(messages::max_needs_integer(name, &ty), m.span())),
                Some(type_max) if **m > type_max => {
                    errors.push(error(messages::max_above_type(name, **m, &ty, &type_max.to_string()), m.span()));
                }
                Some(_) => {
                    let signed = matches!(b.width, BuiltinWidth::Digits { signed: true, .. });
                    if let Some(width) = resolved.filter(|_| signed) {
                        errors.handle(check_signed_max(name, m, width, &ty, self.options.width.is_some()));
                    }
                }
            }
        }
        if let Some(scale) = &self.options.scale {
            errors.push(error(messages::scale_needs_decimal(name, &ty), scale.span()));
        }
        if let Some(f) = self.format_is(FormatAttr::Hex).filter(|_| !b.float) {
            errors.push(error(messages::hex_needs_float(name, &ty), f.span()));
        }
        if !b.timestamp {
            let unit = self.options.unit.as_ref().map(|u| ("unit", u.span()));
            let rfc3339 = self.format_is(FormatAttr::Rfc3339).map(|f| ("format", f.span()));
            for (attr, span) in unit.into_iter().chain(rfc3339) {
                errors.push(error(messages::needs_timestamp(name, attr, &ty), span));
            }
        }
        errors.finish()
    }

    /// The `format` attribute, when it names `format`.
    fn format_is(&self, format: FormatAttr) -> Option<&SpannedValue<FormatAttr>> {
        self.options.format.as_ref().filter(|f| ***f == format)
    }

    fn into_field(self) -> Field {
        let time = time_of(self.options.unit.as_ref(), self.format_is(FormatAttr::Rfc3339));
        let hex = self.format_is(FormatAttr::Hex).map(SpannedValue::span);
        // The rules let through one kind at most (`check_one_kind`).
        let encoding = match (time, hex, &self.options.scale) {
            (Some((time, span)), _, _) => Encoding::Time(time, span),
            (None, Some(span), _) => Encoding::Hex(span),
            (None, None, Some(scale)) => Encoding::Scale(**scale, scale.span()),
            (None, None, None) => Encoding::Plain,
        };
        Field {
            ident: self.ident,
            ty: self.ty,
            width: self.options.width.map(|w| (*w, w.span())),
            desc: self.options.desc,
            max: self.options.max.map(|m| (*m, m.span())),
            encoding,
            // The rules let a count through with exactly one rule (`check_shards`).
            shards: self.options.shards.map(|count| ShardDecl {
                count: *count,
                by: self.options.by.as_ref().and_then(|p| p.get_ident().cloned()),
                span: count.span(),
            }),
        }
    }

    /// `shards = N` with `by = field` or `random`, on a `u16` and with no other attribute: the
    /// count sets the width and the largest value.
    fn check_shards(&self, name: &str) -> darling::Result<()> {
        let o = &self.options;
        let error = |message: String, span: Span| Err(darling::Error::custom(message).with_span(&span));
        let Some(count) = &o.shards else {
            if let Some(by) = &o.by {
                return error(messages::shard_rule_alone(name, "by"), by.span());
            }
            if let Some(random) = o.random {
                return error(messages::shard_rule_alone(name, "random"), random);
            }
            return Ok(());
        };
        if **count == 0 || **count > SHARDS_MAX {
            return error(
                format!("field `{name}`: a key has 1 to {SHARDS_MAX} shards; found shards = {}", **count),
                count.span(),
            );
        }
        match (&o.by, o.random) {
            (Some(_), Some(random)) => {
                return error(
                    format!(
                        "field `{name}`: a shard is calculated `by` a field or chosen at `random`, not both; expected one of them"
                    ),
                    random,
                );
            }
            (None, None) => {
                return error(
                    format!(
                        "field `{name}`: `shards = {}` needs its rule: expected `by = field` (the sort key's field the \
                         shard is calculated from, so a point read knows it) or `random` (append-only data, read merged)",
                        **count
                    ),
                    count.span(),
                );
            }
            (Some(by), None) if by.get_ident().is_none() => {
                return error(
                    format!(
                        "field `{name}`: `by` names a field of the sort key, such as `by = player_id`; found a path"
                    ),
                    by.span(),
                );
            }
            _ => {}
        }
        let width = match **count - 1 {
            0..=9 => 1,
            10..=99 => 2,
            100..=999 => 3,
            _ => 4,
        };
        let others = [
            o.width.as_ref().map(|w| ("width", w.span())),
            o.max.as_ref().map(|m| ("max", m.span())),
            o.desc.map(|d| ("desc", d)),
            o.unit.as_ref().map(|u| ("unit", u.span())),
            o.format.as_ref().map(|f| ("format", f.span())),
            o.scale.as_ref().map(|s| ("scale", s.span())),
        ];
        if let Some((attr, span)) = others.into_iter().flatten().next() {
            return error(
                format!(
                    "field `{name}`: `{attr}` on a shard field; its count sets it ({} shards are written in {width} \
                     digit{}, 0 to {}, ascending); expected `shards = {}` and its rule alone",
                    **count,
                    if width == 1 { "" } else { "s" },
                    **count - 1,
                    **count
                ),
                span,
            );
        }
        if builtin(&self.ty) != Some(Builtin::U16) {
            return error(
                format!("field `{name}`: a shard field is a `u16`; found `{}`", type_name(&self.ty)),
                self.ty.span(),
            );
        }
        Ok(())
    }

    /// A field takes the attributes of one kind of type: a timestamp's `unit` and
    /// `format = "rfc3339"`, a float's `format = "hex"`, or a decimal's `scale`. The second kind
    /// is an error at its attribute, naming both.
    fn check_one_kind(&self, name: &str) -> darling::Result<()> {
        let time = self
            .options
            .unit
            .as_ref()
            .map(|u| ("unit", u.span()))
            .or(self.format_is(FormatAttr::Rfc3339).map(|f| ("format = \"rfc3339\"", f.span())));
        let hex = self.format_is(FormatAttr::Hex).map(|f| ("format = \"hex\"", f.span()));
        let scale = self.options.scale.as_ref().map(|s| ("scale", s.span()));
        let mut kinds = [time, hex, scale].into_iter().flatten();
        let (Some((first, _)), Some((second, span))) = (kinds.next(), kinds.next()) else { return Ok(()) };
        Err(darling::Error::custom(format!(
            "field `{name}`: `{second}` cannot be combined with `{first}`: `unit` and `format = \"rfc3339\"` are a \
             timestamp's, `format = \"hex\"` a float's, `scale` a decimal's; expected the attributes of one kind of \
             type"
        ))
        .with_span(&span))
    }
}

/// The timestamp attributes, once validated, with the span of the first of them.
fn time_of(
    unit: Option<&SpannedValue<TimeUnit>>,
    format: Option<&SpannedValue<FormatAttr>>,
) -> Option<(TimeFormat, Span)> {
    let span = unit.map(SpannedValue::span).or(format.map(SpannedValue::span))?;
    let unit = unit.map_or(TimeUnit::Seconds, |u| **u);
    let format = if format.is_some() { TimeFormat::Rfc3339(unit) } else { TimeFormat::Unix(unit) };
    Some((format, span))
}

/// `format = "rfc3339"` is fixed-width text: no `width`, no `desc`.
fn check_format(
    name: &str,
    format: &SpannedValue<FormatAttr>,
    width: Option<&SpannedValue<u32>>,
    desc: Option<Span>,
) -> darling::Result<()> {
    if **format == FormatAttr::Hex {
        return match width {
            Some(width) => Err(darling::Error::custom(format!(
                "field `{name}`: `width` does not apply to format = \"hex\", whose length follows from the type \
                 (16 digits for f64, 8 for f32); expected no width, found width = {}",
                **width
            ))
            .with_span(&width.span())),
            None => Ok(()),
        };
    }
    let mut errors = darling::Error::accumulator();
    if let Some(width) = width {
        errors.push(
            darling::Error::custom(format!(
                "field `{name}`: `width` does not apply to format = \"rfc3339\", whose length follows from the unit; \
                 expected no width, found width = {}",
                **width
            ))
            .with_span(&width.span()),
        );
    }
    if let Some(desc) = desc {
        errors.push(
            darling::Error::custom(format!(
                "field `{name}`: `desc` cannot reverse format = \"rfc3339\" text; expected Unix time (no format) \
                 for a descending timestamp"
            ))
            .with_span(&desc),
        );
    }
    errors.finish()
}

fn check_width(name: &str, width: &SpannedValue<u32>) -> darling::Result<()> {
    let message = match **width {
        0 => format!("field `{name}`: width must be at least 1, found 0"),
        w if w > MAX_WIDTH => {
            format!("field `{name}`: width must be at most {MAX_WIDTH} (i128 needs a sign and 39 digits), found {w}")
        }
        _ => return Ok(()),
    };
    Err(darling::Error::custom(message).with_span(&width.span()))
}

/// Why a width is capped, for a signed type: its sign position.
fn sign_note(b: Builtin) -> &'static str {
    match b.width {
        BuiltinWidth::Digits { signed: true, .. } => " and a sign position",
        _ => "",
    }
}

/// A signed type's width holds `width - 1` digits after its sign position; `max` must fit them.
fn check_signed_max(name: &str, max: &SpannedValue<u128>, width: u32, ty: &str, given: bool) -> darling::Result<()> {
    let digits = max.checked_ilog10().map_or(1, |d| d + 1);
    if digits < width {
        return Ok(());
    }
    let message = messages::signed_max_too_wide(name, **max, ty, given.then_some(width));
    Err(darling::Error::custom(message).with_span(&max.span()))
}

/// `max` needs `digits(max)` positions, whatever the type; signed types need one more (checked in `const`).
fn check_max_digits(name: &str, max: &SpannedValue<u128>, width: u32) -> darling::Result<()> {
    let digits = max.checked_ilog10().map_or(1, |d| d + 1);
    if digits <= width {
        return Ok(());
    }
    Err(darling::Error::custom(format!(
        "field `{name}`: max = {} needs {digits} digits, expected a max that fits width {width} (at most {})",
        **max,
        "9".repeat(width as usize)
    ))
    .with_span(&max.span()))
}
