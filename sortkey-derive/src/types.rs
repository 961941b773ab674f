//! What the derive can tell from a field's type as written: text, a built-in segment type,
//! and the type's name for messages. A type alias is none of these, and gets every check.

use quote::quote;
use syn::Type;

/// Whether the builder takes `&str` for this field and offers `_begins_with`.
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

/// Whether `ty` is spelled as one of the runtime's own segment types (integers, `bool`, `char`,
/// `String`, `&str`, `Cow<str>`). A type alias is not, and keeps every check.
pub(crate) fn is_builtin(ty: &Type) -> bool {
    const NAMES: [&str; 15] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool", "char",
        "String",
    ];
    match ty {
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            NAMES.iter().any(|n| p.path.segments[0].ident == n) && p.path.segments[0].arguments.is_empty()
        }
        _ => is_text(ty),
    }
}

/// A type as written, for messages.
pub(crate) fn type_name(ty: &Type) -> String {
    quote!(#ty).to_string().replace(" < ", "<").replace(" >", ">").replace("& ", "&").replace(" ,", ",")
}
