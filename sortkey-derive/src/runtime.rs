//! How generated code names the runtime: the crate path (default or `#[key(crate = path)]`),
//! its versioned private module, whose name is written here and nowhere else in the derive,
//! and the one `const _` wrapper every expansion goes in.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Ident, Path};

use crate::attr::{Accepted, List, Owner, skip_value};

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
/// other attribute skipped, whatever it holds, and every error left to the real parse), so that
/// it is known even when the rest of the attributes are wrong and the fallback is emitted. Read
/// by the one reader of `crate` (attr.rs), as every position reads it.
pub(crate) fn crate_path(attrs: &[Attribute]) -> Path {
    let owner = Owner::new("item", &"");
    let mut found = None;
    let mut others = |m: &ParseNestedMeta<'_>| (!m.path.is_ident("crate")).then(|| Ok(skip_value(m)?));
    let accepted: &mut [Accepted<'_>] = &mut [("crate", &mut |n, m| owner.path(n, m).map(|p| found = Some(p)))];
    let _reported_by_the_real_parse = owner.parse(List::Attrs(attrs, "key"), accepted, Some(&mut others));
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
