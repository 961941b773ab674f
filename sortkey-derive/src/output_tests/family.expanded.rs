// The expansion of the `family` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

///Typed query conditions on [`CustomerItem`] keys, from [`CustomerItem::query`]: one method per variant, which continues with that variant's own builder.
#[must_use = "a query does nothing until it ends with a condition"]
#[derive(Clone, Copy, Debug)]
struct CustomerItemQuery {
    _private: (),
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    const _: () = {
        _sortkey::assert!(
            < OrderKey as _sortkey::SortKey > ::PREFIX.is_some(),
            "variant `Order` of key family `CustomerItem`: `OrderKey` has no literal prefix; expected `#[key(prefix = \"...\")]` on it, so that the family can tell its keys from the other variants'"
        );
    };
    const _: () = {
        _sortkey::assert!(
            < OrderKey as _sortkey::SortKey > ::SEPARATOR == '#',
            "variant `Order` of key family `CustomerItem`: `OrderKey` uses another separator than the family's '#'; expected the same separator on both"
        );
    };
    const _: () = {
        _sortkey::assert!(
            _sortkey::is_sort_role(< OrderKey as _sortkey::SortKey > ::ROLE),
            "variant `Order` of key family `CustomerItem`: `OrderKey` is a partition key; expected a sort key, as a family is"
        );
    };
    const _: () = {
        _sortkey::assert!(
            ! _sortkey::same_first_segment(_sortkey::prefix_of(< OrderKey as
            _sortkey::SortKey > ::PREFIX), "PROFILE", '#'),
            "variant `Order` of key family `CustomerItem`: its keys (from the prefix of `OrderKey`) begin with the same first segment, as variant `Profile`'s keys (from \"PROFILE\") do, so a `begins_with` query for one would return the other's items and a key could not be told apart; expected a first segment no other variant has (\"ORDER\" and \"ORDERS\" may coexist, \"ORDER\" and \"ORDER#ITEM\" may not)"
        );
    };
    const _: () = {
        _sortkey::assert!(
            < AddressKey as _sortkey::SortKey > ::PREFIX.is_some(),
            "variant `Address` of key family `CustomerItem`: `AddressKey` has no literal prefix; expected `#[key(prefix = \"...\")]` on it, so that the family can tell its keys from the other variants'"
        );
    };
    const _: () = {
        _sortkey::assert!(
            < AddressKey as _sortkey::SortKey > ::SEPARATOR == '#',
            "variant `Address` of key family `CustomerItem`: `AddressKey` uses another separator than the family's '#'; expected the same separator on both"
        );
    };
    const _: () = {
        _sortkey::assert!(
            _sortkey::is_sort_role(< AddressKey as _sortkey::SortKey > ::ROLE),
            "variant `Address` of key family `CustomerItem`: `AddressKey` is a partition key; expected a sort key, as a family is"
        );
    };
    const _: () = {
        _sortkey::assert!(
            ! _sortkey::same_first_segment(_sortkey::prefix_of(< AddressKey as
            _sortkey::SortKey > ::PREFIX), "PROFILE", '#'),
            "variant `Address` of key family `CustomerItem`: its keys (from the prefix of `AddressKey`) begin with the same first segment, as variant `Profile`'s keys (from \"PROFILE\") do, so a `begins_with` query for one would return the other's items and a key could not be told apart; expected a first segment no other variant has (\"ORDER\" and \"ORDERS\" may coexist, \"ORDER\" and \"ORDER#ITEM\" may not)"
        );
    };
    const _: () = {
        _sortkey::assert!(
            ! _sortkey::same_first_segment(_sortkey::prefix_of(< AddressKey as
            _sortkey::SortKey > ::PREFIX), _sortkey::prefix_of(< OrderKey as
            _sortkey::SortKey > ::PREFIX), '#'),
            "variant `Address` of key family `CustomerItem`: its keys (from the prefix of `AddressKey`) begin with the same first segment, as variant `Order`'s keys (from the prefix of `OrderKey`) do, so a `begins_with` query for one would return the other's items and a key could not be told apart; expected a first segment no other variant has (\"ORDER\" and \"ORDERS\" may coexist, \"ORDER\" and \"ORDER#ITEM\" may not)"
        );
    };
    #[automatically_derived]
    impl CustomerItem {
        const __SORTKEY_VARIANTS: &'static [_sortkey::VariantLayout] = &[
            _sortkey::VariantLayout::Unit("PROFILE"),
            _sortkey::VariantLayout::Key(&<OrderKey as _sortkey::SortKey>::LAYOUT),
            _sortkey::VariantLayout::Key(&<AddressKey as _sortkey::SortKey>::LAYOUT),
        ];
        const __SORTKEY_FAMILY: _sortkey::FamilyInfo = _sortkey::FamilyInfo {
            name: "CustomerItem",
            separator: '#',
            prefixes: &[
                "PROFILE",
                _sortkey::prefix_of(<OrderKey as _sortkey::SortKey>::PREFIX),
                _sortkey::prefix_of(<AddressKey as _sortkey::SortKey>::PREFIX),
            ],
        };
    }
    #[automatically_derived]
    impl _sortkey::SortKey for CustomerItem {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
        const SEPARATOR: ::core::primitive::char = '#';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::Option::None;
        const MAX_LEN: ::core::primitive::usize = _sortkey::max_of(
            &[
                7usize,
                <OrderKey as _sortkey::SortKey>::MAX_LEN,
                <AddressKey as _sortkey::SortKey>::MAX_LEN,
            ],
        );
        const LAYOUT: _sortkey::Layout = _sortkey::Layout::family(
            '#',
            <Self as _sortkey::SortKey>::MAX_LEN,
            Self::__SORTKEY_VARIANTS,
        );
        #[inline]
        fn encode_into(
            &self,
            __out: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            match self {
                CustomerItem::Profile => {
                    _sortkey::encode_unit(__out, "CustomerItem", "PROFILE")
                }
                CustomerItem::Order(k) => {
                    <OrderKey as _sortkey::SortKey>::encode_into(k, __out)
                }
                CustomerItem::Address(k) => {
                    <AddressKey as _sortkey::SortKey>::encode_into(k, __out)
                }
            }
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeKey<'__k> for CustomerItem {
        #[inline]
        fn decode_borrowed(
            __key: &'__k ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let __first = _sortkey::first_byte(__key);
            if __first == _sortkey::first_byte("PROFILE")
                && _sortkey::has_first_segment(__key, "PROFILE", '#')
            {
                return _sortkey::decode_unit(
                    __key,
                    &Self::__SORTKEY_FAMILY,
                    0usize,
                    || CustomerItem::Profile,
                );
            }
            if __first
                == _sortkey::first_byte(
                    _sortkey::prefix_of(<OrderKey as _sortkey::SortKey>::PREFIX),
                )
                && _sortkey::has_first_segment(
                    __key,
                    _sortkey::prefix_of(<OrderKey as _sortkey::SortKey>::PREFIX),
                    '#',
                )
            {
                return _sortkey::decode_variant::<
                    OrderKey,
                    Self,
                >(__key, CustomerItem::Order);
            }
            if __first
                == _sortkey::first_byte(
                    _sortkey::prefix_of(<AddressKey as _sortkey::SortKey>::PREFIX),
                )
                && _sortkey::has_first_segment(
                    __key,
                    _sortkey::prefix_of(<AddressKey as _sortkey::SortKey>::PREFIX),
                    '#',
                )
            {
                return _sortkey::decode_variant::<
                    AddressKey,
                    Self,
                >(__key, CustomerItem::Address);
            }
            _sortkey::unknown_variant(__key, &Self::__SORTKEY_FAMILY)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for CustomerItem {
        /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
        #[inline]
        fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            _sortkey::display_key(self, __f)
        }
    }
    _sortkey::serde_impls!(CustomerItem);
    #[automatically_derived]
    impl _sortkey::FromStr for CustomerItem {
        type Err = _sortkey::DecodeError;
        #[inline]
        fn from_str(
            __key: &::core::primitive::str,
        ) -> _sortkey::Result<Self, Self::Err> {
            <Self as _sortkey::SortKey>::decode(__key)
        }
    }
    #[automatically_derived]
    impl _sortkey::KeySegment for CustomerItem {
        const WIDTH: _sortkey::Width = _sortkey::nested_width(_sortkey::Option::None);
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(
            _sortkey::least_of(
                &[
                    <OrderKey as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
                    <AddressKey as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
                ],
                &[
                    "PROFILE",
                    _sortkey::prefix_of(<OrderKey as _sortkey::SortKey>::PREFIX),
                    _sortkey::prefix_of(<AddressKey as _sortkey::SortKey>::PREFIX),
                ],
            ),
            '#',
        );
        const SEGMENT_LAYOUT: _sortkey::SegmentLayout = _sortkey::SegmentLayout::Key(
            &<Self as _sortkey::SortKey>::LAYOUT,
        );
        #[inline]
        fn encode_segment(
            &self,
            __segment: &_sortkey::Field,
            __out: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            match self {
                CustomerItem::Profile => {
                    __out.push_str("PROFILE");
                    _sortkey::Result::Ok(())
                }
                CustomerItem::Order(k) => {
                    <OrderKey as _sortkey::KeySegment>::encode_segment(
                        k,
                        __segment,
                        __out,
                    )
                }
                CustomerItem::Address(k) => {
                    <AddressKey as _sortkey::KeySegment>::encode_segment(
                        k,
                        __segment,
                        __out,
                    )
                }
            }
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeSegment<'__k> for CustomerItem {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'__k>,
            __segment: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            if _sortkey::has_first_segment(__cursor.rest(), "PROFILE", '#') {
                _sortkey::expect_prefix(__cursor, "PROFILE")?;
                return _sortkey::Result::Ok(CustomerItem::Profile);
            }
            if _sortkey::has_first_segment(
                __cursor.rest(),
                _sortkey::prefix_of(<OrderKey as _sortkey::SortKey>::PREFIX),
                '#',
            ) {
                return <OrderKey as _sortkey::DecodeSegment<
                    '__k,
                >>::decode_segment(__cursor, __segment)
                    .map(CustomerItem::Order);
            }
            if _sortkey::has_first_segment(
                __cursor.rest(),
                _sortkey::prefix_of(<AddressKey as _sortkey::SortKey>::PREFIX),
                '#',
            ) {
                return <AddressKey as _sortkey::DecodeSegment<
                    '__k,
                >>::decode_segment(__cursor, __segment)
                    .map(CustomerItem::Address);
            }
            _sortkey::Result::Err(
                _sortkey::unknown_variant_here(
                    __cursor,
                    __segment,
                    '#',
                    Self::__SORTKEY_FAMILY.prefixes,
                ),
            )
        }
    }
    #[automatically_derived]
    impl CustomerItem {
        ///Starts a typed query condition on `CustomerItem` keys: see [`CustomerItemQuery`].
        #[inline]
        pub fn query() -> CustomerItemQuery {
            CustomerItemQuery { _private: () }
        }
    }
    #[automatically_derived]
    impl _sortkey::Queryable for CustomerItem {
        type Query = CustomerItemQuery;
        #[inline]
        fn query() -> CustomerItemQuery {
            CustomerItemQuery { _private: () }
        }
    }
    #[automatically_derived]
    impl CustomerItemQuery {
        ///Queries the one `Profile` key, "PROFILE".
        #[inline]
        pub fn profile(self) -> _sortkey::UnitQuery {
            _sortkey::unit_query("PROFILE")
        }
        ///Queries `Order` keys: continues with the builder of its key type.
        #[inline]
        pub fn order(self) -> <OrderKey as _sortkey::Queryable>::Query {
            <OrderKey as _sortkey::Queryable>::query()
        }
        ///Queries `Address` keys: continues with the builder of its key type.
        #[inline]
        pub fn address(self) -> <AddressKey as _sortkey::Queryable>::Query {
            <AddressKey as _sortkey::Queryable>::query()
        }
    }
};
