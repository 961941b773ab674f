//! The per-field contract: how one value becomes one segment of a key and back.

use crate::encoding::cursor::Cursor;
use crate::encoding::layout::SegmentLayout;
use crate::encoding::spec::{Field, Width};
use crate::error::{DecodeError, EncodeError};

/// A type that can be one segment of a sort key.
///
/// Implemented for the integers, `f32`, `f64`, `bool`, `char`, `String`, `&str`, `Cow<str>`, `SystemTime`,
/// `Option<T>` of a segment, every `#[derive(SortKey)]` key and `#[derive(KeySegment)]` enum,
/// and with the crate's features the `chrono`, `time`, `uuid` and `ulid` types. The associated
/// constants tell the derive what the type allows, so that a bad schema (`desc` on text, a
/// width the type cannot fill) is rejected at compile time, for type aliases and user types as
/// well.
///
/// # Your own segment type
///
/// Implement `encode_segment` here and `decode_segment` in [`DecodeSegment`]; the constants
/// have defaults (text of any length, no `desc`, no `max`). What an implementation must hold,
/// for the key to sort by its fields and decode back:
///
/// - byte order of the encodings is the order of the values;
/// - every string `encode_segment` writes is read back by `decode_segment` as the same value,
///   and `decode_segment` accepts nothing else (no second spelling of a value);
/// - an encoding whose length varies, in a field that is not the key's last
///   ([`Field::is_last`]), contains only characters greater than [`Field::separator`];
/// - with `WIDTH = Width::Fixed(n)`, every encoding is exactly `n` ASCII bytes.
///
/// Errors are made from the [`Field`] and the [`Cursor`] they are about, so they name the key
/// and the field; bad input is an error, never a panic.
///
/// ```
/// use sortkey_core::{
///     Cursor, DecodeError, DecodeErrorKind, DecodeSegment, EncodeError, EncodeErrorKind, Field,
///     KeySegment, SortKey, Width,
/// };
///
/// /// An ISO 3166 country code: two upper-case ASCII letters.
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// struct Country([u8; 2]);
///
/// impl KeySegment for Country {
///     const WIDTH: Width = Width::Fixed(2);
///
///     fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError> {
///         if !self.0.iter().all(u8::is_ascii_uppercase) {
///             let reason = format!("expected two upper-case letters, found {:?}", self.0);
///             return Err(field.encode_error(EncodeErrorKind::Invalid { reason: reason.into() }));
///         }
///         out.extend(self.0.iter().map(|&b| char::from(b)));
///         Ok(())
///     }
/// }
///
/// impl<'k> DecodeSegment<'k> for Country {
///     fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError> {
///         let start = cursor.position();
///         let text = cursor.take_ascii(2, field, "two upper-case letters")?;
///         match *text.as_bytes() {
///             [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => Ok(Country([a, b])),
///             _ => Err(cursor.error_at(start, field, DecodeErrorKind::InvalidText, "two upper-case letters", format!("{text:?}"))),
///         }
///     }
/// }
///
/// #[derive(SortKey, Debug, PartialEq)]
/// struct Store {
///     country: Country,
///     #[key(width = 4)]
///     number: u16,
/// }
///
/// let k = Store { country: Country(*b"DE"), number: 42 };
/// assert_eq!(k.encode().unwrap(), "DE#0042");
/// assert_eq!(Store::decode("DE#0042").unwrap(), k);
/// assert_eq!(Store::decode("de#0042").unwrap_err().kind(), DecodeErrorKind::InvalidText);
/// assert!(Store { country: Country(*b"d1"), number: 1 }.encode().is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a segment of a sort key",
    label = "this field's type does not implement `KeySegment`",
    note = "segments can be integers (u8..u128, i8..i128, usize, isize), f32, f64, bool, char, String, &str, Cow<str>, \
            SystemTime, Option<T> of a segment, a unit enum with `#[derive(KeySegment)]`, a key with \
            `#[derive(SortKey)]`, and with features chrono/time/uuid/ulid/rust_decimal their types",
    note = "to use `{Self}`: a key of yours nests with `#[derive(SortKey)]` on `{Self}`, an enum of names with \
            `#[derive(KeySegment)]` on it; a chrono, time, uuid, ulid or rust_decimal type needs sortkey-core's feature \
            of that name; any other type of yours implements `sortkey_core::KeySegment` and `DecodeSegment`"
)]
pub trait KeySegment {
    /// How many characters the segment takes: [`Width::Variable`] by default.
    const WIDTH: Width = Width::Variable;
    /// Whether `#[key(desc)]` can reverse the type's order; `false` by default. A type that
    /// says `true` must write encodings in reverse order when [`Field::is_desc`] is set.
    const REVERSIBLE: bool = false;
    /// The largest value, for types that accept `#[key(max = N)]` (and then must refuse values
    /// above [`Field::max`]); `None` by default.
    const MAX_VALUE: Option<u128> = None;
    /// What the type takes beyond `width`, `desc` and `max`, and what the derive checks of it
    /// when it is not the key's last field: see [`Capabilities`]. [`Capabilities::PLAIN`] by
    /// default.
    const CAPABILITIES: Capabilities = Capabilities::PLAIN;
    /// What the type writes, for layout descriptions ([`SortKey::LAYOUT`](crate::SortKey::LAYOUT)).
    /// [`SegmentLayout::Custom`] unless the type says more.
    const SEGMENT_LAYOUT: SegmentLayout = SegmentLayout::Custom;
    /// Whether encodings of the type differ in length even when [`WIDTH`](Self::WIDTH) is not
    /// [`Width::Variable`] (`Option<u32>`: `0` or `1` and 10 digits). By default exactly when
    /// `WIDTH` is variable.
    const VARIABLE_LEN: bool = matches!(Self::WIDTH, Width::Variable);

