//! A layout compiled once into a flat plan ([`LayoutPlan`]): each field's spec (its width
//! resolved, whether it is the key's last segment), its type and name, the prefix and the
//! separator, worked out when the plan is made rather than on every key. The plan decodes and
//! encodes exactly as its layout does, the same keys, values and errors; a layout whose key is a
//! family or a hand-written key is run by the layout itself.

use crate::dynamic::decode::{decode_field, expect_key_prefix};
use crate::dynamic::encode::{in_layout_order, write_type};
use crate::dynamic::model::{DynBody, DynLayout, DynType};
use crate::dynamic::spec::{spec, whole_key};
use crate::dynamic::value::DynValue;
use crate::encoding::framing::{decode_start, encode_key, expect_separator, field_in};
use crate::encoding::spec::Field;
use crate::error::{DecodeError, EncodeError};

/// A [`DynLayout`] compiled for decoding and encoding many keys: make it once
/// ([`DynLayout::plan`]) and use it for every key. It is a copy: changing the layout afterwards
/// does not change the plan.
#[derive(Debug, Clone)]
pub struct LayoutPlan {
    layout: DynLayout,
    /// The key's segments, when it is a key of fields.
    fields: Option<Fields>,
}

#[derive(Debug, Clone)]
struct Fields {
    prefix: Option<String>,
    separator: char,
    /// The separator as text.
    between: String,
    steps: Vec<Step>,
}

/// One field, as the segment impls read and write it.
#[derive(Debug, Clone)]
struct Step {
    name: &'static str,
    ty: DynType,
    spec: Field,
}

impl DynLayout {
    /// This layout compiled into a flat plan, for decoding and encoding many keys.
    pub fn plan(&self) -> LayoutPlan {
        let fields = match &self.key.body {
            DynBody::Fields(fields) => {
                let whole = whole_key(self.name);
                let sep = self.key.separator;
                let steps = fields
                    .iter()
                    .enumerate()
                    .map(|(i, field)| {
                        let spec = spec(whole.key_name(), field, sep);
                        let spec = if i + 1 == fields.len() { field_in(spec, &whole) } else { spec };
                        Step { name: field.name, ty: field.ty.clone(), spec }
                    })
                    .collect();
                Some(Fields { prefix: self.key.prefix.clone(), separator: sep, between: sep.to_string(), steps })
            }
            DynBody::Family(_) | DynBody::Custom => None,
        };
        LayoutPlan { layout: self.clone(), fields }
    }
}

impl LayoutPlan {
    /// The layout the plan was made of.
    pub fn layout(&self) -> &DynLayout {
        &self.layout
    }

    /// [`DynLayout::decode`], by the plan.
    pub fn decode(&self, key: &str) -> Result<DynValue, DecodeError> {
        let Some(fields) = &self.fields else { return self.layout.decode(key) };
        let mut cursor = decode_start(key, self.layout.name, self.layout.max_len)?;
        if let Some(prefix) = &fields.prefix {
            expect_key_prefix(&mut cursor, prefix, fields.separator)?;
        }
        let steps = &fields.steps;
        let mut values = Vec::with_capacity(steps.len());
        for (i, step) in steps.iter().enumerate() {
            values.push((step.name, decode_field(&mut cursor, &step.ty, &step.spec)?));
            if i + 1 < steps.len() {
                expect_separator(&mut cursor, &fields.between, &step.spec)?;
            }
        }
        cursor.expect_end()?;
        Ok(DynValue::Key(values))
    }

    /// [`DynLayout::encode_into`], by the plan: a value with the layout's fields in its order
    /// (what a decode gives) is written by place; any other by the layout, with its checks.
    pub fn encode_into(&self, value: &DynValue, out: &mut String) -> Result<(), EncodeError> {
        let Some(fields) = &self.fields else { return self.layout.encode_into(value, out) };
        let steps = &fields.steps;
        let values = match value {
            DynValue::Key(values) if in_layout_order(values, steps.iter().map(|s| s.name)) => values,
            _ => return self.layout.encode_into(value, out),
        };
        encode_key(out, self.layout.name, self.layout.max_len, |out| {
            if let Some(prefix) = &fields.prefix {
                out.push_str(prefix);
                out.push(fields.separator);
            }
            for (i, (step, (_, value))) in steps.iter().zip(values).enumerate() {
                if i > 0 {
                    out.push(fields.separator);
                }
                write_type(value, &step.ty, &step.spec, out)?;
            }
            Ok(())
        })
    }

    /// [`DynLayout::encode`], by the plan.
    pub fn encode(&self, value: &DynValue) -> Result<String, EncodeError> {
        let mut out = String::new();
        self.encode_into(value, &mut out)?;
        Ok(out)
    }
}
