//! The generated code names nothing the user's scope can change (serde's `test_gen.rs`,
//! zerocopy's `tests/hygiene.rs`): it compiles under `#![no_implicit_prelude]` beside local
//! items called `Result`, `Option`, `Ok`, `Some`, `String`, `Vec`, `HashMap`, `Box`, `core`, `std`
//! and `assert`, through a renamed runtime with `#[key(crate = ...)]`, and without a warning.
//!
//! Cargo refuses one package under two names in one crate, so the runtime is renamed with
//! `extern crate ... as sk`, which puts `sk` in the extern prelude just as a renamed
//! dependency would.

#![deny(warnings, unused_qualifications)]

extern crate sortkey_core as sk;

/// Derives under `#![no_implicit_prelude]` with the common names shadowed.
mod shadowed {
    #![no_implicit_prelude]
    #![allow(dead_code)]

    use ::sortkey_core::SortKey;

    struct Result;
    struct Option;
    struct Ok;
    struct Some;
    struct Err;
    struct None;
    struct String;
    struct Box;
    struct Vec;
    struct HashMap;
    struct Field;
    struct Cursor;
    mod core {}
    mod std {}
    mod sortkey_core {}
    mod _sortkey {}
    // Unused exactly when the derive's `const` checks call the runtime's `assert!`.
    #[allow(unused_macros)]
    macro_rules! assert {
        ($($t:tt)*) => {
            compile_error!("the generated code used the caller's `assert!`")
        };
    }

    /// Every kind of segment, with field names that look like the derive's locals.
    #[derive(SortKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[key(prefix = "H", separator = '|')]
    pub(crate) struct Shadowed {
        #[key(width = 4, desc)]
        pub(crate) __out: u32,
        #[key(width = 5, max = 9000)]
        pub(crate) __key: i32,
        pub(crate) __cursor: bool,
        pub(crate) __field0: char,
        pub(crate) text: ::std::string::String,
    }

    /// Borrowed text under the same conditions.
    #[derive(SortKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub(crate) struct Borrowed<'a> {
        pub(crate) name: &'a str,
        pub(crate) rest: ::std::borrow::Cow<'a, str>,
    }

    /// Through the renamed runtime, by its global path.
    #[derive(SortKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[key(crate = ::sk)]
    pub(crate) struct Renamed {
        pub(crate) n: u8,
    }

    /// A variant of the family below.
    #[derive(SortKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[key(prefix = "RUN")]
    pub(crate) struct RunKey {
        #[key(width = 3)]
        pub(crate) n: u8,
    }

    /// A key family: a literal variant and a key-type variant.
    #[derive(SortKey, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    pub(crate) enum Family {
        #[key(prefix = "PROFILE")]
        Profile,
        Run(RunKey),
    }

    /// An entity with a composite, a sparse and a multi-attribute index, through the renamed
    /// runtime.
    #[derive(::sortkey_core::Entity, ::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
    #[entity(
        crate = ::sk,
        pk(prefix = "CUST", customer(width = 4)),
        sk(prefix = "ORDER", __placed(width = 10, desc), id),
        index(
            gsi1(pk(prefix = "S", state), sk(__placed(width = 10))),
            coupons(pk(coupon), sk(id)),
            by_region(multi, pk(region), sk(year, dock)),
        )
    )]
    pub(crate) struct Order {
        pub(crate) customer: u32,
        pub(crate) __placed: u64,
        pub(crate) id: ::std::string::String,
        pub(crate) state: ::std::string::String,
        pub(crate) coupon: ::core::option::Option<::std::string::String>,
        pub(crate) region: ::std::string::String,
        pub(crate) year: u16,
        pub(crate) dock: ::core::option::Option<u8>,
    }
}

/// Derives in a module whose own types shadow the primitive names the generated code uses.
mod primitives {
    #![allow(dead_code, non_camel_case_types)]

    use sortkey_core::SortKey;

    struct str;
    struct char;
    struct usize;
    struct u32;

    /// The key's own field types are spelled through `core::primitive`, as a user would have to.
    #[derive(SortKey, Debug, PartialEq)]
    #[key(prefix = "P")]
    pub(crate) struct Key {
        #[key(width = 3)]
        pub(crate) n: ::core::primitive::u16,
        pub(crate) name: ::std::string::String,
    }
}

#[test]
fn primitive_names_shadowed() {
    use sortkey_core::SortKey;
    let k = primitives::Key { n: 7, name: "x".into() };
    assert_eq!(k.encode().unwrap(), "P#007#x");
    assert_eq!(primitives::Key::decode("P#007#x").unwrap(), k);
    let c = primitives::Key::query().n(7).name_range().begins_with("x").unwrap();
    assert!(c.matches("P#007#xy"));
}