    /// Appends the segment for `self` to `out`.
    ///
    /// On error the caller restores `out`; an implementation need not.
    fn encode_segment(&self, field: &Field, out: &mut String) -> Result<(), EncodeError>;
}

/// Which of the field attributes that only some types take a segment type honours: the one fact
/// the derive needs to accept `#[key(unit = "ms")]` or `#[key(format = "hex")]` on a field of
/// the type, or to refuse it at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentOptions {
    /// None of them: `width`, `desc` and `max` only, as the type's other constants allow.
    Plain,
    /// A timestamp: `unit = "s" | "ms" | "us" | "ns"` and `format = "rfc3339"`, read with
    /// [`Field::time_format`].
    Time,
    /// A float: `format = "hex"`, read with [`Field::is_hex`].
    Float,
    /// A fixed-point decimal: `scale = N`, read with [`Field::scale`].
    Decimal,
}

/// What a segment type tells the derive beyond its width and order ([`KeySegment::CAPABILITIES`]):
/// the attributes it honours, and the facts of its encodings that the derive checks at compile
/// time when a field of the type is not the key's last.
///
/// A type that forwards to another (a reference, an `Option`, a wrapper) forwards this constant
/// as a whole. Built with `const` methods from [`Capabilities::PLAIN`]:
///
/// ```
/// use sortkey_core::{Capabilities, SegmentOptions};
///
/// const MINE: Capabilities = Capabilities::PLAIN.with_options(SegmentOptions::Time);
/// assert_eq!(MINE.options(), SegmentOptions::Time);
/// assert_eq!(MINE.least_byte(), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    options: SegmentOptions,
    least_byte: Option<u8>,
    nested_separator: Option<char>,
}

impl Capabilities {
    /// A type that takes no attribute beyond `width`, `desc` and `max`, with no compile-time
    /// fact about its bytes: the default.
    pub const PLAIN: Capabilities =
        Capabilities { options: SegmentOptions::Plain, least_byte: None, nested_separator: None };

    /// The same, honouring `options`.
    pub const fn with_options(mut self, options: SegmentOptions) -> Self {
        self.options = options;
        self
    }

    /// The same, for a type whose encodings differ in length and are all known at compile time
    /// (a unit enum's names), whose least byte is `byte`: a field of the type that is not the
    /// key's last must have it greater than the separator, or the derive rejects the key. Text,
    /// checked when it is encoded, and fixed widths leave it unset.
    pub const fn with_least_byte(mut self, byte: u8) -> Self {
        self.least_byte = Some(byte);
        self
    }

    /// The same, for a key type (`#[derive(SortKey)]`) whose segments are joined by
    /// `separator`: a key that has it as a field must use the same separator.
    pub const fn with_nested_separator(mut self, separator: char) -> Self {
        self.nested_separator = Some(separator);
        self
    }

    /// The attributes the type honours.
    pub const fn options(&self) -> SegmentOptions {
        self.options
    }

    /// The least byte of the type's encodings, when they are known at compile time.
    pub const fn least_byte(&self) -> Option<u8> {
        self.least_byte
    }

    /// The separator of a key type used as a segment, `None` for every other type.
    pub const fn nested_separator(&self) -> Option<char> {
        self.nested_separator
    }

    /// Whether the type takes `unit` and `format = "rfc3339"`.
    pub const fn takes_time(&self) -> bool {
        matches!(self.options, SegmentOptions::Time)
    }

    /// Whether the type takes `format = "hex"`.
    pub const fn takes_hex(&self) -> bool {
        matches!(self.options, SegmentOptions::Float)
    }

    /// Whether the type takes `scale = N`.
    pub const fn takes_scale(&self) -> bool {
        matches!(self.options, SegmentOptions::Decimal)
    }
}

/// A segment type that can be read back from a key borrowed for `'k`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded as a segment of a sort key",
    label = "this field's type does not implement `DecodeSegment`",
    note = "every `KeySegment` type of sortkey-core also implements `DecodeSegment`; for your own type implement both"
)]
///
/// Owned types implement it for every `'k`; `&'k str` and `Cow<'k, str>` borrow from the key.
pub trait DecodeSegment<'k>: KeySegment + Sized {
    /// Reads the segment at the cursor and moves the cursor past it.
    ///
    /// A non-final segment stops before the separator that follows it; the caller checks the separator.
    fn decode_segment(cursor: &mut Cursor<'k>, field: &Field) -> Result<Self, DecodeError>;
}

/// Test helpers of the segment modules: one segment on its own, encoded and decoded.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Cursor, DecodeSegment, Field, KeySegment};
    use crate::error::{DecodeError, EncodeError};

    /// `v` encoded as field `f`, alone.
    pub(crate) fn enc<T: KeySegment + ?Sized>(v: &T, f: Field) -> Result<String, EncodeError> {
        let mut s = String::new();
        v.encode_segment(&f, &mut s).map(|()| s)
    }

    /// `s` decoded as field `f`, which must take all of it.
    pub(crate) fn dec<T: for<'k> DecodeSegment<'k>>(s: &str, f: Field) -> Result<T, DecodeError> {
        let mut c = Cursor::new(s, "K");
        let v = T::decode_segment(&mut c, &f)?;
        c.expect_end()?;
        Ok(v)
    }
}
