// The expansion of the `enum_rename_all` case of src/output_tests.rs; rewritten by
// `UPDATE_EXPANDED=1 cargo test -p sortkey-derive output_tests`, not by hand.

#[doc(hidden)]
#[allow(unused_qualifications, non_local_definitions, clippy::all)]
const _: () = {
    use ::sortkey_core::__private_0_1_0 as _sortkey;
    #[automatically_derived]
    impl _sortkey::KeySegment for Status {
        const WIDTH: _sortkey::Width = _sortkey::Width::Variable;
        const REVERSIBLE: ::core::primitive::bool = false;
        const MAX_VALUE: _sortkey::Option<::core::primitive::u128> = _sortkey::Option::None;
        const CAPABILITIES: _sortkey::Capabilities = _sortkey::Capabilities::PLAIN
            .with_least_byte(95u8);
        const SEGMENT_LAYOUT: _sortkey::SegmentLayout = _sortkey::SegmentLayout::Enum(
            &["pending", "in_transit", "done"],
        );
        #[inline]
        fn encode_segment(
            &self,
            __field: &_sortkey::Field,
            __out: &mut _sortkey::String,
        ) -> _sortkey::Result<(), _sortkey::EncodeError> {
            let __name = match self {
                Self::Pending => "pending",
                Self::InTransit => "in_transit",
                Self::Delivered => "done",
            };
            _sortkey::encode_name(__name, __field, __out)
        }
    }
    #[automatically_derived]
    impl<'__k> _sortkey::DecodeSegment<'__k> for Status {
        #[inline]
        fn decode_segment(
            __cursor: &mut _sortkey::Cursor<'__k>,
            __field: &_sortkey::Field,
        ) -> _sortkey::Result<Self, _sortkey::DecodeError> {
            let (__start, __text) = _sortkey::take_name(__cursor, __field)?;
            match __text {
                "pending" => _sortkey::Result::Ok(Self::Pending),
                "in_transit" => _sortkey::Result::Ok(Self::InTransit),
                "done" => _sortkey::Result::Ok(Self::Delivered),
                _ => {
                    _sortkey::Result::Err(
                        _sortkey::unknown_name(
                            __cursor,
                            __start,
                            __field,
                            &["pending", "in_transit", "done"],
                            __text,
                        ),
                    )
                }
            }
        }
    }
    #[automatically_derived]
    impl _sortkey::KeyScalar for Status {
        const TYPE: _sortkey::ScalarType = _sortkey::ScalarType::S;
        #[inline]
        fn to_scalar(&self) -> _sortkey::ScalarValue {
            let __name = match self {
                Self::Pending => "pending",
                Self::InTransit => "in_transit",
                Self::Delivered => "done",
            };
            _sortkey::ScalarValue::S(::std::borrow::ToOwned::to_owned(__name))
        }
    }
};
