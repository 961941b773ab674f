//! The law of reads across layout versions, in memory: for generated migrations in progress
//! (tests/src/versions.rs), a condition on the current layout said on each live layout
//! (`LiveLayouts::enclosing_conditions`, what a typed read does) and each layout's keys selected
//! by bytes as DynamoDB would, merged, give exactly what the condition selects once every item
//! is in the current layout, in both directions; the same as the command's read by field names
//! (`LiveLayouts::conditions`). On moto, page by page: dynamodb/versions_law.rs. A module of
//! legacy.rs.

use proptest::prelude::*;
use sortkey_core::{FieldCondition, KeyCondition, LiveLayouts};
use sortkey_tests::config;
use sortkey_tests::versions::{VersionsCase, versions_case};

/// The keys each version's Query returns (every stored key its condition selects, in byte
/// order), merged: the current keys of the results.
fn read(live: &LiveLayouts<'_>, conditions: &[Option<KeyCondition>], keys: &[String], forward: bool) -> Vec<String> {
    let pages = conditions
        .iter()
        .map(|c| keys.iter().filter(|k| c.as_ref().is_some_and(|c| c.matches(k))).map(|k| (k.clone(), ())).collect())
        .collect();
    live.merge(conditions, pages, forward).results.into_iter().map(|r| r.current_key).collect()
}

fn check(case: &VersionsCase) -> Result<(), TestCaseError> {
    let layouts = case.layouts();
    prop_assume!(case.unambiguous(&layouts));
    let live = layouts.live();
    // A condition the current layout refuses or that selects nothing is no read.
    let Ok(Some(current)) = case.condition.on(&layouts.current) else { return Ok(()) };
    let keys = case.stored_keys(&layouts);
    let typed = live.enclosing_conditions(&current).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let by_fields = live.conditions(&case.condition).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for forward in [true, false] {
        let want = case.oracle(&layouts, &current, forward);
        prop_assert_eq!(read(&live, &typed, &keys, forward), want.clone(), "typed, forward {}: {:?}", forward, typed);
        prop_assert_eq!(read(&live, &by_fields, &keys, forward), want, "by fields, forward {}", forward);
    }
    // The enclosing field condition holds every key the typed one selects.
    let enclosing = FieldCondition::enclosing(&layouts.current, &current).expect("a layout of fields");
    let wider = enclosing.on(&layouts.current).map_err(|e| TestCaseError::fail(e.to_string()))?;
    for key in keys.iter().filter(|k| current.matches(k)) {
        prop_assert!(wider.as_ref().is_some_and(|w| w.matches(key)), "{:?} holds {}", enclosing, key);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn a_typed_condition_across_versions_selects_what_it_selects_after_the_migration(case in versions_case()) {
        check(&case)?;
    }
}