/// Derives through the renamed runtime, named as a plain path (`crate = sk`) and as a string.
mod renamed {
    use sk::SortKey;

    #[derive(SortKey, Debug, PartialEq)]
    #[key(crate = sk, prefix = "R")]
    pub(crate) struct ByPath {
        #[key(width = 2)]
        pub(crate) n: u8,
        pub(crate) s: String,
    }

    #[derive(SortKey, Debug, PartialEq)]
    #[key(crate = "sk")]
    pub(crate) struct ByString {
        #[key(desc)]
        pub(crate) n: i8,
    }
}

use sk::{DecodeKey, EncodeErrorKind, SortKey};

#[test]
fn shadowed_names_do_not_reach_the_generated_code() {
    let k = shadowed::Shadowed { __out: 7, __key: -3, __cursor: true, __field0: 'é', text: "a|b".into() };
    let key = k.encode().unwrap();
    assert_eq!(key, "H|9992|-9996|1|é|a|b");
    assert_eq!(shadowed::Shadowed::decode(&key).unwrap(), k);
    assert_eq!(key.parse::<shadowed::Shadowed>().unwrap(), k);
    let err = shadowed::Shadowed { __key: 9001, ..k.clone() }.encode().unwrap_err();
    assert_eq!(err.field(), Some("__key"));
    assert_eq!(err.kind(), &EncodeErrorKind::AboveMax { value: "9001".into(), max: 9000 });
    let err = shadowed::Shadowed::decode("H|9992|-9996|2|é|").unwrap_err();
    assert_eq!((err.field(), err.offset()), (Some("__cursor"), 13));
}

#[test]
fn borrowed_text_under_no_implicit_prelude() {
    let b = shadowed::Borrowed { name: "x", rest: "y#z".into() };
    assert_eq!(b.encode().unwrap(), "x#y#z");
    assert_eq!(shadowed::Borrowed::decode_borrowed("x#y#z").unwrap(), b);
}

#[test]
fn the_renamed_runtime_works_by_global_path_path_and_string() {
    let r = shadowed::Renamed { n: 255 };
    assert_eq!(r.encode().unwrap(), "255");
    assert_eq!(shadowed::Renamed::decode("255").unwrap(), r);

    let p = renamed::ByPath { n: 7, s: "s".into() };
    assert_eq!(p.encode().unwrap(), "R#07#s");
    assert_eq!(renamed::ByPath::decode("R#07#s").unwrap(), p);
    let err = renamed::ByPath { n: 100, s: String::new() }.encode().unwrap_err();
    assert_eq!(err.field(), Some("n"));

    let s = renamed::ByString { n: i8::MIN };
    assert_eq!(s.encode().unwrap(), "0128");
    assert_eq!(renamed::ByString::decode("0128").unwrap(), s);
}

#[test]
fn families_and_entities_under_no_implicit_prelude() {
    use sk::Entity;
    let f = shadowed::Family::Run(shadowed::RunKey { n: 7 });
    assert_eq!(f.encode().unwrap(), "RUN#007");
    assert_eq!(shadowed::Family::decode("PROFILE").unwrap(), shadowed::Family::Profile);
    assert_eq!(shadowed::Family::decode("RUN#007").unwrap(), f);
    assert!(shadowed::Family::query().run().n_range().gte(5).unwrap().matches("RUN#007"));

    let o = shadowed::Order {
        customer: 42,
        __placed: 5,
        id: "o-1".into(),
        state: "NEW".into(),
        coupon: None,
        region: "eu".into(),
        year: 2026,
        dock: Some(3),
    };
    let keys = o.key_attributes().unwrap();
    let present: Vec<&str> = keys.present().iter().map(|(n, _)| *n).collect();
    assert_eq!(present, ["pk", "sk", "gsi1pk", "gsi1sk", "region", "year", "dock"]);
    assert_eq!(o.primary_key().sort.encode().unwrap(), "ORDER#9999999994#o-1");
    assert!(o.coupons_key().is_none());
    assert_eq!(shadowed::Order::INDEXES.len(), 3);
    let c = shadowed::Order::by_region("eu").year(2026u16).dock_range().gte(1u8);
    let equal: Vec<&str> = c.equal().iter().map(|(n, _)| *n).collect();
    assert_eq!(equal, ["region", "year"]);
    assert_eq!(c.range().map(|(n, _)| *n), Some("dock"));
}
