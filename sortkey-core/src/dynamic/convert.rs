//! A derived layout as a [`DynLayout`], with the facts its text shows (an effective width, a
//! `max` the width does not already imply, a unit or format only where the type takes one):
//! and so the one printer of the layout grammar, `Display` of `DynLayout`, prints `K::LAYOUT`
//! too. Parsing that text gives back the same `DynLayout`.

use std::fmt;

use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::spec::KEY_NAME;
use crate::encoding::layout::{Body, FieldLayout, Layout, SegmentLayout, VariantLayout};
use crate::encoding::spec::TimeFormat;

impl From<&Layout> for DynLayout {
    fn from(layout: &Layout) -> Self {
        DynLayout { name: KEY_NAME, role: layout.role, max_len: layout.max_len, key: key(layout) }
    }
}

impl fmt::Display for Layout {
    /// The layout's text, in the grammar the README documents (the printer of [`DynLayout`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DynLayout::from(self).fmt(f)
    }
}

/// The key part of a layout.
fn key(layout: &Layout) -> DynKey {
    let body = match layout.body {
        Body::Fields(fields) => DynBody::Fields(fields.iter().map(field).collect()),
        Body::Family(variants) => DynBody::Family(
            variants
                .iter()
                .map(|v| match v {
                    VariantLayout::Unit(lit) => DynVariant::Unit((*lit).to_owned()),
                    VariantLayout::Key(layout) => DynVariant::Key(key(layout)),
                })
                .collect(),
        ),
        Body::Opaque => DynBody::Custom,
    };
    DynKey { prefix: layout.prefix.map(str::to_owned), separator: layout.separator, body }
}

/// A field with the options its text shows.
fn field(layout: &FieldLayout) -> DynField {
    let spec = &layout.field;
    let ty = ty(&layout.segment);
    let inner = ty.innermost().clone();
    let width = if matches!(inner, DynType::Key(_)) { 0 } else { spec.width() };
    // A `max` the width already implies changes no byte, so it is no part of the layout.
    let capacity = 10u128.checked_pow(spec.width()).map(|p| p - 1);
    let max = spec.max().filter(|&m| spec.width() == 0 || capacity.is_none_or(|c| m < c));
    let time = matches!(inner, DynType::Timestamp).then(|| spec.time_format());
    DynField {
        name: spec.name(),
        ty,
        width,
        desc: spec.is_desc(),
        max,
        unit: time.map(TimeFormat::unit),
        rfc3339: matches!(time, Some(TimeFormat::Rfc3339(_))),
        hex: matches!(inner, DynType::Float(_)) && spec.is_hex(),
        scale: matches!(inner, DynType::Decimal).then(|| spec.scale()),
        shards: spec.shards(),
    }
}

fn ty(segment: &SegmentLayout) -> DynType {
    match segment {
        SegmentLayout::Unsigned(bits) => DynType::Unsigned(*bits),
        SegmentLayout::Signed(bits) => DynType::Signed(*bits),
        SegmentLayout::Float(bits) => DynType::Float(*bits),
        SegmentLayout::Option(inner) => DynType::Option(Box::new(ty(inner))),
        SegmentLayout::Enum(names) => DynType::Enum(names.iter().map(|n| (*n).to_owned()).collect()),
        SegmentLayout::Key(layout) => DynType::Key(key(layout)),
        // Every other type is one of the named ones, the same list on both sides.
        named => named.name().and_then(DynType::named).unwrap_or(DynType::Custom),
    }
}
