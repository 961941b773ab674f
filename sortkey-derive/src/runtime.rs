//! How generated code names the runtime: through its versioned private module, whose name is
//! written here and nowhere else in the derive.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Ident, Path};

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

#[cfg(test)]
mod tests {
    #[test]
    fn the_module_name_carries_the_version() {
        assert_eq!(super::module_name(), format!("__private_{}", env!("CARGO_PKG_VERSION").replace('.', "_")));
    }
}
