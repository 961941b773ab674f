//! A layout with one field written otherwise: another width, `desc` on or off. What a change of
//! a key's layout would write for the keys a table holds, before anyone changes the type (the
//! web view's sort lab on a table), and the widened layouts the audit tells mixed widths by.

use std::fmt;

use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::dynamic::parse::LayoutParseError;

/// Why a layout cannot be reshaped as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReshapeError {
    /// The layout has no field at the path.
    NoField {
        /// The layout's name.
        layout: &'static str,
        /// The path asked for.
        path: String,
    },
    /// The reshaped layout breaks a rule of the grammar (a width its type cannot hold, `desc`
    /// on a field with no order to reverse): the parser's error of its text.
    Layout(LayoutParseError),
}

impl fmt::Display for ReshapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReshapeError::NoField { layout, path } => {
                write!(f, "`{layout}` has no field `{path}`; expected a path of its fields (`a.b` inside a key)")
            }
            ReshapeError::Layout(e) => write!(f, "the reshaped layout: {e}"),
        }
    }
}

impl std::error::Error for ReshapeError {}

impl DynLayout {
    /// The fields written as a width of digits (integers and Unix timestamps), by path, with
    /// that width: those a change of width concerns (a reshape, a mixed width in the audit).
    pub fn digit_fields(&self) -> Vec<(String, u32)> {
        self.field_paths()
            .into_iter()
            .filter(|(_, f)| {
                f.effective_width() > 0
                    && !f.rfc3339
                    && matches!(f.ty.innermost(), DynType::Unsigned(_) | DynType::Signed(_) | DynType::Timestamp)
            })
            .map(|(path, f)| (path, f.effective_width()))
            .collect()
    }

    /// This layout (same name and role) with the field at `path` written `width` digits wide
    /// and, with `desc`, in descending order: checked by the grammar's rules as if its text had
    /// been written so. The layout a `#[key(width = ..., desc)]` change would give the key.
    pub fn reshaped(&self, path: &str, width: u32, desc: bool) -> Result<DynLayout, ReshapeError> {
        let mut reshaped = self.clone();
        let field = field_mut(&mut reshaped.key, path)
            .ok_or_else(|| ReshapeError::NoField { layout: self.name, path: path.to_owned() })?;
        field.width = width;
        field.desc = desc;
        let checked = DynLayout::parse(&reshaped.to_string()).map_err(ReshapeError::Layout)?;
        Ok(checked.named(self.name))
    }
}

/// The field at `path` of `key` (`a.b` inside a nested key, `PREFIX.field` in a family's
/// variant); `None` when there is none.
pub(crate) fn field_mut<'k>(key: &'k mut DynKey, path: &str) -> Option<&'k mut DynField> {
    let (head, rest) = path.split_once('.').map_or((path, None), |(h, r)| (h, Some(r)));
    match &mut key.body {
        DynBody::Fields(fields) => {
            let field = fields.iter_mut().find(|f| f.name == head)?;
            let Some(rest) = rest else { return Some(field) };
            match &mut field.ty {
                DynType::Key(inner) => field_mut(inner, rest),
                DynType::Option(inner) => match inner.as_mut() {
                    DynType::Key(inner) => field_mut(inner, rest),
                    _ => None,
                },
                _ => None,
            }
        }
        DynBody::Family(variants) => {
            let rest = rest?;
            variants.iter_mut().find_map(|v| match v {
                DynVariant::Key(inner) if inner.prefix.as_deref() == Some(head) => field_mut(inner, rest),
                _ => None,
            })
        }
        DynBody::Custom => None,
    }
}
