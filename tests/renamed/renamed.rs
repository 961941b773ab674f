//! trybuild cases through a renamed runtime (`sk`), with no crate named `sortkey_core` in
//! scope: a derive that ignored `#[key(crate = ::sk)]` anywhere, fallbacks included, would add
//! unresolved-path errors here. The `.stderr` files are pinned to rustc 1.95.0, as in
//! `tests/trybuild/compiletest.rs`; regenerate with `TRYBUILD=overwrite`.

#[test]
fn renamed() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    t.compile_fail("ui/fail/*.rs");
}
