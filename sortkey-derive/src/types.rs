//! What the derive can tell from a field's type as written: text, a built-in segment type,
//! and the type's name for messages. A type alias is none of these, and gets every check.

use quote::quote;
use syn::Type;

/// Whether the builder takes `&str` for this field and whose range offers `begins_with`.
///
/// Decided by the type as written (`String`, `&str`, `Cow<str>`); an alias of `String` is
/// queried with its own type instead.
pub(crate) fn is_text(ty: &Type) -> bool {
    match ty {
        Type::Reference(r) => matches!(&*r.elem, Type::Path(p) if p.path.is_ident("str")),
        Type::Path(p) => {
            p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "String" || s.ident == "Cow")
        }
        _ => false,
    }
}

/// `T` of a type written `Option<T>` (or `std::option::Option<T>`).
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `ty` is written `String` (or `std::string::String`): a multi-attribute key's
/// attribute of it is a string, so it has `begins_with`.
pub(crate) fn is_string(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "String"))
}

/// Whether `ty` is spelled as one of the runtime's own segment types: a [`builtin`] one, or
/// `usize`/`isize` (whose width the macro leaves to the const checks). None of them is a nested
/// key or an enum, so the checks of those cannot fail for it. A type alias is not built-in,
/// and keeps every check.
pub(crate) fn is_builtin(ty: &Type) -> bool {
    let pointer_sized =
        matches!(ty, Type::Path(p) if p.qself.is_none() && (p.path.is_ident("usize") || p.path.is_ident("isize")));
    pointer_sized || builtin(ty).is_some()
}

/// What the runtime's segment impl of a built-in type says of it, known to the macro so that
/// a wrong `width`, `desc`, `max`, `unit` or `format` on such a field is an ordinary error at the
/// attribute, not a `const` evaluation failure. The values are the impls' constants
/// (sortkey-core `impls/`), which the const assertions check for every other type; the test
/// below compares the two for every built-in type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Builtin {
    pub(crate) width: BuiltinWidth,
    pub(crate) reversible: bool,
    pub(crate) max_value: Option<u128>,
    pub(crate) timestamp: bool,
    pub(crate) float: bool,
}

impl Builtin {
    /// `u16`'s: the type of a shard field.
    pub(crate) const U16: Builtin = Builtin::int(5, false, u16::MAX as u128);

    /// An integer's: `digits` at most, a sign position first when `signed`, up to `max`.
    const fn int(digits: u32, signed: bool, max: u128) -> Builtin {
        let width = BuiltinWidth::Digits { min: if signed { 2 } else { 1 }, max: digits, signed };
        Builtin { width, reversible: true, max_value: Some(max), timestamp: false, float: false }
    }
}

/// [`Builtin`]'s `Width`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuiltinWidth {
    /// Digits, `min..=max` of them; a sign position first when `signed`.
    Digits { min: u32, max: u32, signed: bool },
    /// A length of its own (`bool`, text).
    Fixed,
}

