//! The runtime's view of a layout's fields: the [`Field`] specs the segment impls read and
//! write by, built as the derive builds them, and the names their errors carry.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use crate::__private_0_1_0::{resolve_width, time_width};
use crate::dynamic::model::{DynBody, DynField, DynKey, DynLayout, DynType, DynVariant};
use crate::encoding::families::first_segment;
use crate::encoding::segment::KeySegment;
use crate::encoding::spec::{Field, TimeFormat, TimeUnit, Width};

/// The names a layout's errors carry, which the errors hold for the life of the program (as a
/// derived type's do): each distinct name is kept once, however many layouts name it.
pub(super) fn intern(name: &str) -> &'static str {
    static NAMES: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    let mut names = NAMES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match names.get(name) {
        Some(kept) => kept,
        None => {
            let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
            names.insert(kept);
            kept
        }
    }
}

/// The name of a layout's key type in its errors when it has no other (a layout read alone).
pub(super) const KEY_NAME: &str = "DynLayout";

/// The field a whole key of the layout named `key_name` is read and written as: the runtime's
/// `WHOLE_KEY`, its errors naming the layout.
pub(super) fn whole_key(key_name: &'static str) -> Field {
    Field::new(key_name, "", '#').with_last(true)
}

/// The runtime's field spec of a field of the layout named `key_name`, as the derive writes it:
/// its width resolved ([`DynField::effective_width`]).
pub(super) fn spec(key_name: &'static str, field: &DynField, separator: char) -> Field {
    Field::new(key_name, field.name, separator)
        .with_width(field.effective_width())
        .with_desc(field.desc)
        .with_max(field.max)
        .with_time(time_format(field))
        .with_hex(field.hex)
        .with_scale(field.scale.unwrap_or(0))
}

/// How a timestamp field is written: its unit (seconds when the text names none) and format.
pub(super) fn time_format(field: &DynField) -> TimeFormat {
    let unit = field.unit.unwrap_or(TimeUnit::Seconds);
    if field.rfc3339 { TimeFormat::Rfc3339(unit) } else { TimeFormat::Unix(unit) }
}

impl DynField {
    /// The width of the field's segment in every key, as the derive resolves it: the `width=N`
    /// the text writes, or else its type's default (`{n:u64}` is 20 digits wide, `{n:u8}` 3); a
    /// timestamp's default follows its unit (12, 15, 18 or 21 digits for s, ms, us, ns) and an
    /// RFC 3339 timestamp's length its unit alone (20, 24, 27 or 30 characters); a nested key's
    /// width is its fixed length. 0 for a field whose encodings differ in length (text), and for
    /// a type behind a feature of sortkey-core that is not enabled.
    pub fn effective_width(&self) -> u32 {
        let given = (self.width > 0).then_some(self.width);
        match self.ty.innermost() {
            DynType::Key(key) => fixed_len(key).unwrap_or(0),
            DynType::Timestamp => {
                resolve_width(segment_width(&DynType::Timestamp), time_width(given, time_format(self)))
            }
            ty => resolve_width(segment_width(ty), given),
        }
    }
}

/// The segment width of the runtime type `ty` stands for (its `KeySegment::WIDTH`).
fn segment_width(ty: &DynType) -> Width {
    fn of<T: KeySegment + ?Sized>() -> Width {
        T::WIDTH
    }
    match ty {
        DynType::Unsigned(8) => of::<u8>(),
        DynType::Unsigned(16) => of::<u16>(),
        DynType::Unsigned(32) => of::<u32>(),
        DynType::Unsigned(64) => of::<u64>(),
        DynType::Unsigned(128) => of::<u128>(),
        DynType::Unsigned(_) => of::<usize>(),
        DynType::Signed(8) => of::<i8>(),
        DynType::Signed(16) => of::<i16>(),
        DynType::Signed(32) => of::<i32>(),
        DynType::Signed(64) => of::<i64>(),
        DynType::Signed(128) => of::<i128>(),
        DynType::Signed(_) => of::<isize>(),
        DynType::Bool => of::<bool>(),
        DynType::Char => of::<char>(),
        DynType::Float(32) => of::<f32>(),
        DynType::Float(_) => of::<f64>(),
        DynType::Timestamp => of::<std::time::SystemTime>(),
        #[cfg(feature = "uuid")]
        DynType::Uuid => of::<uuid::Uuid>(),
        #[cfg(feature = "ulid")]
        DynType::Ulid => of::<ulid::Ulid>(),
        #[cfg(feature = "rust_decimal")]
        DynType::Decimal => of::<rust_decimal::Decimal>(),
        DynType::Option(inner) => segment_width(inner),
        _ => Width::Variable,
    }
}

/// The length of every encoding of `key`, when all its segments have a fixed width (as the
/// derived type's `ENCODED_LEN`).
pub(super) fn fixed_len(key: &DynKey) -> Option<u32> {
    let DynBody::Fields(fields) = &key.body else { return None };
    let prefix = key.prefix.as_ref().map_or(0, |p| p.len() as u32 + 1);
    let mut len = prefix + fields.len() as u32 - 1;
    for field in fields {
        len += match &field.ty {
            ty @ (DynType::Unsigned(_)
            | DynType::Signed(_)
            | DynType::Bool
            | DynType::Timestamp
            | DynType::Uuid
            | DynType::Ulid) => match segment_width(ty) {
                Width::Variable => return None,
                _ => field.effective_width(),
            },
            DynType::Key(inner) => fixed_len(inner)?,
            _ => return None,
        };
    }
    Some(len)
}

/// What a variant's keys start with: a unit's literal up to its first separator, or the key's
/// prefix.
pub(super) fn first(variant: &DynVariant, separator: char) -> &str {
    match variant {
        DynVariant::Unit(lit) => first_segment(lit, separator),
        DynVariant::Key(key) => key.prefix.as_deref().unwrap_or_default(),
    }
}

impl DynLayout {
    /// This layout, its errors naming the key `name` (kept for the life of the program, once per
    /// distinct name, as a derived type's name is).
    pub fn named(mut self, name: &str) -> Self {
        self.name = intern(name);
        self
    }
}
