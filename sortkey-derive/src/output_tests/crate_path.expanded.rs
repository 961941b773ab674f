// The expansion of the `crate_path` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

/**Typed query conditions on [`Tenant`] keys, from [`Tenant::query`].

Fields are fixed in this order, stage `__N` having fixed the first `__N`: 0: `name`, 1: `shard`. A method of a later field on an earlier stage does not exist ("no method named ... found for `TenantQuery<0>`"): fix the fields before it first.

`__N` counts the fields fixed so far, in declaration order. Fix the next field with the method named after it, or end with a range on it through `<field>_range()` (`gt`, `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the `QueryError` of any value that does not fit its field.*/
#[must_use = "a query does nothing until it ends with a condition"]
struct TenantQuery<const __N: ::core::primitive::usize> {
    head: ::sk::__private_0_1_0::QueryHead,
    key: ::core::marker::PhantomData<fn() -> Tenant>,
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sk::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl Tenant {
        const __SORTKEY_FIELD0: _sortkey::Field = _sortkey::Field::new(
                "Tenant",
                "name",
                '|',
            )
            .with_width(
                _sortkey::resolve_width(
                    <String as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_FIELD1: _sortkey::Field = _sortkey::Field::new(
                "Tenant",
                "shard",
                '|',
            )
            .with_width(
                _sortkey::resolve_width(
                    <u16 as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::Some(4u32),
                ),
            );
        const __SORTKEY_LAYOUT: &'static [_sortkey::FieldLayout] = &[
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD0,
                <String as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD1,
                <u16 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
        ];
    }
    #[automatically_derived]
    impl _sortkey::SortKey for Tenant {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
        const SEPARATOR: ::core::primitive::char = '|';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::add_len(
            _sortkey::add_len(
                _sortkey::Option::Some(1usize),
                _sortkey::segment_len_of(
                    <String as _sortkey::KeySegment>::WIDTH,
                    Self::__SORTKEY_FIELD0.width(),
                    <String as _sortkey::KeySegment>::VARIABLE_LEN,
                ),
            ),
            _sortkey::segment_len_of(
                <u16 as _sortkey::KeySegment>::WIDTH,
                Self::__SORTKEY_FIELD1.width(),
                <u16 as _sortkey::KeySegment>::VARIABLE_LEN,
            ),
        );
        const MAX_LEN: ::core::primitive::usize = 2048usize;
        const ROLE: _sortkey::KeyRole = _sortkey::KeyRole::Partition;
        const LAYOUT: _sortkey::Layout = _sortkey::Layout::fields(
            _sortkey::Option::None,
            '|',
            2048usize,
            _sortkey::KeyRole::Partition,
            Self::__SORTKEY_LAYOUT,
        );
        #[inline]
        fn encode_into(
            &self,
            __out: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            _sortkey::encode_whole(self, __out, "Tenant", 2048usize)
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeKey<'__k> for Tenant {
        #[inline]
        fn decode_borrowed(
            __key: &'__k ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            _sortkey::decode_whole::<Self>(__key, "Tenant", 2048usize)
        }
    }
    #[automatically_derived]
    impl _sortkey::FromStr for Tenant {
        type Err = _sortkey::DecodeError;
        #[inline]
        fn from_str(
            __key: &::core::primitive::str,
        ) -> _sortkey::Result<Self, Self::Err> {
            <Self as _sortkey::SortKey>::decode(__key)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for Tenant {
        /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
        #[inline]
        fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            _sortkey::display_key(self, __f)
        }
    }
    _sortkey::serde_impls!(Tenant);
    #[automatically_derived]
    impl _sortkey::KeySegment for Tenant {
        const WIDTH: _sortkey::Width = _sortkey::nested_width(
            <Self as _sortkey::SortKey>::ENCODED_LEN,
        );
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(
            <u16 as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
            '|',
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
            let _ = __segment;
            <String as _sortkey::KeySegment>::encode_segment(
                &self.name,
                &Self::__SORTKEY_FIELD0,
                __out,
            )?;
            __out.push('|');
            <u16 as _sortkey::KeySegment>::encode_segment(
                &self.shard,
                &_sortkey::field_in(Self::__SORTKEY_FIELD1, __segment),
                __out,
            )?;
            _sortkey::Result::Ok(())
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeSegment<'__k> for Tenant {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'__k>,
            __segment: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let _ = __segment;
            let __field0 = <String as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD0)?;
            _sortkey::expect_separator(__cursor, "|", &Self::__SORTKEY_FIELD0)?;
            let __field1 = <u16 as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(
                __cursor,
                &_sortkey::field_in(Self::__SORTKEY_FIELD1, __segment),
            )?;
            let __value = _sortkey::Result::Ok(Self {
                name: __field0,
                shard: __field1,
            });
            __value
        }
    }
    #[automatically_derived]
    impl Tenant {
        ///Starts a typed query condition on `Tenant` keys: see [`TenantQuery`].
        #[inline]
        pub fn query() -> TenantQuery<0> {
            TenantQuery {
                head: _sortkey::QueryHead::new(
                    "Tenant",
                    <Self as _sortkey::SortKey>::PREFIX,
                    <Self as _sortkey::SortKey>::SEPARATOR,
                    2048usize,
                    <Self as _sortkey::SortKey>::ROLE,
                ),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl _sortkey::Queryable for Tenant {
        type Query = TenantQuery<0>;
        #[inline]
        fn query() -> TenantQuery<0> {
            <Tenant>::query()
        }
    }
    #[automatically_derived]
    impl<const __N: ::core::primitive::usize> ::core::clone::Clone for TenantQuery<__N> {
        #[inline]
        fn clone(&self) -> Self {
            TenantQuery {
                head: ::core::clone::Clone::clone(&self.head),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl TenantQuery<0usize> {
        ///Fixes `name` to `value` and moves on to the next field.
        #[inline]
        pub fn name(self, value: &::core::primitive::str) -> TenantQuery<1usize> {
            TenantQuery {
                head: self
                    .head
                    .fix(
                        value,
                        &<Tenant>::__SORTKEY_FIELD0,
                        <::core::primitive::str as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `name`: `gt`, `gte`, `lt`, `lte`, `between` or `begins_with` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn name_range<'__q>(self) -> _sortkey::TextRange
        where
            Tenant: _sortkey::SortKeyRange<'__q>,
        {
            _sortkey::TextRange::new(self.head, *&<Tenant>::__SORTKEY_FIELD0)
        }
        /// Ends the query with every key whose fields equal the ones fixed so far.
        #[inline]
        pub fn begins_with<'__q>(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError>
        where
            Tenant: _sortkey::SortKeyRange<'__q>,
        {
            self.head.begins_with()
        }
    }
    #[automatically_derived]
    impl TenantQuery<1usize> {
        ///Fixes `shard` to `value` and moves on to the next field.
        #[inline]
        pub fn shard(self, value: u16) -> TenantQuery<2usize> {
            TenantQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &_sortkey::field_in(
                            <Tenant>::__SORTKEY_FIELD1,
                            &_sortkey::WHOLE_KEY,
                        ),
                        <u16 as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `shard`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn shard_range<'__q>(self) -> _sortkey::FieldRange<u16>
        where
            Tenant: _sortkey::SortKeyRange<'__q>,
        {
            _sortkey::FieldRange::new(
                self.head,
                *&_sortkey::field_in(<Tenant>::__SORTKEY_FIELD1, &_sortkey::WHOLE_KEY),
                <u16 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
                <u16 as _sortkey::KeySegment>::encode_segment,
            )
        }
        /// Ends the query with every key whose fields equal the ones fixed so far.
        #[inline]
        pub fn begins_with<'__q>(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError>
        where
            Tenant: _sortkey::SortKeyRange<'__q>,
        {
            self.head.begins_with()
        }
    }
    #[automatically_derived]
    impl TenantQuery<2usize> {
        /// Ends the query with the one key whose fields are all fixed.
        #[inline]
        pub fn eq(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError> {
            self.head.eq()
        }
        /// Every field is fixed, so this is the one key: the same as [`eq`](Self::eq).
        #[inline]
        pub fn begins_with(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError> {
            self.head.eq()
        }
    }
};
