// The expansion of the `entity_fallback` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

::core::compile_error! {
    "unknown attribute `prfix` on the `pk` of entity `Order`: expected one of `name`, `type`, `prefix`, `separator`, `max_len`, `legacy` (did you mean `prefix`?)"
}
///The partition key of [`Order`], attribute `pk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key(partition)]
struct OrderPk {
    ///The entity's `customer_id`.
    pub customer_id: u32,
}
///The sort key of [`Order`], attribute `sk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key()]
struct OrderSk {
    ///The entity's `order_id`.
    pub order_id: String,
}
#[automatically_derived]
impl Order {
    ///The Query of one partition of the table of `Order` (its sort key has no prefix, so all of the partition), narrowed by `.sort(...)` with a condition from [`OrderSk::query()`].
    #[inline]
    pub fn query(
        partition: &OrderPk,
    ) -> ::core::result::Result<
        ::sortkey_core::TableQuery<Self>,
        ::sortkey_core::EncodeError,
    > {
        ::sortkey_core::__private_0_1_0::table_query::<
            Self,
        >(partition, ::core::option::Option::None)
    }
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl Order {}
    #[automatically_derived]
    impl _sortkey::Entity for Order {
        type Partition = OrderPk;
        type Sort = OrderSk;
        const NAME: &'static str = "Order";
        const KEYS: _sortkey::KeyNames = _sortkey::KeyNames::new("pk", "sk");
        const INDEXES: &'static [_sortkey::IndexNames] = &[];
        const LAYOUTS: &'static [_sortkey::KeyLayout] = &[
            _sortkey::KeyLayout {
                name: "OrderPk",
                layout: <OrderPk as _sortkey::SortKey>::LAYOUT,
                attribute: "pk",
                index: ::core::option::Option::None,
            },
            _sortkey::KeyLayout {
                name: "OrderSk",
                layout: <OrderSk as _sortkey::SortKey>::LAYOUT,
                attribute: "sk",
                index: ::core::option::Option::None,
            },
        ];
        #[inline]
        fn primary_key(&self) -> _sortkey::ItemKey<OrderPk, OrderSk> {
            _sortkey::ItemKey {
                partition: OrderPk {
                    customer_id: ::core::clone::Clone::clone(&self.customer_id),
                },
                sort: OrderSk {
                    order_id: ::core::clone::Clone::clone(&self.order_id),
                },
            }
        }
        #[inline]
        fn key_attributes(
            &self,
        ) -> _sortkey::Result<_sortkey::EntityKeys, _sortkey::EncodeError> {
            let mut __keys = _sortkey::entity_keys(2usize);
            let __primary = <Self as _sortkey::Entity>::primary_key(self);
            _sortkey::encode_attr(&mut __keys, "pk", &__primary.partition)?;
            _sortkey::encode_attr(&mut __keys, "sk", &__primary.sort)?;
            _sortkey::Result::Ok(__keys)
        }
    }
};
