// The expansion of the `fallback` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

::core::compile_error! {
    "field `score`: width must be at least 1, found 0"
}
/**Typed query conditions on [`Broken`] keys, from [`Broken::query`].

Fields are fixed in this order, stage `__N` having fixed the first `__N`: 0: `score`. A method of a later field on an earlier stage does not exist ("no method named ... found for `BrokenQuery<0>`"): fix the fields before it first.

`__N` counts the fields fixed so far, in declaration order. Fix the next field with the method named after it, or end with a range on it through `<field>_range()` (`gt`, `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the `QueryError` of any value that does not fit its field.*/
#[must_use = "a query does nothing until it ends with a condition"]
struct BrokenQuery<const __N: ::core::primitive::usize> {
    head: ::sk::__private_0_1_0::QueryHead,
    key: ::core::marker::PhantomData<fn() -> Broken>,
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sk::__private_0_1_0 as _sortkey;
    impl _sortkey::SortKey for Broken {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
        const SEPARATOR: ::core::primitive::char = '#';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::Option::None;
        const MAX_LEN: ::core::primitive::usize = 1024usize;
        fn encode_into(
            &self,
            _: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            ::core::unreachable!()
        }
    }
    impl<'__k> _sortkey::DecodeKey<'__k> for Broken {
        fn decode_borrowed(
            _: &'__k ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            ::core::unreachable!()
        }
    }
    impl _sortkey::FromStr for Broken {
        type Err = _sortkey::DecodeError;
        fn from_str(_: &::core::primitive::str) -> _sortkey::Result<Self, Self::Err> {
            ::core::unreachable!()
        }
    }
    impl _sortkey::KeySegment for Broken {
        const REVERSIBLE: ::core::primitive::bool = true;
        fn encode_segment(
            &self,
            _: &_sortkey::Field,
            _: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            ::core::unreachable!()
        }
    }
    impl<'__k> _sortkey::DecodeSegment<'__k> for Broken {
        fn decode_segment(
            _: &mut _sortkey::Cursor<'__k>,
            _: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            ::core::unreachable!()
        }
    }
    impl Broken {
        const __SORTKEY_FIELD0: _sortkey::Field = _sortkey::Field::new("", "", '#');
    }
    #[automatically_derived]
    impl Broken {
        ///Starts a typed query condition on `Broken` keys: see [`BrokenQuery`].
        #[inline]
        pub fn query() -> BrokenQuery<0> {
            BrokenQuery {
                head: _sortkey::QueryHead::new(
                    "Broken",
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
    impl _sortkey::Queryable for Broken {
        type Query = BrokenQuery<0>;
        #[inline]
        fn query() -> BrokenQuery<0> {
            <Broken>::query()
        }
    }
    #[automatically_derived]
    impl<const __N: ::core::primitive::usize> ::core::clone::Clone for BrokenQuery<__N> {
        #[inline]
        fn clone(&self) -> Self {
            BrokenQuery {
                head: ::core::clone::Clone::clone(&self.head),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl BrokenQuery<0usize> {
        ///Fixes `score` to `value` and moves on to the next field.
        #[inline]
        pub fn score(self, value: u64) -> BrokenQuery<1usize> {
            BrokenQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &_sortkey::field_in(
                            <Broken>::__SORTKEY_FIELD0,
                            &_sortkey::WHOLE_KEY,
                        ),
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
                *&_sortkey::field_in(<Broken>::__SORTKEY_FIELD0, &_sortkey::WHOLE_KEY),
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
    impl BrokenQuery<1usize> {
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
