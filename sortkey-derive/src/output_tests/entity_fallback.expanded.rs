// The expansion of the `entity_fallback` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

::core::compile_error! {
    "unknown option `prfix` of the primary key's `pk` of entity `Order`: expected `name = \"...\"`, `prefix = \"...\"`, `separator = '...'`, `max_len = N`, or a field such as `order_id` or `placed_at(width = 10, desc)`"
}
::core::compile_error! {
    "entity `Order` has no pk: expected `#[entity(pk(prefix = \"...\", field, ...))]` naming the fields of its primary key"
}
::core::compile_error! {
    "entity `Order` has no sk: expected `#[entity(sk(prefix = \"...\", field, ...))]` naming the fields of its primary key"
}
