//! Every field of a layout with its path, as tools list them: the fields of a nested key under
//! the nesting field's name (`inner.id`), a family variant's under its prefix (`ORDER.placed`).

use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};

impl DynLayout {
    /// Every field of the layout, in order, with its path (a `key(..)` field before the fields
    /// of its key): what `sortkey layouts` lists. The same paths name the entries of
    /// [`usage`](DynLayout::usage).
    pub fn field_paths(&self) -> Vec<(String, &DynField)> {
        let mut out = Vec::new();
        walk(&self.key, "", &mut out);
        out
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
}

fn walk<'a>(key: &'a DynKey, path: &str, out: &mut Vec<(String, &'a DynField)>) {
    match &key.body {
        DynBody::Fields(fields) => {
            for field in fields {
                let path = join(path, field.name);
                if let DynType::Key(inner) = field.ty.innermost() {
                    out.push((path.clone(), field));
                    walk(inner, &path, out);
                } else {
                    out.push((path, field));
                }
            }
        }
        DynBody::Family(variants) => {
            for variant in variants {
                if let DynVariant::Key(inner) = variant {
                    walk(inner, &join(path, inner.prefix.as_deref().unwrap_or_default()), out);
                }
            }
        }
        DynBody::Custom => {}
    }
}
