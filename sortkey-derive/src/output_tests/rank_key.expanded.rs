// The expansion of the `rank_key` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

/**Typed query conditions on [`RankKey`] keys, from [`RankKey::query`].

Fields are fixed in this order, stage `__N` having fixed the first `__N`: 0: `score`, 1: `timestamp`, 2: `player_id`. A method of a later field on an earlier stage does not exist ("no method named ... found for `RankKeyQuery<0>`"): fix the fields before it first.

`__N` counts the fields fixed so far, in declaration order. Fix the next field with the method named after it, or end with a range on it through `<field>_range()` (`gt`, `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the `QueryError` of any value that does not fit its field.*/
#[must_use = "a query does nothing until it ends with a condition"]
pub struct RankKeyQuery<const __N: ::core::primitive::usize> {
    head: ::sortkey_core::__private_0_1_0::QueryHead,
    key: ::core::marker::PhantomData<fn() -> RankKey>,
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl RankKey {
        const __SORTKEY_FIELD0: _sortkey::Field = _sortkey::Field::new(
                "RankKey",
                "score",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <u64 as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::Some(10u32),
                ),
            )
            .with_desc(true);
        const __SORTKEY_FIELD1: _sortkey::Field = _sortkey::Field::new(
                "RankKey",
                "timestamp",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <u64 as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::Some(16u32),
                ),
            );
        const __SORTKEY_FIELD2: _sortkey::Field = _sortkey::Field::new(
                "RankKey",
                "player_id",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <String as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_LAYOUT: &'static [_sortkey::FieldLayout] = &[
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD0,
                <u64 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD1,
                <u64 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD2,
                <String as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
        ];
    }
    #[automatically_derived]
    impl _sortkey::SortKey for RankKey {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::Some(
            "RUN",
        );
        const SEPARATOR: ::core::primitive::char = '#';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::add_len(
            _sortkey::add_len(
                _sortkey::add_len(
                    _sortkey::Option::Some(6usize),
                    _sortkey::segment_len_of(
                        <u64 as _sortkey::KeySegment>::WIDTH,
                        Self::__SORTKEY_FIELD0.width(),
                        <u64 as _sortkey::KeySegment>::VARIABLE_LEN,
                    ),
                ),
                _sortkey::segment_len_of(
                    <u64 as _sortkey::KeySegment>::WIDTH,
                    Self::__SORTKEY_FIELD1.width(),
                    <u64 as _sortkey::KeySegment>::VARIABLE_LEN,
                ),
            ),
            _sortkey::segment_len_of(
                <String as _sortkey::KeySegment>::WIDTH,
                Self::__SORTKEY_FIELD2.width(),
                <String as _sortkey::KeySegment>::VARIABLE_LEN,
            ),
        );
        const MAX_LEN: ::core::primitive::usize = 1024usize;
        const ROLE: _sortkey::KeyRole = _sortkey::KeyRole::Sort;
        const LAYOUT: _sortkey::Layout = _sortkey::Layout::fields(
            _sortkey::Option::Some("RUN"),
            '#',
            1024usize,
            _sortkey::KeyRole::Sort,
            Self::__SORTKEY_LAYOUT,
        );
        #[inline]
        fn encode_into(
            &self,
            __out: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            _sortkey::encode_whole(self, __out, "RankKey", 1024usize)
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeKey<'__k> for RankKey {
        #[inline]
        fn decode_borrowed(
            __key: &'__k ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            _sortkey::decode_whole::<Self>(__key, "RankKey", 1024usize)
        }
    }
    #[automatically_derived]
    impl _sortkey::FromStr for RankKey {
        type Err = _sortkey::DecodeError;
        #[inline]
        fn from_str(
            __key: &::core::primitive::str,
        ) -> _sortkey::Result<Self, Self::Err> {
            <Self as _sortkey::SortKey>::decode(__key)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for RankKey {
        /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
        #[inline]
        fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            _sortkey::display_key(self, __f)
        }
    }
    _sortkey::serde_impls!(RankKey);
    #[automatically_derived]
    impl _sortkey::KeySegment for RankKey {
        const WIDTH: _sortkey::Width = _sortkey::nested_width(
            <Self as _sortkey::SortKey>::ENCODED_LEN,
        );
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(
            <String as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
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
            let _ = __segment;
            __out.push_str("RUN#");
            <u64 as _sortkey::KeySegment>::encode_segment(
                &self.score,
                &Self::__SORTKEY_FIELD0,
                __out,
            )?;
            __out.push('#');
            <u64 as _sortkey::KeySegment>::encode_segment(
                &self.timestamp,
                &Self::__SORTKEY_FIELD1,
                __out,
            )?;
            __out.push('#');
            <String as _sortkey::KeySegment>::encode_segment(
                &self.player_id,
                &_sortkey::field_in(Self::__SORTKEY_FIELD2, __segment),
                __out,
            )?;
            _sortkey::Result::Ok(())
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeSegment<'__k> for RankKey {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'__k>,
            __segment: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let _ = __segment;
            _sortkey::expect_prefix(__cursor, "RUN#")?;
            let __field0 = <u64 as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD0)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD0)?;
            let __field1 = <u64 as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD1)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD1)?;
            let __field2 = <String as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(
                __cursor,
                &_sortkey::field_in(Self::__SORTKEY_FIELD2, __segment),
            )?;
            let __value = _sortkey::Result::Ok(Self {
                score: __field0,
                timestamp: __field1,
                player_id: __field2,
            });
            __value
        }
    }
    #[automatically_derived]
    impl RankKey {
        ///Starts a typed query condition on `RankKey` keys: see [`RankKeyQuery`].
        #[inline]
        pub fn query() -> RankKeyQuery<0> {
            RankKeyQuery {
                head: _sortkey::QueryHead::new(
                    "RankKey",
                    <Self as _sortkey::SortKey>::PREFIX,
                    <Self as _sortkey::SortKey>::SEPARATOR,
                    1024usize,
                    <Self as _sortkey::SortKey>::ROLE,
                ),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl _sortkey::Queryable for RankKey {
        type Query = RankKeyQuery<0>;
        #[inline]
        fn query() -> RankKeyQuery<0> {
            <RankKey>::query()
        }
    }
    #[automatically_derived]
    impl<const __N: ::core::primitive::usize> ::core::clone::Clone
    for RankKeyQuery<__N> {
        #[inline]
        fn clone(&self) -> Self {
            RankKeyQuery {
                head: ::core::clone::Clone::clone(&self.head),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl RankKeyQuery<0usize> {
        ///Fixes `score` to `value` and moves on to the next field.
        #[inline]
        pub fn score(self, value: u64) -> RankKeyQuery<1usize> {
            RankKeyQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &<RankKey>::__SORTKEY_FIELD0,
                        <u64 as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `score`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn score_range(self) -> _sortkey::FieldRange<u64> {
            _sortkey::FieldRange::new(
                self.head,
                *&<RankKey>::__SORTKEY_FIELD0,
                <u64 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
                <u64 as _sortkey::KeySegment>::encode_segment,
            )
        }
        /// Ends the query with every key whose fields equal the ones fixed so far.
        #[inline]
        pub fn begins_with(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError> {
            self.head.begins_with()
        }
    }
    #[automatically_derived]
    impl RankKeyQuery<1usize> {
        ///Fixes `timestamp` to `value` and moves on to the next field.
        #[inline]
        pub fn timestamp(self, value: u64) -> RankKeyQuery<2usize> {
            RankKeyQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &<RankKey>::__SORTKEY_FIELD1,
                        <u64 as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `timestamp`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn timestamp_range(self) -> _sortkey::FieldRange<u64> {
            _sortkey::FieldRange::new(
                self.head,
                *&<RankKey>::__SORTKEY_FIELD1,
                <u64 as _sortkey::KeySegment>::SEGMENT_LAYOUT,
                <u64 as _sortkey::KeySegment>::encode_segment,
            )
        }
        /// Ends the query with every key whose fields equal the ones fixed so far.
        #[inline]
        pub fn begins_with(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError> {
            self.head.begins_with()
        }
    }
    #[automatically_derived]
    impl RankKeyQuery<2usize> {
        ///Fixes `player_id` to `value` and moves on to the next field.
        #[inline]
        pub fn player_id(self, value: &::core::primitive::str) -> RankKeyQuery<3usize> {
            RankKeyQuery {
                head: self
                    .head
                    .fix(
                        value,
                        &_sortkey::field_in(
                            <RankKey>::__SORTKEY_FIELD2,
                            &_sortkey::WHOLE_KEY,
                        ),
                        <::core::primitive::str as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `player_id`: `gt`, `gte`, `lt`, `lte`, `between` or `begins_with` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn player_id_range(self) -> _sortkey::TextRange {
            _sortkey::TextRange::new(
                self.head,
                *&_sortkey::field_in(<RankKey>::__SORTKEY_FIELD2, &_sortkey::WHOLE_KEY),
            )
        }
        /// Ends the query with every key whose fields equal the ones fixed so far.
        #[inline]
        pub fn begins_with(
            self,
        ) -> _sortkey::Result<_sortkey::KeyCondition, _sortkey::QueryError> {
            self.head.begins_with()
        }
    }
    #[automatically_derived]
    impl RankKeyQuery<3usize> {
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
