//! Key families: `#[derive(SortKey)]` on an enum whose variants are key types (`Order(OrderKey)`)
//! or literals (`#[key(prefix = "PROFILE")] Profile`). The model and the rules the macro can see;
//! the rules that depend on the variants' key types are `const` assertions (family_expand.rs).
//!
//! A family partitions the key space by the first segment of its keys: every variant starts
//! with a literal, and no two variants' first segments are equal, so `begins_with(P + sep)` on
//! one variant never returns another variant's keys and decoding dispatches on that segment.

use darling::util::SpannedValue;
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, Path, Type};

use crate::attr::{FamilyInput, FamilyVariant};
use crate::keywords::RenameRule;
use crate::model::{DEFAULT_SEPARATOR, SORT_KEY_LIMIT};
use crate::valid::check_separator;

/// A key family that passed every check the macro can make.
pub(crate) struct Family {
    pub(crate) ident: Ident,
    pub(crate) vis: syn::Visibility,
    pub(crate) separator: char,
    pub(crate) krate: Path,
    /// `legacy = OldFamily`: older layouts it also reads, newest first.
    pub(crate) legacy: Vec<Path>,
    pub(crate) variants: Vec<Variant>,
}

/// One variant of a family.
pub(crate) struct Variant {
    pub(crate) ident: Ident,
    pub(crate) kind: VariantKind,
}

/// What a variant's keys are.
pub(crate) enum VariantKind {
    /// `Order(OrderKey)`: the keys of a key type, which starts with its own literal prefix.
    Key(Box<Type>),
    /// `#[key(prefix = "PROFILE")] Profile`: exactly one key, the literal.
    Unit(String),
}

impl Family {
    /// The family's name, as errors and messages show it.
    pub(crate) fn name(&self) -> String {
        self.ident.to_string()
    }

    /// Checks an enum deriving `SortKey` as a key family.
    pub(crate) fn from_input(input: &DeriveInput) -> darling::Result<Family> {
        let name = input.ident.to_string();
        let mut errors = darling::Error::accumulator();
        if let Some(param) = input.generics.params.first() {
            errors.push(
                darling::Error::custom(format!(
                    "key family `{name}` cannot have generic parameters: expected an enum whose variants name \
                     concrete key types, found a parameter"
                ))
                .with_span(param),
            );
        }
        let parsed = errors.handle(FamilyInput::parse(input));
        let Some(parsed) = parsed else { return Err(errors.finish().unwrap_err()) };
        if let Some(sep) = &parsed.separator {
            errors.handle(check_separator(&format!("key family `{name}`"), sep));
        }
        let separator = parsed.separator.as_ref().map_or(DEFAULT_SEPARATOR, |s| **s);
        if parsed.variants.is_empty() {
            let span = match &input.data {
                Data::Enum(e) => e.brace_token.span.join(),
                _ => input.ident.span(),
            };
            errors.push(
                darling::Error::custom(format!(
                    "key family `{name}` has no variants: expected at least one, such as `Order(OrderKey)` or \
                     `#[key(prefix = \"PROFILE\")] Profile`"
                ))
                .with_span(&span),
            );
        }
        let variants: Vec<Variant> =
            parsed.variants.into_iter().filter_map(|v| errors.handle(Variant::validate(&name, v))).collect();
        errors.handle(check_units_disjoint(&name, &variants, separator));
        check_methods(&name, &variants, &mut errors);
        errors.finish()?;
        Ok(Family {
            ident: input.ident.clone(),
            vis: input.vis.clone(),
            separator,
            krate: parsed.krate.unwrap_or_else(crate::runtime::default_crate),
            legacy: parsed.legacy,
            variants,
        })
    }
}

impl Variant {
    fn validate(family: &str, v: FamilyVariant) -> darling::Result<Variant> {
        let ident = v.ident;
        let at = |message: String, span: &dyn Spanned| {
            darling::Error::custom(format!("variant `{ident}` of key family `{family}`: {message}"))
                .with_span(&span.span())
        };
        match (v.fields, v.prefix) {
            (Fields::Unit, Some(prefix)) => check_literal(&prefix)
                .map_err(|m| at(m, &prefix.span()))
                .map(|()| Variant { ident: ident.clone(), kind: VariantKind::Unit(prefix.into_inner()) }),
            (Fields::Unit, None) => Err(at(
                "expected a literal key, `#[key(prefix = \"...\")]`, or a key type, `Variant(VariantKey)`; found a \
                 unit variant without a prefix (an enum of names is a field type: derive `KeySegment` instead)"
                    .to_owned(),
                &ident,
            )),
            (Fields::Unnamed(fields), prefix) if fields.unnamed.len() == 1 => match prefix {
                Some(prefix) => Err(at(
                    format!(
                        "`prefix` is for unit variants; the keys of `{}` start with that key type's own prefix: \
                         expected `#[key(prefix = {:?})]` on the key type, not on the variant",
                        crate::types::type_name(&fields.unnamed[0].ty),
                        prefix.as_str()
                    ),
                    &prefix.span(),
                )),
                None => {
                    Ok(Variant { ident: ident.clone(), kind: VariantKind::Key(Box::new(fields.unnamed[0].ty.clone())) })
                }
            },
            (fields, _) => Err(at(
                "expected one key type, `Variant(VariantKey)`, or a unit variant with `#[key(prefix = \"...\")]`; \
                 found other fields"
                    .to_owned(),
                &fields,
            )),
        }
    }

