//! The messages of the type-dependent rules, written once: the macro reports them itself for
//! the types it knows (valid.rs) and as `const` assertions for the others (checks.rs).

/// `desc` on a type whose order cannot be reversed.
pub(crate) fn desc_not_reversible(field: &str, ty: &str) -> String {
    format!(
        "field `{field}`: `desc` needs a type whose order can be reversed (integers, bool, timestamps in Unix \
         time); found `{ty}`, which cannot (to read its keys newest or largest first, query in reverse, \
         ScanIndexForward = false, or put a desc number or timestamp before it)"
    )
}

/// `width` on a type whose segments have a length of their own.
pub(crate) fn width_not_applicable(field: &str, ty: &str, width: u32) -> String {
    format!(
        "field `{field}`: `width` does not apply to `{ty}`, whose segments have a length of their own; expected \
         no width, found width = {width}"
    )
}

/// `max` on a type that is no integer.
pub(crate) fn max_needs_integer(field: &str, ty: &str) -> String {
    format!("field `{field}`: `max` needs an integer type; found `{ty}`, expected no max")
}

/// `scale` on a type that is no fixed-point decimal.
pub(crate) fn scale_needs_decimal(field: &str, ty: &str) -> String {
    format!(
        "field `{field}`: `scale` needs a fixed-point decimal type (rust_decimal::Decimal, feature `rust_decimal`); \
         found `{ty}`. For minor units such as cents, store them as an integer (`price_cents: u64`) without scale"
    )
}

/// `format = "hex"` on a type that is no float.
pub(crate) fn hex_needs_float(field: &str, ty: &str) -> String {
    format!("field `{field}`: format = \"hex\" needs a float type (f32, f64, or an Option of one); found `{ty}`")
}

/// `unit` or `format = "rfc3339"` (`attr`) on a type that is no timestamp.
pub(crate) fn needs_timestamp(field: &str, attr: &str, ty: &str) -> String {
    format!(
        "field `{field}`: `{attr}` needs a timestamp type (std::time::SystemTime, chrono::DateTime<Utc>, \
         time::OffsetDateTime, or an Option of one); found `{ty}`"
    )
}

/// The method that ends a query at every stage of the builder (`begins_with()`): the builder also
/// names a method after each field, so no field can have this name.
pub(crate) const ENDS_EVERY_STAGE: &str = "begins_with";

/// A field named like the method that ends a query at every stage.
pub(crate) fn field_named_like_builder(field: &str) -> String {
    format!(
        "field `{field}`: the query builder fixes a field with a method of the field's name, and \
         `{ENDS_EVERY_STAGE}()` ends a query at every stage; expected another field name (`prefix`, say), \
         found `{ENDS_EVERY_STAGE}`"
    )
}

/// The method that ends a multi-attribute index's query at every stage (`condition()`): the
/// builder also names a method after each sort attribute, so no sort attribute can have this name.
pub(crate) const MULTI_ENDS_EVERY_STAGE: &str = "condition";

/// The methods of the `Entity` trait, which every entity has: an index's generated methods
/// (`<index>()`, `<index>_key()`) may not take these names, or the inherent method would shadow
/// the trait's. A unit test holds this list to the trait in sortkey-core.
pub(crate) const ENTITY_METHODS: [&str; 3] = ["primary_key", "key_attributes", "version"];

/// The inherent method every entity has besides the trait's: `query(&partition)`, the Query of
/// one partition of its table; no index may generate it.
pub(crate) const TABLE_QUERY: &str = "query";

/// A `width` wider than the field's type can fill; `expected` says how wide it may be.
pub(crate) fn width_too_wide(field: &str, width: u32, ty: &str, expected: &str) -> String {
    format!("field `{field}`: width {width} is wider than `{ty}` can fill; expected {expected}")
}

/// A `width` narrower than the field's type needs; `expected` says how narrow it may be.
pub(crate) fn width_too_narrow(field: &str, width: u32, ty: &str, expected: &str) -> String {
    format!("field `{field}`: width {width} is too narrow for `{ty}`; expected {expected}")
}

/// A `max` above the largest value of the field's type; `expected` names that value.
pub(crate) fn max_above_type(field: &str, max: u128, ty: &str, expected: &str) -> String {
    format!("field `{field}`: max = {max} is larger than any `{ty}`; expected at most {expected}")
}

/// A `max` of a signed type with more digits than its width holds after the sign position:
/// `width` when the field sets one, the type's default width otherwise.
pub(crate) fn signed_max_too_wide(field: &str, max: u128, ty: &str, width: Option<u32>) -> String {
    let digits = max.checked_ilog10().map_or(1, |d| d + 1);
    match width {
        Some(w) => format!(
            "field `{field}`: max = {max} needs {digits} digits, but width {w} of the signed `{ty}` holds {} after the \
             sign position; expected width = {} or a max of at most {}",
            w.saturating_sub(1),
            digits + 1,
            "9".repeat(w.saturating_sub(1) as usize)
        ),
        None => format!(
            "field `{field}`: max = {max} needs {digits} digits, more than the default width of `{ty}` holds; expected \
             a `width` that holds it"
        ),
    }
}

/// `by` or `random` on a field without `shards = N`.
pub(crate) fn shard_rule_alone(field: &str, attr: &str) -> String {
    format!(
        "field `{field}`: `{attr}` is the rule of a shard field and needs its count; expected `shards = N` beside it \
         (on a `u16` field of a partition key)"
    )
}

#[cfg(test)]
mod tests {
    /// Against the trait's source: a method added to `Entity` must be added here too.
    #[test]
    fn the_entity_methods_are_the_traits() {
        let source = include_str!("../../sortkey-core/src/table/entity.rs");
        let start = source.find("pub trait Entity").expect("the Entity trait");
        let end = start + source[start..].find("\n}").expect("its end");
        let mut methods: Vec<&str> =
            source[start..end].split("fn ").skip(1).filter_map(|rest| rest.split('(').next()).collect();
        methods.sort_unstable();
        let mut listed = super::ENTITY_METHODS.to_vec();
        listed.sort_unstable();
        assert_eq!(methods, listed);
    }
}
