//! The law over text, not only over types: layout texts made at random (tests/src/texts.rs:
//! every segment type, unit and format, options, enums, nested keys, a width given or left
//! out, `desc`, `max`, prefixes, separators) are held to what a key format promises, computed
//! on the values and not on the encoding:
//!
//! - the text reads back to the same layout and prints unchanged; the same text with every
//!   default width left out is the same layout, and writes and reads every key alike;
//! - a value is written, by the layout, its plan and the terse text alike, or refused alike; a
//!   written key decodes to the value (in the field's order, equal), encodes back to itself
//!   (canonical), and fits the role's length; a value a field's capacity holds is never refused
//!   for its range, and one it does not hold is;
//! - the keys sort as their values do, field by field, `desc` reversed;
//! - a key changed at random decodes or is refused, never a panic, and decodes only to a key
//!   that encodes back to it;
//! - a query's condition selects exactly the keys whose values satisfy the query, and a refused
//!   query (the empty range, a query of every key) is one no key, or every key, satisfies.
//!
//! tests/dyn_values.rs holds the same layouts to the derived code where a type exists.

use std::cmp::Ordering;

use proptest::prelude::*;
use sortkey_core::{Capacity, DynBody, DynField, DynLayout, DynValue, EncodeErrorKind, KeyRole, QueryErrorKind};
use sortkey_tests::texts::{Ask, asks, key_cmp, layout, terse, values};
use sortkey_tests::{Mutation, config, mutation};

/// The layout's fields.
fn fields(layout: &DynLayout) -> &[DynField] {
    let DynBody::Fields(fields) = &layout.key.body else { panic!("the generator makes keys of fields") };
    fields
}

/// Whether `value` of `field` is within what its capacity says the field holds (`true` for a
/// field without one).
fn within(field: &DynField, value: &DynValue) -> bool {
    let value = match value {
        DynValue::Option(None) => return true,
        DynValue::Option(Some(inner)) => inner,
        other => other,
    };
    match (field.capacity(), value) {
        (Some(Capacity::Unsigned { largest }), DynValue::Unsigned(v)) => *v <= largest,
        (Some(Capacity::Signed { least, largest }), DynValue::Signed(v)) => least <= *v && *v <= largest,
        (Some(Capacity::Timestamp { largest, unit, .. }), DynValue::Timestamp(t)) => {
            let nanos = t.duration_since(std::time::SystemTime::UNIX_EPOCH).map_or(u128::MAX, |d| d.as_nanos());
            nanos / unit.nanos() <= largest
        }
        _ => true,
    }
}

/// The text reads back, prints unchanged, and its terse form is the same layout.
fn text_law(layout: &DynLayout) -> Result<DynLayout, TestCaseError> {
    let text = layout.to_string();
    let parsed = DynLayout::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(&parsed, layout, "{}", text);
    prop_assert_eq!(parsed.to_string(), text.clone());
    let short = terse(layout);
    let terse = DynLayout::parse(&short).map_err(|e| TestCaseError::fail(format!("{short}: {e}")))?;
    prop_assert_eq!(&terse, layout, "{} / {}", short, text);
    prop_assert_eq!(terse.to_string(), short);
    Ok(terse)
}

/// Every value written and read by the layout, its plan and its terse text alike; the written
/// keys, with their values.
fn value_law(
    layout: &DynLayout,
    terse: &DynLayout,
    values: &[DynValue],
) -> Result<Vec<(String, DynValue)>, TestCaseError> {
    let plan = layout.plan();
    let mut written = Vec::new();
    for value in values {
        let by_layout = layout.encode(value);
        let by_plan = plan.encode(value);
        let by_terse = terse.encode(value);
        let key = match (&by_layout, &by_plan, &by_terse) {
            (Ok(a), Ok(b), Ok(c)) if a == b && b == c => a.clone(),
            (Err(a), Err(b), Err(c)) if (a.kind(), a.field()) == (b.kind(), b.field()) && b.kind() == c.kind() => {
                // Refused for its range only when a field's capacity does not hold the value.
                let range = matches!(
                    a.kind(),
                    EncodeErrorKind::TooWide { .. }
                        | EncodeErrorKind::AboveMax { .. }
                        | EncodeErrorKind::OutOfRange { .. }
                );
                let field = fields(layout).iter().find(|f| Some(f.name) == a.field());
                if let Some(field) = field.filter(|f| range && f.capacity().is_some()) {
                    let v = value.field(field.name).unwrap();
                    prop_assert!(
                        !within(field, v),
                        "{}: {:?} refused ({}) though its capacity holds it",
                        layout,
                        value,
                        a
                    );
                }
                continue;
            }
            _ => {
                return Err(TestCaseError::fail(format!(
                    "{layout}: {value:?}: {by_layout:?} / plan {by_plan:?} / terse {by_terse:?}"
                )));
            }
        };
        // No field is written beyond its capacity.
        prop_assert!(
            fields(layout).iter().all(|f| within(f, value.field(f.name).unwrap())),
            "{}: {:?} written as {:?}",
            layout,
            value,
            key
        );
        prop_assert!(!key.is_empty() && key.len() <= layout.max_len, "{:?}", key);
        let decoded = layout.decode(&key).map_err(|e| TestCaseError::fail(format!("{layout}: {key:?}: {e}")))?;
        prop_assert_eq!(plan.decode(&key), Ok(decoded.clone()));
        prop_assert_eq!(terse.decode(&key), Ok(decoded.clone()));
        prop_assert_eq!(
            key_cmp(fields(layout), &decoded, value),
            Some(Ordering::Equal),
            "{}: {:?} read as {:?}",
            key,
            value,
            decoded
        );
        prop_assert_eq!(layout.encode(&decoded), Ok(key.clone()));
        written.push((key, value.clone()));
    }
    Ok(written)
}