/// The built-in segment type `ty` is spelled as: the integers but `usize` and `isize` (whose
/// width depends on the target, which the macro does not know), `f32`, `f64`, `bool`, `char`, `String`,
/// `&str`, `Cow<str>`, `SystemTime`, and `Option` of any of them. `None` for anything else,
/// which keeps its `const` assertions.
pub(crate) fn builtin(ty: &Type) -> Option<Builtin> {
    if is_text(ty) {
        return Some(Builtin {
            width: BuiltinWidth::Fixed,
            reversible: false,
            max_value: None,
            timestamp: false,
            float: false,
        });
    }
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last().filter(|_| p.qself.is_none())?;
    let single = p.path.segments.len() == 1 && last.arguments.is_empty();
    let int = |digits: u32, signed: bool, max: u128| Some(Builtin::int(digits, signed, max));
    match last.ident.to_string().as_str() {
        "u8" if single => int(3, false, u8::MAX.into()),
        "u16" if single => Some(Builtin::U16),
        "u32" if single => int(10, false, u32::MAX.into()),
        "u64" if single => int(20, false, u64::MAX.into()),
        "u128" if single => int(39, false, u128::MAX),
        "i8" if single => int(4, true, i8::MAX as u128),
        "i16" if single => int(6, true, i16::MAX as u128),
        "i32" if single => int(11, true, i32::MAX as u128),
        "i64" if single => int(20, true, i64::MAX as u128),
        "i128" if single => int(40, true, i128::MAX as u128),
        "f32" | "f64" if single => Some(Builtin {
            width: BuiltinWidth::Fixed,
            reversible: true,
            max_value: None,
            timestamp: false,
            float: true,
        }),
        "bool" if single => Some(Builtin {
            width: BuiltinWidth::Fixed,
            reversible: true,
            max_value: None,
            timestamp: false,
            float: false,
        }),
        "char" if single => Some(Builtin {
            width: BuiltinWidth::Fixed,
            reversible: false,
            max_value: None,
            timestamp: false,
            float: false,
        }),
        "SystemTime" if last.arguments.is_empty() => {
            let width = BuiltinWidth::Digits { min: 1, max: 40, signed: false };
            Some(Builtin { width, reversible: true, max_value: None, timestamp: true, float: false })
        }
        "Option" => {
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
            let [syn::GenericArgument::Type(inner)] = args.args.iter().collect::<Vec<_>>()[..] else { return None };
            // `None` stays first either way, so an `Option` cannot be reversed.
            builtin(inner).map(|b| Builtin { reversible: false, ..b })
        }
        _ => None,
    }
}

/// A type as written, for messages.
pub(crate) fn type_name(ty: &Type) -> String {
    quote!(#ty).to_string().replace(" < ", "<").replace(" >", ">").replace("& ", "&").replace(" ,", ",")
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    #[test]
    fn option_fields_are_found() {
        use super::option_inner;
        let ty: syn::Type = syn::parse_quote!(Option<String>);
        assert!(option_inner(&ty).is_some());
        let ty: syn::Type = syn::parse_quote!(std::option::Option<u64>);
        assert!(option_inner(&ty).is_some());
        let ty: syn::Type = syn::parse_quote!(Vec<u8>);
        assert!(option_inner(&ty).is_none());
    }
    use std::time::SystemTime;

    use sortkey_core::{KeySegment, Width};

    use super::*;

    /// What the runtime's impl of `T` says, in the macro's terms.
    fn runtime<T: KeySegment + ?Sized>() -> Builtin {
        let width = match T::WIDTH {
            Width::Digits { min, max, signed, .. } => BuiltinWidth::Digits { min, max, signed },
            Width::Fixed(_) | Width::Variable => BuiltinWidth::Fixed,
        };
        Builtin {
            width,
            reversible: T::REVERSIBLE,
            max_value: T::MAX_VALUE,
            timestamp: T::CAPABILITIES.takes_time(),
            float: T::CAPABILITIES.takes_hex(),
        }
    }

    macro_rules! agree {
        ($($ty:ty),* $(,)?) => {$(
            let ty: Type = syn::parse_quote!($ty);
            assert_eq!(builtin(&ty), Some(runtime::<$ty>()), "the macro's table and the runtime's impl of `{}`", stringify!($ty));
        )*};
    }

    /// The macro checks the attributes of built-in types from its own table, which must say
    /// what sortkey-core's impls say: a drift would let through (or refuse) what the runtime
    /// does not (or does) allow.
    #[test]
    fn the_table_of_builtin_types_is_the_runtimes() {
        agree!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64, bool, char);
        agree!(String, &'static str, Cow<'static, str>, SystemTime);
        agree!(Option<u8>, Option<i64>, Option<f64>, Option<String>, Option<SystemTime>, Option<bool>);
    }
}