    /// The method of the family's query builder that continues with this variant: the
    /// variant's name in snake case.
    pub(crate) fn method(&self) -> Ident {
        let name = RenameRule::Snake.apply_to_variant(&self.ident.to_string());
        syn::parse_str::<Ident>(&name).unwrap_or_else(|_| Ident::new_raw(&name, self.ident.span()))
    }
}

/// Each variant is a method of the family's query builder, named in snake_case: two variants
/// whose names convert to one method are an error at the later one.
fn check_methods(family: &str, variants: &[Variant], errors: &mut darling::error::Accumulator) {
    for (i, v) in variants.iter().enumerate() {
        let method = v.method();
        if let Some(earlier) = variants[..i].iter().find(|e| e.method() == method) {
            errors.push(
                darling::Error::custom(format!(
                    "variant `{}` of key family `{family}` would name the query method `{method}`, as variant `{}` \
                     does; expected variant names that differ in more than underscores and case",
                    v.ident, earlier.ident
                ))
                .with_span(&v.ident),
            );
        }
    }
}

/// A unit variant's literal: not empty, no control characters, within a sort key's limit.
fn check_literal(prefix: &SpannedValue<String>) -> Result<(), String> {
    if prefix.is_empty() {
        return Err("prefix must not be empty: expected a literal such as \"PROFILE\"".to_owned());
    }
    if let Some(c) = prefix.chars().find(|c| c.is_control()) {
        return Err(format!(
            "prefix {:?} contains the control character U+{:04X}: expected printable text, which the decoder and a \
             person reading the table can tell apart",
            prefix.as_str(),
            c as u32
        ));
    }
    if prefix.len() > SORT_KEY_LIMIT {
        return Err(format!(
            "prefix is {} bytes long: expected at most {SORT_KEY_LIMIT}, DynamoDB's sort key limit",
            prefix.len()
        ));
    }
    Ok(())
}

/// The first segment of a literal: what tells the family's variants apart.
pub(crate) fn first_segment(literal: &str, separator: char) -> &str {
    literal.split(separator).next().unwrap_or(literal)
}

/// No two unit variants start with the same first segment; the pairs with a key type are
/// `const` assertions, as its prefix is a constant the macro cannot see.
fn check_units_disjoint(family: &str, variants: &[Variant], separator: char) -> darling::Result<()> {
    let mut errors = darling::Error::accumulator();
    for (i, later) in variants.iter().enumerate() {
        let VariantKind::Unit(b) = &later.kind else { continue };
        let earlier = variants[..i].iter().find_map(|v| match &v.kind {
            VariantKind::Unit(a) if first_segment(a, separator) == first_segment(b, separator) => Some((v, a)),
            _ => None,
        });
        if let Some((earlier, a)) = earlier {
            let (b_desc, a_desc) = (format!("{b:?}"), format!("{a:?}"));
            let first = Some(first_segment(b, separator));
            errors.push(
                darling::Error::custom(overlap_message(
                    family,
                    &later.ident,
                    &b_desc,
                    &earlier.ident,
                    &a_desc,
                    first,
                    separator,
                ))
                .with_span(&later.ident),
            );
        }
    }
    errors.finish()
}

/// Two variants whose keys begin with the same first segment (`first`, when the macro knows
/// it), `later` (keys described by `b`) after `earlier` (keys described by `a`).
pub(crate) fn overlap_message(
    family: &str,
    later: &Ident,
    b: &str,
    earlier: &Ident,
    a: &str,
    first: Option<&str>,
    separator: char,
) -> String {
    let first = first.map_or_else(|| "the same first segment".to_owned(), |f| format!("{f:?}"));
    format!(
        "variant `{later}` of key family `{family}`: its keys (from {b}) begin with {first}, as variant \
         `{earlier}`'s keys (from {a}) do, so a `begins_with` query for one would return the other's items and \
         a key could not be told apart; expected a first segment no other variant has (\"ORDER\" and \"ORDERS\" \
         may coexist, \"ORDER\" and \"ORDER{separator}ITEM\" may not)"
    )
}

/// The span errors about a variant's key type point at.
pub(crate) fn type_span(ty: &Type) -> Span {
    ty.span()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names_are_snake_case() {
        let snake = |name: &str| RenameRule::Snake.apply_to_variant(name);
        assert_eq!(snake("OrderItem"), "order_item");
        assert_eq!(snake("V2"), "v2");
        assert_eq!(snake("Profile"), "profile");
    }

    #[test]
    fn units_with_one_first_segment_are_refused() {
        let input: DeriveInput = syn::parse_quote! {
            enum F {
                #[key(prefix = "ORDER")]
                A,
                #[key(prefix = "ORDERS")]
                B,
                #[key(prefix = "ORDER#ITEM")]
                C,
            }
        };
        let err = Family::from_input(&input).err().expect("C overlaps A");
        let text = err.to_string();
        assert!(text.contains("variant `C`") && text.contains("variant `A`"), "{text}");
    }
}
