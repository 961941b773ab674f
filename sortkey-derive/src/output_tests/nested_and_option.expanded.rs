// The expansion of the `nested_and_option` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

/**Typed query conditions on [`Release`] keys, from [`Release::query`].

Fields are fixed in this order, stage `__N` having fixed the first `__N`: 0: `package`, 1: `version`, 2: `patch`, 3: `at`. A method of a later field on an earlier stage does not exist ("no method named ... found for `ReleaseQuery<0>`"): fix the fields before it first.

`__N` counts the fields fixed so far, in declaration order. Fix the next field with the method named after it, or end with a range on it through `<field>_range()` (`gt`, `gte`, `lt`, `lte`, `between`, and `begins_with` for text), or with `begins_with()`; once every field is fixed, `eq()`. Each ending returns a `KeyCondition`, or the `QueryError` of any value that does not fit its field.*/
#[must_use = "a query does nothing until it ends with a condition"]
struct ReleaseQuery<const __N: ::core::primitive::usize> {
    head: ::sortkey_core::__private_0_1_0::QueryHead,
    key: ::core::marker::PhantomData<fn() -> Release>,
}
#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl _sortkey::FieldSegment<1usize> for Release {
        type Segment = Version;
    }
    #[automatically_derived]
    impl Release {
        const __SORTKEY_FIELD0: _sortkey::Field = _sortkey::Field::new(
                "Release",
                "package",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <String as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_FIELD1: _sortkey::Field = _sortkey::Field::new(
                "Release",
                "version",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    _sortkey::Of::<Self, 1usize>::WIDTH,
                    _sortkey::Option::None,
                ),
            );
        const __SORTKEY_FIELD2: _sortkey::Field = _sortkey::Field::new(
                "Release",
                "patch",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <Option<u16> as _sortkey::KeySegment>::WIDTH,
                    _sortkey::Option::Some(3u32),
                ),
            )
            .with_max(_sortkey::Option::Some(500u128));
        const __SORTKEY_FIELD3: _sortkey::Field = _sortkey::Field::new(
                "Release",
                "at",
                '#',
            )
            .with_width(
                _sortkey::resolve_width(
                    <SystemTime as _sortkey::KeySegment>::WIDTH,
                    _sortkey::time_width(
                        _sortkey::Option::None,
                        _sortkey::TimeFormat::Unix(_sortkey::TimeUnit::Millis),
                    ),
                ),
            )
            .with_desc(true)
            .with_time(_sortkey::TimeFormat::Unix(_sortkey::TimeUnit::Millis));
        const __SORTKEY_LAYOUT: &'static [_sortkey::FieldLayout] = &[
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD0,
                <String as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD1,
                _sortkey::Of::<Self, 1usize>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD2,
                <Option<u16> as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
            _sortkey::FieldLayout::new(
                Self::__SORTKEY_FIELD3,
                <SystemTime as _sortkey::KeySegment>::SEGMENT_LAYOUT,
            ),
        ];
    }
    const _: () = {
        _sortkey::assert!(
            _sortkey::nested_separator_matches(_sortkey::Of:: < Release, 1usize >
            ::CAPABILITIES, '#'),
            "field `version`: the nested key `Version` must use this key's separator '#'; expected `#[key(separator = '#')]` on `Version`, found another separator"
        );
    };
    const _: () = {
        _sortkey::assert!(
            _sortkey::least_byte_fits(_sortkey::Of:: < Release, 1usize > ::CAPABILITIES,
            '#'),
            "field `version`: `Version` is not the last field, so its encodings may contain only characters greater than the separator '#', but one of them (a variant name, or a float's digits) contains a character at or below it; expected a separator below '0' such as '#', other names (`#[key(rename = \"...\")]`), or this field last"
        );
    };
    #[automatically_derived]
    impl _sortkey::SortKey for Release {
        const PREFIX: _sortkey::Option<&'static ::core::primitive::str> = _sortkey::Option::None;
        const SEPARATOR: ::core::primitive::char = '#';
        const ENCODED_LEN: _sortkey::Option<::core::primitive::usize> = _sortkey::add_len(
            _sortkey::add_len(
                _sortkey::add_len(
                    _sortkey::add_len(
                        _sortkey::Option::Some(3usize),
                        _sortkey::segment_len_of(
                            <String as _sortkey::KeySegment>::WIDTH,
                            Self::__SORTKEY_FIELD0.width(),
                            <String as _sortkey::KeySegment>::VARIABLE_LEN,
                        ),
                    ),
                    _sortkey::segment_len_of(
                        _sortkey::Of::<Self, 1usize>::WIDTH,
                        Self::__SORTKEY_FIELD1.width(),
                        _sortkey::Of::<Self, 1usize>::VARIABLE_LEN,
                    ),
                ),
                _sortkey::segment_len_of(
                    <Option<u16> as _sortkey::KeySegment>::WIDTH,
                    Self::__SORTKEY_FIELD2.width(),
                    <Option<u16> as _sortkey::KeySegment>::VARIABLE_LEN,
                ),
            ),
            _sortkey::segment_len_of(
                <SystemTime as _sortkey::KeySegment>::WIDTH,
                Self::__SORTKEY_FIELD3.width(),
                <SystemTime as _sortkey::KeySegment>::VARIABLE_LEN,
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
            _sortkey::encode_whole(self, __out, "Release", 1024usize)
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeKey<'__k> for Release {
        #[inline]
        fn decode_borrowed(
            __key: &'__k ::core::primitive::str,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            _sortkey::decode_whole::<Self>(__key, "Release", 1024usize)
        }
    }
    #[automatically_derived]
    impl _sortkey::FromStr for Release {
        type Err = _sortkey::DecodeError;
        #[inline]
        fn from_str(
            __key: &::core::primitive::str,
        ) -> _sortkey::Result<Self, Self::Err> {
            <Self as _sortkey::SortKey>::decode(__key)
        }
    }
    #[automatically_derived]
    impl ::core::fmt::Display for Release {
        /// The key's encoding; a value that cannot be encoded is a `fmt::Error`.
        #[inline]
        fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            _sortkey::display_key(self, __f)
        }
    }
    _sortkey::serde_impls!(Release);
    #[automatically_derived]
    impl _sortkey::KeySegment for Release {
        const WIDTH: _sortkey::Width = _sortkey::nested_width(
            <Self as _sortkey::SortKey>::ENCODED_LEN,
        );
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::key_capabilities(
            <SystemTime as _sortkey::KeySegment>::CAPABILITIES.least_byte(),
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
            <String as _sortkey::KeySegment>::encode_segment(
                &self.package,
                &Self::__SORTKEY_FIELD0,
                __out,
            )?;
            __out.push('#');
            _sortkey::Of::<
                Self,
                1usize,
            >::encode_segment(&self.version, &Self::__SORTKEY_FIELD1, __out)?;
            __out.push('#');
            <Option<
                u16,
            > as _sortkey::KeySegment>::encode_segment(
                &self.patch,
                &Self::__SORTKEY_FIELD2,
                __out,
            )?;
            __out.push('#');
            <SystemTime as _sortkey::KeySegment>::encode_segment(
                &self.at,
                &_sortkey::field_in(Self::__SORTKEY_FIELD3, __segment),
                __out,
            )?;
            _sortkey::Result::Ok(())
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeSegment<'__k> for Release {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'__k>,
            __segment: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let _ = __segment;
            use _sortkey::{
                DecodeField as _, DecodeNoSegment as _, DecodeOnlyEncodes as _,
            };
            let __field0 = <String as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD0)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD0)?;
            let __field1 = (&&&_sortkey::Decode::<Version>::NEW)
                .decode(__cursor, &Self::__SORTKEY_FIELD1)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD1)?;
            let __field2 = <Option<
                u16,
            > as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(__cursor, &Self::__SORTKEY_FIELD2)?;
            _sortkey::expect_separator(__cursor, "#", &Self::__SORTKEY_FIELD2)?;
            let __field3 = <SystemTime as _sortkey::DecodeSegment<
                '_,
            >>::decode_segment(
                __cursor,
                &_sortkey::field_in(Self::__SORTKEY_FIELD3, __segment),
            )?;
            let __value = _sortkey::Result::Ok(Self {
                package: __field0,
                version: __field1,
                patch: __field2,
                at: __field3,
            });
            __value
        }
    }
    #[automatically_derived]
    impl Release {
        ///Starts a typed query condition on `Release` keys: see [`ReleaseQuery`].
        #[inline]
        pub fn query() -> ReleaseQuery<0> {
            ReleaseQuery {
                head: _sortkey::QueryHead::new(
                    "Release",
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
    impl _sortkey::Queryable for Release {
        type Query = ReleaseQuery<0>;
        #[inline]
        fn query() -> ReleaseQuery<0> {
            <Release>::query()
        }
    }
    #[automatically_derived]
    impl<const __N: ::core::primitive::usize> ::core::clone::Clone
    for ReleaseQuery<__N> {
        #[inline]
        fn clone(&self) -> Self {
            ReleaseQuery {
                head: ::core::clone::Clone::clone(&self.head),
                key: ::core::marker::PhantomData,
            }
        }
    }
    #[automatically_derived]
    impl ReleaseQuery<0usize> {
        ///Fixes `package` to `value` and moves on to the next field.
        #[inline]
        pub fn package(self, value: &::core::primitive::str) -> ReleaseQuery<1usize> {
            ReleaseQuery {
                head: self
                    .head
                    .fix(
                        value,
                        &<Release>::__SORTKEY_FIELD0,
                        <::core::primitive::str as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `package`: `gt`, `gte`, `lt`, `lte`, `between` or `begins_with` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn package_range(self) -> _sortkey::TextRange {
            _sortkey::TextRange::new(self.head, *&<Release>::__SORTKEY_FIELD0)
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
    impl ReleaseQuery<1usize> {
        ///Fixes `version` to `value` and moves on to the next field.
        #[inline]
        pub fn version(self, value: Version) -> ReleaseQuery<2usize> {
            ReleaseQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &<Release>::__SORTKEY_FIELD1,
                        _sortkey::Of::<Release, 1usize>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `version`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn version_range(self) -> _sortkey::FieldRange<Version> {
            _sortkey::FieldRange::new(
                self.head,
                *&<Release>::__SORTKEY_FIELD1,
                _sortkey::Of::<Release, 1usize>::SEGMENT_LAYOUT,
                _sortkey::Of::<Release, 1usize>::encode_segment,
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
    impl ReleaseQuery<2usize> {
        ///Fixes `patch` to `value` and moves on to the next field.
        #[inline]
        pub fn patch(self, value: Option<u16>) -> ReleaseQuery<3usize> {
            ReleaseQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &<Release>::__SORTKEY_FIELD2,
                        <Option<u16> as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `patch`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn patch_range(self) -> _sortkey::FieldRange<Option<u16>> {
            _sortkey::FieldRange::new(
                self.head,
                *&<Release>::__SORTKEY_FIELD2,
                <Option<u16> as _sortkey::KeySegment>::SEGMENT_LAYOUT,
                <Option<u16> as _sortkey::KeySegment>::encode_segment,
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
    impl ReleaseQuery<3usize> {
        ///Fixes `at` to `value` and moves on to the next field.
        #[inline]
        pub fn at(self, value: SystemTime) -> ReleaseQuery<4usize> {
            ReleaseQuery {
                head: self
                    .head
                    .fix(
                        &value,
                        &_sortkey::field_in(
                            <Release>::__SORTKEY_FIELD3,
                            &_sortkey::WHOLE_KEY,
                        ),
                        <SystemTime as _sortkey::KeySegment>::encode_segment,
                    ),
                key: ::core::marker::PhantomData,
            }
        }
        ///Ends the query with a range on `at`: `gt`, `gte`, `lt`, `lte`, `between` (the bounds of a `desc` field are swapped for you).
        #[inline]
        pub fn at_range(self) -> _sortkey::FieldRange<SystemTime> {
            _sortkey::FieldRange::new(
                self.head,
                *&_sortkey::field_in(<Release>::__SORTKEY_FIELD3, &_sortkey::WHOLE_KEY),
                <SystemTime as _sortkey::KeySegment>::SEGMENT_LAYOUT,
                <SystemTime as _sortkey::KeySegment>::encode_segment,
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
    impl ReleaseQuery<4usize> {
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
