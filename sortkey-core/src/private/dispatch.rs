//! Decoding a field through method resolution (autoref specialization), so that a field type
//! that is no segment at all is reported once, as "cannot be a segment", and not a second time
//! as "cannot be decoded".
//!
//! The generated code calls `(&&&Decode::<T>::NEW).decode(cursor, field)`. Method lookup takes
//! the first receiver, from `&&Decode<T>` down, whose impl applies:
//!
//! - `&&Decode<T>` when `T: DecodeSegment<'k>`: the real decode;
//! - `&Decode<T>` when `T` is a `KeySegment` only: its method requires `DecodeSegment`, so a
//!   type that implements one trait and not the other is an error here, as it must be;
//! - `Decode<T>` otherwise: a type that is no segment, for which the key's other uses of the
//!   type already report the one error; this method is never compiled into a program.

use core::marker::PhantomData;

use crate::encoding::cursor::Cursor;
use crate::encoding::segment::{DecodeSegment, KeySegment};
use crate::encoding::spec::Field;
use crate::error::DecodeError;

/// The field type `T`, as a receiver for method lookup.
pub struct Decode<T: ?Sized>(PhantomData<fn() -> PhantomData<T>>);

// `Copy` so that the last receiver, reached by dereferencing, can be taken by value.
impl<T: ?Sized> Clone for Decode<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Decode<T> {}

impl<T: ?Sized> Decode<T> {
    /// The receiver.
    pub const NEW: Self = Decode(PhantomData);
}

/// The real decode.
pub trait DecodeField<'k, T> {
    /// Decodes `T` at the cursor.
    fn decode(self, cursor: &mut Cursor<'k>, field: &Field) -> Result<T, DecodeError>;
}

impl<'k, T: DecodeSegment<'k>> DecodeField<'k, T> for &&Decode<T> {
    #[inline(always)]
    fn decode(self, cursor: &mut Cursor<'k>, field: &Field) -> Result<T, DecodeError> {
        T::decode_segment(cursor, field)
    }
}

/// A `KeySegment` that is no `DecodeSegment`: the bound on the method is the error.
pub trait DecodeOnlyEncodes<'k, T> {
    /// Requires `T: DecodeSegment<'k>`, which does not hold.
    fn decode(self, cursor: &mut Cursor<'k>, field: &Field) -> Result<T, DecodeError>
    where
        T: DecodeSegment<'k>;
}

impl<'k, T: KeySegment> DecodeOnlyEncodes<'k, T> for &Decode<T> {
    fn decode(self, cursor: &mut Cursor<'k>, field: &Field) -> Result<T, DecodeError>
    where
        T: DecodeSegment<'k>,
    {
        T::decode_segment(cursor, field)
    }
}

/// No segment at all: reported elsewhere, once.
pub trait DecodeNoSegment<'k, T> {
    /// Never runs: the crate does not compile.
    fn decode(self, cursor: &mut Cursor<'k>, field: &Field) -> Result<T, DecodeError>;
}

impl<'k, T> DecodeNoSegment<'k, T> for Decode<T> {
    fn decode(self, _: &mut Cursor<'k>, _: &Field) -> Result<T, DecodeError> {
        unreachable!("a field type that is no segment is a compile error of the key")
    }
}
