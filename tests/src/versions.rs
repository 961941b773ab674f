//! Generated migrations in progress: a current layout and an older one of the same key (widths,
//! `desc`, field order and prefix drawn at random), a partition whose items are in either layout
//! or, mid-move, in both, and a condition by field names. What the law of reads across versions
//! is checked on: in memory (versions_law.rs) and page by page on moto (dynamodb/versions_law.rs).

use proptest::prelude::*;
use sortkey_core::query::Comparison;
use sortkey_core::{DynLayout, DynValue, FieldCondition, KeyCondition, LiveLayouts};

/// Where an item of a case is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// Under its key in the current layout.
    Current,
    /// Under its key in the older layout, not yet moved.
    Older,
    /// Under both: copied by a move whose delete is not done yet.
    Both,
}

/// A migration in progress and a read of it.
#[derive(Debug, Clone)]
pub struct VersionsCase {
    /// The current layout's text.
    pub current_text: String,
    /// The older layout's text.
    pub older_text: String,
    /// The items' values (fields `a`, `b`, `c`) and where each is stored.
    pub items: Vec<((u32, u32, String), Stored)>,
    /// The condition, by field names.
    pub condition: FieldCondition,
}

/// The two layouts of a case, parsed, current first.
pub struct Layouts {
    /// The current layout.
    pub current: DynLayout,
    /// The older one.
    pub older: DynLayout,
}

impl Layouts {
    /// The live layouts, current first, as the lock names them.
    pub fn live(&self) -> LiveLayouts<'_> {
        LiveLayouts::new(vec![("Key", &self.current), ("Key@v1", &self.older)])
    }
}

/// The value of fields `a`, `b`, `c`.
pub fn value((a, b, c): &(u32, u32, String)) -> DynValue {
    DynValue::Key(vec![
        ("a", DynValue::Unsigned(u128::from(*a))),
        ("b", DynValue::Unsigned(u128::from(*b))),
        ("c", DynValue::Text(c.clone())),
    ])
}

impl VersionsCase {
    /// The layouts, parsed.
    pub fn layouts(&self) -> Layouts {
        Layouts {
            current: DynLayout::parse(&self.current_text).expect("a current layout").named("Key"),
            older: DynLayout::parse(&self.older_text).expect("an older layout").named("Key@v1"),
        }
    }

    /// Every key stored, as the table holds them (a moved item's two copies both).
    pub fn stored_keys(&self, layouts: &Layouts) -> Vec<String> {
        let mut keys = Vec::new();
        for (fields, stored) in &self.items {
            let v = value(fields);
            if matches!(stored, Stored::Current | Stored::Both) {
                keys.push(layouts.current.encode(&v).expect("values fit the current layout"));
            }
            if matches!(stored, Stored::Older | Stored::Both) {
                keys.push(layouts.older.encode(&v).expect("values fit the older layout"));
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// Whether each stored key is read by the layout that wrote it alone: two layouts that read
    /// the same string cannot be told apart by any reader, and the lock is where that is seen.
    pub fn unambiguous(&self, layouts: &Layouts) -> bool {
        self.items.iter().all(|(fields, _)| {
            let v = value(fields);
            let (current, older) = (layouts.current.encode(&v).unwrap(), layouts.older.encode(&v).unwrap());
            layouts.older.decode(&current).is_err() && layouts.current.decode(&older).is_err()
        })
    }

    /// What the read returns once every item is in the current layout: the current key of each
    /// item `condition` (on the current layout) selects, once, in the read's direction.
    pub fn oracle(&self, layouts: &Layouts, condition: &KeyCondition, forward: bool) -> Vec<String> {
        let mut keys: Vec<String> = self
            .items
            .iter()
            .map(|(fields, _)| layouts.current.encode(&value(fields)).unwrap())
            .filter(|k| condition.matches(k))
            .collect();
        keys.sort();
        keys.dedup();
        if !forward {
            keys.reverse();
        }
        keys
    }
}

/// A field's text in a layout.
fn field(name: &str, width: u32, desc: bool) -> String {
    format!("{{{name}:u32 width={width}{}}}", if desc { " desc" } else { "" })
}

/// A generated case: values below 1000 fit every width drawn (3 to 6).
pub fn versions_case() -> impl Strategy<Value = VersionsCase> {
    let widths = (3u32..=6, 3u32..=6, any::<bool>(), any::<bool>());
    let older = (3u32..=6, 3u32..=6, any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>());
    let text = prop::collection::vec(prop::sample::select(vec!['x', 'y', 'z']), 0..3)
        .prop_map(|c| c.into_iter().collect::<String>());
    let fields = (0u32..60, 0u32..60, text);
    let stored = prop::sample::select(vec![Stored::Current, Stored::Older, Stored::Older, Stored::Both]);
    let items = prop::collection::vec((fields, stored), 1..30);
    (widths, older, items).prop_flat_map(|((wa, wb, da, db), (oa, ob, oda, odb, swapped, other_prefix), items)| {
        let current_text = format!("T#{}#{}#{{c:text}}", field("a", wa, da), field("b", wb, db));
        let (fa, fb) = (field("a", oa, oda), field("b", ob, odb));
        let prefix = if other_prefix { "S" } else { "T" };
        let older_text =
            if swapped { format!("{prefix}#{fb}#{fa}#{{c:text}}") } else { format!("{prefix}#{fa}#{fb}#{{c:text}}") };
        let values: Vec<(u32, u32, String)> = items.iter().map(|(f, _)| f.clone()).collect();
        condition(values).prop_map(move |condition| VersionsCase {
            current_text: current_text.clone(),
            older_text: older_text.clone(),
            items: items.clone(),
            condition,
        })
    })
}

/// A condition on fields `a`, `b`, `c` in their order, its values mostly those of `items`.
fn condition(items: Vec<(u32, u32, String)>) -> impl Strategy<Value = FieldCondition> {
    let item = prop::sample::select(items);
    let number = prop_oneof![3 => item.clone().prop_map(|i| i.0), 1 => 0u32..70];
    let op = prop::sample::select(vec![Comparison::Lt, Comparison::Le, Comparison::Gt, Comparison::Ge]);
    (item, number.clone(), number, op, 0..9usize).prop_map(|((a, b, c), x, y, op, shape)| {
        let n = |v: u32| DynValue::Unsigned(u128::from(v));
        let base = FieldCondition::new();
        match shape {
            0 => base,
            1 => base.compare("a", op, n(x)),
            2 => base.between("a", n(x.min(y)), n(x.max(y))),
            3 => base.fix("a", n(a)),
            4 => base.fix("a", n(a)).compare("b", op, n(y)),
            5 => base.fix("a", n(a)).between("b", n(x.min(y)), n(x.max(y))),
            6 => base.fix("a", n(a)).fix("b", n(b)),
            7 => base.fix("a", n(a)).fix("b", n(b)).text_begins_with("c", &c[..c.len().min(1)]),
            _ => base.fix("a", n(a)).fix("b", n(b)).fix("c", DynValue::Text(c)).eq(),
        }
    })
}
