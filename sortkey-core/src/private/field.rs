//! A key's field type, named once: so that a field type that is no segment is one error.
//!
//! For each field whose type the macro does not know, the derive writes
//! `impl FieldSegment<I> for Key { type Segment = FieldType; }` and names the type's segment
//! constants and encoder as `Of::<Key, I>::WIDTH`, `Of::<Key, I>::encode_segment`, ... instead
//! of `<FieldType as KeySegment>::WIDTH`. The associated type's bound is checked once, at the
//! impl; the uses only need `Key: FieldSegment<I>`, which holds even when that impl is in error.
//! Naming the type directly, each of the nine uses would report the same error again (rustc
//! shows one, but counts nine, and an editor lists all of them).

use core::marker::PhantomData;

use crate::encoding::layout::SegmentLayout;
use crate::encoding::segment::{Capabilities, KeySegment};
use crate::encoding::spec::{Field, Width};
use crate::error::EncodeError;

/// Field `I` of the key `Self` has the segment type `Segment`.
pub trait FieldSegment<const I: usize> {
    /// The field's type.
    type Segment: KeySegment + ?Sized;
}

/// The segment facts of field `I` of the key `K`: `KeySegment`'s constants and encoder, through
/// [`FieldSegment`].
pub struct Of<K: ?Sized, const I: usize>(PhantomData<fn() -> PhantomData<K>>);

impl<K: FieldSegment<I> + ?Sized, const I: usize> Of<K, I> {
    /// [`KeySegment::WIDTH`].
    pub const WIDTH: Width = <K::Segment as KeySegment>::WIDTH;
    /// [`KeySegment::REVERSIBLE`].
    pub const REVERSIBLE: bool = <K::Segment as KeySegment>::REVERSIBLE;
    /// [`KeySegment::MAX_VALUE`].
    pub const MAX_VALUE: Option<u128> = <K::Segment as KeySegment>::MAX_VALUE;
    /// [`KeySegment::CAPABILITIES`].
    pub const CAPABILITIES: Capabilities = <K::Segment as KeySegment>::CAPABILITIES;
    /// [`KeySegment::SEGMENT_LAYOUT`].
    pub const SEGMENT_LAYOUT: SegmentLayout = <K::Segment as KeySegment>::SEGMENT_LAYOUT;
    /// [`KeySegment::VARIABLE_LEN`].
    pub const VARIABLE_LEN: bool = <K::Segment as KeySegment>::VARIABLE_LEN;

    /// [`KeySegment::encode_segment`].
    #[inline(always)]
    pub fn encode_segment(value: &K::Segment, field: &Field, out: &mut String) -> Result<(), EncodeError> {
        value.encode_segment(field, out)
    }
}
