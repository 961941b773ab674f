//! How generated code names the runtime: the crate path (default or `#[key(crate = path)]`),
//! its versioned private module, whose name is written here and nowhere else in the derive,
//! and the one `const _` wrapper every expansion goes in.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Attribute, Ident, Path, Token};

/// Where the runtime is unless `#[key(crate = path)]` says otherwise.
pub(crate) fn default_crate() -> Path {
    syn::parse_quote!(::sortkey_core)
}

/// `#krate::__private_X_Y_Z`, the module of sortkey-core that generated code calls into, for this
/// derive's own version `X.Y.Z`. sortkey-core pins the derive to its exact version, so the module
/// exists; a derive of another version names a module that does not, and fails to compile
/// instead of misbehaving.
pub(crate) fn private(krate: &Path) -> TokenStream {
    let module = Ident::new(&module_name(), Span::call_site());
    quote!(#krate::#module)
}

/// `__private_` and the version with `_` for `.` (and for the `-` of a pre-release).
fn module_name() -> String {
    format!("__private_{}", env!("CARGO_PKG_VERSION").replace(['.', '-'], "_"))
}

/// The items of one expansion inside an anonymous `const` that names the runtime's private
/// module `_sortkey`, so that generated code reaches the runtime through one alias and adds
/// no names to the user's module. Every expansion, fallbacks included, goes through here.
pub(crate) fn wrap_in_const(krate: &Path, items: TokenStream) -> TokenStream {
    let private = private(krate);
    quote! {
        #[doc(hidden)]
        #[allow(unused_qualifications, non_local_definitions, clippy::all)]
        const _: () = {
            use #private as _sortkey;
            #items
        };
    }
}

/// The `crate = path` of the `#[key(...)]` attributes, read on its own and leniently (every
/// other attribute skipped, whatever it holds), so that it is known even when the rest of the
/// attributes are wrong and the fallback is emitted.
pub(crate) fn crate_path(attrs: &[Attribute]) -> Path {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("key")) {
        // A malformed attribute is reported by the real parse; here it only ends the search.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let value = meta.value()?;
                found = Some(match value.parse::<syn::LitStr>() {
                    Ok(s) => s.parse::<Path>()?,
                    Err(_) => value.parse::<Path>()?,
                });
            } else if meta.input.peek(Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _nested;
                syn::parenthesized!(_nested in meta.input);
            }
            Ok(())
        });
    }
    found.unwrap_or_else(default_crate)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against what the runtime declares, read from its source: the two crates are released
    /// together, and generated code must name the module that exists.
    #[test]
    fn the_module_name_is_the_runtimes() {
        let lib = include_str!("../../sortkey-core/src/lib.rs");
        let declared = lib
            .lines()
            .find_map(|line| line.strip_prefix("pub mod __private_").and_then(|rest| rest.strip_suffix(';')))
            .map(|version| format!("__private_{version}"));
        assert_eq!(declared, Some(module_name()));
    }

    #[test]
    fn crate_path_survives_other_attributes() {
        let input: syn::DeriveInput = syn::parse_quote! {
            #[key(widht = "x", separator = "##", crate = ::sk, desc, nested(a = 1))]
            struct K { a: u8 }
        };
        let path = crate_path(&input.attrs);
        assert_eq!(quote!(#path).to_string(), quote!(::sk).to_string());
        let input: syn::DeriveInput = syn::parse_quote! { #[key(prefix = "P")] struct K { a: u8 } };
        let path = crate_path(&input.attrs);
        assert_eq!(quote!(#path).to_string(), quote!(::sortkey_core).to_string());
    }
}
