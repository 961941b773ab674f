//! Golden expansion tests: the code the derives generate for a few representative inputs,
//! pretty-printed and compared with `src/output_tests/<case>.expanded.rs`, so that a change in
//! the generated code shows in review as a change of those files.
//!
//! A test fails with a diff when the expansion differs from its file. After a deliberate change,
//! rewrite the files and read the diff:
//!
//! ```text
//! UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests
//! ```

use std::path::PathBuf;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// Checks (or with `UPDATE_EXPANDED` set, rewrites) the golden file of `case`.
fn check(case: &str, expanded: TokenStream) {
    let file: syn::File = syn::parse2(expanded).unwrap_or_else(|e| panic!("{case}: the expansion is not items: {e}"));
    let actual = format!(
        "// The expansion of the `{case}` case of src/output_tests.rs; rewritten by\n\
         // `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.\n\n{}",
        prettyplease::unparse(&file)
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/output_tests").join(format!("{case}.expanded.rs"));
    if std::env::var_os("UPDATE_EXPANDED").is_some() {
        std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let diff = similar::TextDiff::from_lines(&expected, &actual);
        panic!(
            "the expansion of `{case}` differs from {} (run with UPDATE_EXPANDED=1 to rewrite it):\n{}",
            path.display(),
            diff.unified_diff().header("expected", "actual")
        );
    }
}

fn key(input: DeriveInput) -> TokenStream {
    crate::sort_key(&input)
}

fn segment(input: DeriveInput) -> TokenStream {
    crate::segment::derive(&input)
}

/// The seed's key: a prefix, a desc number, a number, final text.
#[test]
fn rank_key() {
    check(
        "rank_key",
        key(syn::parse_quote! {
            #[key(prefix = "RUN")]
            pub struct RankKey {
                #[key(width = 10, desc)]
                score: u64,
                #[key(width = 16)]
                timestamp: u64,
                player_id: String,
            }
        }),
    );
}

/// A nested key, an `Option` and a timestamp with a unit and a max.
#[test]
fn nested_and_option() {
    check(
        "nested_and_option",
        key(syn::parse_quote! {
            struct Release {
                package: String,
                version: Version,
                #[key(width = 3, max = 500)]
                patch: Option<u16>,
                #[key(unit = "ms", desc)]
                at: SystemTime,
            }
        }),
    );
}

/// A unit enum with `rename_all` and a `rename`.
#[test]
fn enum_rename_all() {
    check(
        "enum_rename_all",
        segment(syn::parse_quote! {
            #[key(rename_all = "snake_case")]
            enum Status {
                Pending,
                InTransit,
                #[key(rename = "done")]
                Delivered,
            }
        }),
    );
}

/// A key that borrows its text from the key string.
#[test]
fn borrowed() {
    check(
        "borrowed",
        key(syn::parse_quote! {
            struct Path<'a> {
                dir: &'a str,
                file: Cow<'a, str>,
            }
        }),
    );
}

/// A renamed runtime, a separator and a partition key's `max_len`.
#[test]
fn crate_path() {
    check(
        "crate_path",
        key(syn::parse_quote! {
            #[key(crate = ::sk, separator = '|', partition)]
            struct Tenant {
                name: String,
                #[key(width = 4)]
                shard: u16,
            }
        }),
    );
}

/// A bad attribute: the error and the fallback's stubs, through the renamed runtime.
#[test]
fn fallback() {
    check(
        "fallback",
        key(syn::parse_quote! {
            #[key(crate = ::sk)]
            struct Broken {
                #[key(width = 0)]
                score: u64,
            }
        }),
    );
}

fn entity(input: DeriveInput) -> TokenStream {
    crate::entity_derive(&input)
}

/// A key family: a literal variant and two key-type variants.
#[test]
fn family() {
    check(
        "family",
        key(syn::parse_quote! {
            enum CustomerItem {
                #[key(prefix = "PROFILE")]
                Profile,
                Order(OrderKey),
                Address(AddressKey),
            }
        }),
    );
}

/// An entity with a composite index, a sparse composite index and a multi-attribute index.
#[test]
fn entity_with_indexes() {
    check(
        "entity_with_indexes",
        entity(syn::parse_quote! {
            #[entity(
                pk(prefix = "CUST", customer_id(width = 8)),
                sk(prefix = "ORDER", placed_at(width = 10, desc), order_id),
                index(
                    gsi1(pk(prefix = "STATUS", status), sk(placed_at(width = 10), order_id)),
                    coupons(name = "by-coupon", pk(prefix = "COUPON", coupon), sk(order_id)),
                    by_region(multi, pk(region), sk(year, dock)),
                )
            )]
            pub struct Order {
                customer_id: u32,
                order_id: String,
                placed_at: u64,
                status: Status,
                coupon: Option<String>,
                region: String,
                year: u16,
                dock: Option<u8>,
            }
        }),
    );
}

/// A misspelt entity option: the one error, and the entity as far as it was read.
#[test]
fn entity_fallback() {
    check(
        "entity_fallback",
        entity(syn::parse_quote! {
            #[entity(pk(prfix = "CUST", customer_id), sk(order_id))]
            struct Order {
                customer_id: u32,
                order_id: String,
            }
        }),
    );
}
