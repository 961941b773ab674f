// The expansion of the `entity_with_indexes` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

///The partition key of [`Order`], attribute `pk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key(prefix = "CUST", partition)]
pub struct OrderPk {
    ///The entity's `customer_id`.
    #[key(width = 8)]
    pub customer_id: u32,
}
///The sort key of [`Order`], attribute `sk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key(prefix = "ORDER")]
pub struct OrderSk {
    ///The entity's `placed_at`.
    #[key(width = 10, desc)]
    pub placed_at: u64,
    ///The entity's `order_id`.
    pub order_id: String,
}
///The partition key of [`Order`] in the index `gsi1`, attribute `gsi1pk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key(prefix = "STATUS", partition)]
pub struct OrderGsi1Pk {
    ///The entity's `status`.
    pub status: Status,
}
///The sort key of [`Order`] in the index `gsi1`, attribute `gsi1sk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key()]
pub struct OrderGsi1Sk {
    ///The entity's `placed_at`.
    #[key(width = 10)]
    pub placed_at: u64,
    ///The entity's `order_id`.
    pub order_id: String,
}
///The partition key of [`Order`] in the index `by-coupon`, attribute `by-couponpk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key(prefix = "COUPON", partition)]
pub struct OrderCouponsPk {
    ///The entity's `coupon`.
    pub coupon: String,
}
///The sort key of [`Order`] in the index `by-coupon`, attribute `by-couponsk`.
#[derive(
    ::sortkey_core::SortKey,
    ::core::fmt::Debug,
    ::core::clone::Clone,
    ::core::cmp::PartialEq
)]
#[key()]
pub struct OrderCouponsSk {
    ///The entity's `order_id`.
    pub order_id: String,
}
///The staged Query of the multi-attribute index `by_region` of [`Order`]: stage `N` has fixed the first `N` sort attributes (`year`, `dock`). Start it with [`Order::by_region`].
#[derive(::core::fmt::Debug, ::core::clone::Clone)]
pub struct OrderByRegionQuery<const N: usize> {
    inner: ::sortkey_core::__private_0_1_0::MultiQuery<Order>,
}
#[automatically_derived]
impl OrderByRegionQuery<0usize> {
    ///`year` equal to `value`; the query continues with the next sort attribute.
    #[inline]
    pub fn year(
        self,
        value: impl ::core::convert::Into<u16>,
    ) -> OrderByRegionQuery<1usize> {
        OrderByRegionQuery {
            inner: self
                .inner
                .eq(
                    "year",
                    ::sortkey_core::KeyScalar::to_scalar(
                        &::core::convert::Into::<u16>::into(value),
                    ),
                ),
        }
    }
    ///Ends the query with a range on `year`: `gt`, `gte`, `lt`, `lte`, `between`.
    #[inline]
    pub fn year_range(self) -> ::sortkey_core::MultiRange<Order, u16> {
        ::sortkey_core::MultiRange::new(self.inner, "year")
    }
}
#[automatically_derived]
impl OrderByRegionQuery<1usize> {
    ///`dock` equal to `value`; the query continues with the next sort attribute.
    #[inline]
    pub fn dock(
        self,
        value: impl ::core::convert::Into<u8>,
    ) -> OrderByRegionQuery<2usize> {
        OrderByRegionQuery {
            inner: self
                .inner
                .eq(
                    "dock",
                    ::sortkey_core::KeyScalar::to_scalar(
                        &::core::convert::Into::<u8>::into(value),
                    ),
                ),
        }
    }
    ///Ends the query with a range on `dock`: `gt`, `gte`, `lt`, `lte`, `between`.
    #[inline]
    pub fn dock_range(self) -> ::sortkey_core::MultiRange<Order, u8> {
        ::sortkey_core::MultiRange::new(self.inner, "dock")
    }
}
#[automatically_derived]
impl<const N: usize> OrderByRegionQuery<N> {
    /// The condition with the equalities so far, and no range.
    #[inline]
    pub fn condition(self) -> ::sortkey_core::MultiCondition<Order> {
        self.inner.finish()
    }
}
#[automatically_derived]
impl Order {
    ///The Query of one partition of the table of `Order`: its own items (the sort keys [`OrderSk`] holds), narrowed by `.sort(...)` with a condition from [`OrderSk::query()`]; its pages read back as `Order`'s primary keys, or as entities with `sortkey_core::dynamodb::query_page`.
    #[inline]
    pub fn query(
        partition: &OrderPk,
    ) -> ::core::result::Result<
        ::sortkey_core::TableQuery<Self>,
        ::sortkey_core::EncodeError,
    > {
        ::sortkey_core::__private_0_1_0::table_query::<
            Self,
        >(partition, ::core::result::Result::ok(<OrderSk>::query().begins_with()))
    }
    ///The Query of one partition of the index `gsi1` of `Order`: `.sort(...)` narrows it with a condition from [`OrderGsi1Sk::query()`]; its pages read back as index and primary keys.
    #[inline]
    pub fn gsi1(
        partition: &OrderGsi1Pk,
    ) -> ::core::result::Result<
        ::sortkey_core::IndexQuery<Self, OrderGsi1Pk, OrderGsi1Sk>,
        ::sortkey_core::EncodeError,
    > {
        ::sortkey_core::__private_0_1_0::index_query(
            Self::__SORTKEY_INDEX_GSI1,
            Self::__SORTKEY_KEYS_GSI1,
            partition,
        )
    }
    ///The key of this `Order` in the index `gsi1`.
    #[inline]
    pub fn gsi1_key(&self) -> ::sortkey_core::ItemKey<OrderGsi1Pk, OrderGsi1Sk> {
        ::sortkey_core::ItemKey {
            partition: OrderGsi1Pk {
                status: ::core::clone::Clone::clone(&self.status),
            },
            sort: OrderGsi1Sk {
                placed_at: ::core::clone::Clone::clone(&self.placed_at),
                order_id: ::core::clone::Clone::clone(&self.order_id),
            },
        }
    }
    ///The Query of one partition of the index `by-coupon` of `Order`: `.sort(...)` narrows it with a condition from [`OrderCouponsSk::query()`]; its pages read back as index and primary keys.
    #[inline]
    pub fn coupons(
        partition: &OrderCouponsPk,
    ) -> ::core::result::Result<
        ::sortkey_core::IndexQuery<Self, OrderCouponsPk, OrderCouponsSk>,
        ::sortkey_core::EncodeError,
    > {
        ::sortkey_core::__private_0_1_0::index_query(
            Self::__SORTKEY_INDEX_COUPONS,
            Self::__SORTKEY_KEYS_COUPONS,
            partition,
        )
    }
    ///The key of this `Order` in the sparse index `by-coupon`: `None` when an optional field of it is `None`, and then the item is not in the index.
    #[inline]
    pub fn coupons_key(
        &self,
    ) -> ::core::option::Option<
        ::sortkey_core::ItemKey<OrderCouponsPk, OrderCouponsSk>,
    > {
        let __coupon = self.coupon.as_ref()?;
        ::core::option::Option::Some(::sortkey_core::ItemKey {
            partition: OrderCouponsPk {
                coupon: ::core::clone::Clone::clone(__coupon),
            },
            sort: OrderCouponsSk {
                order_id: ::core::clone::Clone::clone(&self.order_id),
            },
        })
    }
    ///The Query of the multi-attribute index `by_region` of `Order`: `=` on its partition attributes; then the sort attributes (`year`, `dock`) in order, `=` on each the query fixes and at most one range on the next, which ends it; `.condition()` ends it at any stage.
    #[inline]
    pub fn by_region(
        region: impl ::core::convert::Into<String>,
    ) -> OrderByRegionQuery<0> {
        OrderByRegionQuery {
            inner: ::sortkey_core::__private_0_1_0::MultiQuery::new(
                Self::__SORTKEY_INDEX_BY_REGION.name(),
                Self::__SORTKEY_KEYS_BY_REGION,
                ::std::vec![
                    ("region", ::sortkey_core::KeyScalar::to_scalar(&
                    ::core::convert::Into:: < String > ::into(region)))
                ],
            ),
        }
    }
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl Order {
        const __SORTKEY_KEYS_GSI1: _sortkey::KeyNames = _sortkey::KeyNames::new(
            "gsi1pk",
            "gsi1sk",
        );
        const __SORTKEY_INDEX_GSI1: _sortkey::IndexNames = _sortkey::IndexNames::new(
            "gsi1",
            Self::__SORTKEY_KEYS_GSI1,
            false,
        );
        const __SORTKEY_KEYS_COUPONS: _sortkey::KeyNames = _sortkey::KeyNames::new(
            "by-couponpk",
            "by-couponsk",
        );
        const __SORTKEY_INDEX_COUPONS: _sortkey::IndexNames = _sortkey::IndexNames::new(
            "by-coupon",
            Self::__SORTKEY_KEYS_COUPONS,
            true,
        );
        const __SORTKEY_KEYS_BY_REGION: _sortkey::MultiKeys = _sortkey::MultiKeys {
            partition: &[("region", <String as _sortkey::KeyScalar>::TYPE)],
            sort: &[
                ("year", <u16 as _sortkey::KeyScalar>::TYPE),
                ("dock", <u8 as _sortkey::KeyScalar>::TYPE),
            ],
        };
        const __SORTKEY_INDEX_BY_REGION: _sortkey::IndexNames = _sortkey::IndexNames::multi(
            "by_region",
            Self::__SORTKEY_KEYS_BY_REGION,
            true,
        );
    }
    #[automatically_derived]
    impl _sortkey::Entity for Order {
        type Partition = OrderPk;
        type Sort = OrderSk;
        const NAME: &'static str = "Order";
        const KEYS: _sortkey::KeyNames = _sortkey::KeyNames::new("pk", "sk");
        const INDEXES: &'static [_sortkey::IndexNames] = &[
            Self::__SORTKEY_INDEX_GSI1,
            Self::__SORTKEY_INDEX_COUPONS,
            Self::__SORTKEY_INDEX_BY_REGION,
        ];
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
            _sortkey::KeyLayout {
                name: "OrderGsi1Pk",
                layout: <OrderGsi1Pk as _sortkey::SortKey>::LAYOUT,
                attribute: "gsi1pk",
                index: ::core::option::Option::Some("gsi1"),
            },
            _sortkey::KeyLayout {
                name: "OrderGsi1Sk",
                layout: <OrderGsi1Sk as _sortkey::SortKey>::LAYOUT,
                attribute: "gsi1sk",
                index: ::core::option::Option::Some("gsi1"),
            },
            _sortkey::KeyLayout {
                name: "OrderCouponsPk",
                layout: <OrderCouponsPk as _sortkey::SortKey>::LAYOUT,
                attribute: "by-couponpk",
                index: ::core::option::Option::Some("by-coupon"),
            },
            _sortkey::KeyLayout {
                name: "OrderCouponsSk",
                layout: <OrderCouponsSk as _sortkey::SortKey>::LAYOUT,
                attribute: "by-couponsk",
                index: ::core::option::Option::Some("by-coupon"),
            },
        ];
        #[inline]
        fn primary_key(&self) -> _sortkey::ItemKey<OrderPk, OrderSk> {
            _sortkey::ItemKey {
                partition: OrderPk {
                    customer_id: ::core::clone::Clone::clone(&self.customer_id),
                },
                sort: OrderSk {
                    placed_at: ::core::clone::Clone::clone(&self.placed_at),
                    order_id: ::core::clone::Clone::clone(&self.order_id),
                },
            }
        }
        #[inline]
        fn key_attributes(
            &self,
        ) -> _sortkey::Result<_sortkey::EntityKeys, _sortkey::EncodeError> {
            let mut __keys = _sortkey::entity_keys(8usize);
            let __primary = <Self as _sortkey::Entity>::primary_key(self);
            _sortkey::encode_attr(&mut __keys, "pk", &__primary.partition)?;
            _sortkey::encode_attr(&mut __keys, "sk", &__primary.sort)?;
            let __k = self.gsi1_key();
            _sortkey::encode_attr(&mut __keys, "gsi1pk", &__k.partition)?;
            _sortkey::encode_attr(&mut __keys, "gsi1sk", &__k.sort)?;
            match self.coupons_key() {
                ::core::option::Option::Some(__k) => {
                    _sortkey::encode_attr(&mut __keys, "by-couponpk", &__k.partition)?;
                    _sortkey::encode_attr(&mut __keys, "by-couponsk", &__k.sort)?;
                }
                ::core::option::Option::None => {
                    _sortkey::push_absent(&mut __keys, &["by-couponpk", "by-couponsk"])
                }
            }
            _sortkey::push_scalar(
                &mut __keys,
                "Order",
                "region",
                _sortkey::KeyScalar::to_scalar(&self.region),
            )?;
            _sortkey::push_scalar(
                &mut __keys,
                "Order",
                "year",
                _sortkey::KeyScalar::to_scalar(&self.year),
            )?;
            match &self.dock {
                ::core::option::Option::Some(__v) => {
                    _sortkey::push_scalar(
                        &mut __keys,
                        "Order",
                        "dock",
                        _sortkey::KeyScalar::to_scalar(__v),
                    )?
                }
                ::core::option::Option::None => {
                    _sortkey::push_absent(&mut __keys, &["dock"])
                }
            }
            _sortkey::Result::Ok(__keys)
        }
    }
};
