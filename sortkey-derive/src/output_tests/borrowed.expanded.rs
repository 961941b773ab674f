// The expansion of the `borrowed` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

/**Typed query conditions on [`Path`] keys, from [`Path::query`].

Fields are fixed in this order, stage `__N` having fixed the first `__N`: 0: `dir`, 1: `file`. A method of a later field on an earlier stage does not exist ("no method named ... found for `PathQuery<0>`"): fix the fields before it first.

`__N` counts the fields fixed so far, in declaration order. Fix the next field with the method named after it, or end with a range on it through `<field>_range()` (`gt`, `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the `QueryError` of any value that does not fit its field.*/
#[must_use = "a query does nothing until it ends with a condition"]
struct PathQuery<'a, const __N: ::core::primitive::usize> {
    head: ::sortkey_core::__private_0_1_0::QueryHead,
    key: ::core::marker::PhantomData<fn() -> Path<'a>>,
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl<'a> Path<'a> {
        const __SORTKEY_FIELD0: _sortkey::Field = _sortkey::Field::new(
                "Path",
                "dir",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <&'a str as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_FIELD1: _sortkey::Field = _sortkey::Field::new(
                "Path",
                "file",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <Cow<'a, str> as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_LAYOUT: &'static [_sortkey::FieldLayout] = &[
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD0,
                <&'a str as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD1,
                <Cow<'a, str> as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
        ];
    }
    #[automatically_derived]
    impl<'a> _sortkey::SortKey for Path<'a> {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
        const SEPARATOR: ::core::primitive::char = '#';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::add_len(
            _sortkey::add_len(
                _sortkey::Option::Some(1usize),
                _sortkey::segment_len_of(
                    <&'a str as _sortkey::KeySegment>::WIDTH,
                    Self::__SORTKEY_FIELD0.width(),
                    <&'a str as _sortkey::KeySegment>::VARIABLE_LEN,
                ),
            ),
            _sortkey::segment_len_of(
                <Cow<'a, str> as _sortkey::KeySegment>::WIDTH,
                Self::__SORTKEY_FIELD1.width(),
                <Cow<'a, str> as _sortkey::KeySegment>::VARIABLE_LEN,
            ),
        );
        const MAX_LEN: ::core::primitive::usize = 1024usize;
        const ROLE: _sortkey::KeyRole = _sortkey::KeyRole::Sort;
        const LAYOUT: _sortkey::Layout = _sortkey::Layout::fields(
            _sortkey::Option::None,
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
            _sortkey::encode_whole(self, __out, "Path", 1024usize)
        }
    }
    #[automatically_derived]
    impl<'a> _sortkey::DecodeKey<'a> for Path<'a> {
        #[inline]
        fn decode_borrowed(
            __key: &'a ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            _sortkey::decode_whole::<Self>(__key, "Path", 1024usize)
        }
    }
    #[automatically_derived]
    impl<'a> ::core::fmt::Display for Path<'a> {
        /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
        #[inline]
        fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            _sortkey::display_key(self, __f)
        }
    }
    #[automatically_derived]
    impl<'a> _sortkey::KeySegment for Path<'a> {
        const WIDTH: _sortkey::Width = _sortkey::nested_width(
            <Self as _sortkey::SortKey>::ENCODED_LEN,
        );
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(
            <Cow<'a, str> as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
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
            <&'a str as _sortkey::KeySegment>::encode_segment(
                &self.dir,
                &Self::__SORTKEY_FIELD0,
                __out,
            )?;
            __out.push('#');
            <Cow<
                'a,
                str,
            > as _sortkey::KeySegment>::encode_segment(
                &self.file,
                &_sortkey::field_in(Self::__SORTKEY_FIELD1, __segment),
                __out,
            )?;
            _sortkey::Result::Ok(())
        }
    }
    #[automatically_derived]
    impl<'a> _sortkey::DecodeSegment<'a> for Path<'a> {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'a>,
            __segment: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let _ = __segment;
            let __field0 = <&'a str as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD0)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD0)?;
            let __field1 = <Cow<
                'a,
                str,
            > as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(
                __cursor,
                &_sortkey::field_in(Self::__SORTKEY_FIELD1, __segment),
            )?;
            let __value = _sortkey::Result::Ok(Self {
                dir: __field0,
                file: __field1,
            });
            __value
        }
    }
    #[automatically_derived]
    impl<'a> Path<'a> {
        ///Starts a typed query condition on `Path` keys: see [`PathQuery`].
        #[inline]
        pub fn query() -> PathQuery<'a, 0> {
            PathQuery {
                head: _sortkey::QueryHead::new(
                    "Path",
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
    impl<'a> _sortkey::Queryable for Path<'a> {
        type Query = PathQuery<'a, 0>;
        #[inline]
        fn query() -> PathQuery<'a, 0> {
            <Path<'a>>::query()
        }
    }
    #[automatically_derived]
    impl<'a, const __N: ::core::primitive::usize> ::core::clone::Clone
    for PathQuery<'a, __N> {
        #[inline]
        fn clone(&self) -> Self {
            PathQuery {
                head: ::core::clone::Clone::clone(&self.head),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl<'a> PathQuery<'a, 0usize> {
        ///Fixes `dir` to `value` and moves on to the next field.
        #[inline]
        pub fn dir(self, value: &::core::primitive::str) -> PathQuery<'a, 1usize> {
            PathQuery {
                head: self
                    .head
                    .fix(
                        value,
                        &<Path<'a>>::__SORTKEY_FIELD0,
                        <::core::primitive::str as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `dir`: `gt`, `gte`, `lt`, `lte`, `between` or `begins_with` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn dir_range(self) -> _sortkey::TextRange {
            _sortkey::TextRange::new(self.head, *&<Path<'a>>::__SORTKEY_FIELD0)
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
    impl<'a> PathQuery<'a, 1usize> {
        ///Fixes `file` to `value` and moves on to the next field.
        #[inline]
        pub fn file(self, value: &::core::primitive::str) -> PathQuery<'a, 2usize> {
            PathQuery {
                head: self
                    .head
                    .fix(
                        value,
                        &_sortkey::field_in(
                            <Path<'a>>::__SORTKEY_FIELD1,
                            &_sortkey::WHOLE_KEY,
                        ),
                        <::core::primitive::str as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `file`: `gt`, `gte`, `lt`, `lte`, `between` or `begins_with` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn file_range(self) -> _sortkey::TextRange {
            _sortkey::TextRange::new(
                self.head,
                *&_sortkey::field_in(<Path<'a>>::__SORTKEY_FIELD1, &_sortkey::WHOLE_KEY),
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
    impl<'a> PathQuery<'a, 2usize> {
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