/// Keys sort as their values.
fn order_law(layout: &DynLayout, written: &[(String, DynValue)]) -> Result<(), TestCaseError> {
    for (a, x) in written {
        for (b, y) in written {
            let by_values = key_cmp(fields(layout), x, y);
            prop_assert_eq!(
                Some(a.as_bytes().cmp(b.as_bytes())),
                by_values,
                "{}: {:?} {:?} / {:?} {:?}",
                layout,
                a,
                x,
                b,
                y
            );
        }
    }
    Ok(())
}

/// Changed keys decode or are refused, never a panic; what decodes is canonical.
fn mutation_law(
    layout: &DynLayout,
    written: &[(String, DynValue)],
    mutations: &[Mutation],
) -> Result<(), TestCaseError> {
    let plan = layout.plan();
    for ((key, _), m) in written.iter().zip(mutations.iter().cycle()) {
        let Some(changed) = m.apply(key) else { continue };
        let decoded = layout.decode(&changed);
        prop_assert_eq!(&plan.decode(&changed), &decoded, "{:?}", changed);
        if let Ok(value) = decoded {
            prop_assert_eq!(
                layout.encode(&value),
                Ok(changed.clone()),
                "{}: {:?} read as {:?}",
                layout,
                changed,
                value
            );
        }
    }
    Ok(())
}

/// A query's condition selects exactly the keys whose values satisfy it.
fn query_law(
    layout: &DynLayout,
    terse: &DynLayout,
    written: &[(String, DynValue)],
    ask: &Ask,
) -> Result<(), TestCaseError> {
    let cond = ask.build(layout);
    let again = ask.build(terse);
    prop_assert_eq!(
        cond.as_ref().map_err(|e| (e.kind().clone(), e.field())),
        again.as_ref().map_err(|e| (e.kind().clone(), e.field())),
        "terse text"
    );
    let fields = fields(layout);
    match cond {
        Ok(cond) => {
            for v in cond.values() {
                prop_assert!(!v.is_empty() && v.len() <= layout.role.limit(), "{:?}", cond);
            }
            for (key, value) in written {
                prop_assert_eq!(
                    cond.matches(key),
                    ask.holds(fields, value),
                    "{}\n{:?}\n{}\nkey {:?} = {:?}",
                    layout,
                    ask,
                    cond,
                    key,
                    value
                );
            }
        }
        Err(e) => match e.kind() {
            QueryErrorKind::EmptyRange => {
                for (key, value) in written {
                    prop_assert!(
                        !ask.holds(fields, value),
                        "{}: {:?} refused ({}) but {:?} satisfies it",
                        layout,
                        ask,
                        e,
                        key
                    );
                }
            }
            QueryErrorKind::MatchesEverything => {
                for (key, value) in written {
                    prop_assert!(
                        ask.holds(fields, value),
                        "{}: {:?} refused ({}) but {:?} does not satisfy it",
                        layout,
                        ask,
                        e,
                        key
                    );
                }
            }
            QueryErrorKind::NotASortKey => prop_assert_eq!(layout.role, KeyRole::Partition),
            // A bound the field cannot hold, or a condition over the length limit.
            QueryErrorKind::Encode(_) => {}
            other => prop_assert!(false, "{}: {:?}: {:?} {}", layout, ask, other, e),
        },
    }
    Ok(())
}

/// A layout, values of it and changes to apply to their keys.
fn case() -> impl Strategy<Value = (DynLayout, Vec<DynValue>, Vec<Mutation>)> {
    layout().prop_flat_map(|layout| {
        let vs = values(&layout, 24);
        let ms = prop::collection::vec(mutation(layout.key.separator), 8);
        (Just(layout), vs, ms)
    })
}

/// A layout, values of it and queries on them.
fn query_case() -> impl Strategy<Value = (DynLayout, Vec<DynValue>, Vec<Ask>)> {
    layout().prop_flat_map(|layout| {
        values(&layout, 24).prop_flat_map(move |vs| {
            let queries = prop::collection::vec(asks(&layout, vs.clone()), 6);
            (Just(layout.clone()), Just(vs), queries)
        })
    })
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn generated_texts_write_read_and_sort_as_their_values((layout, values, mutations) in case()) {
        let terse = text_law(&layout)?;
        let written = value_law(&layout, &terse, &values)?;
        order_law(&layout, &written)?;
        mutation_law(&layout, &written, &mutations)?;
    }

    #[test]
    fn generated_texts_query_exactly_the_keys_their_values_select((layout, values, queries) in query_case()) {
        let terse = text_law(&layout)?;
        let written = value_law(&layout, &terse, &values)?;
        for ask in &queries {
            query_law(&layout, &terse, &written, ask)?;
        }
    }
}
