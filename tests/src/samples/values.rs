//! Random values of the sample types, biased to the ends of their widths, types and ranges
//! (so that about as many are refused as encoded).

use std::time::{Duration, SystemTime};

use proptest::prelude::*;
use sortkey_core::chrono::DateTime;
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::ulid::Ulid;
use sortkey_core::uuid::Uuid;

use super::*;
use crate::{Domain, text};

/// Integers of every width, biased to the ends of the type and of a width.
pub fn int<T: std::fmt::Debug + Clone + 'static>(
    any: impl Strategy<Value = T> + 'static,
    edges: Vec<T>,
) -> BoxedStrategy<T> {
    prop_oneof![any, prop::sample::select(edges)].boxed()
}

/// Random [`Ints`]: every type's range, `m` and `n` across their `max` and width.
pub fn ints() -> impl Strategy<Value = Ints> {
    (
        (any::<u8>(), any::<u16>(), any::<u32>(), any::<u64>(), any::<u128>(), any::<usize>()),
        (any::<i8>(), any::<i16>(), any::<i32>(), any::<i64>(), any::<i128>(), any::<isize>()),
        int(0..12_000u32, vec![0, 4999, 5000, 5001, 9999, 10_000]),
        int(-20_000..20_000i32, vec![-10_000, -9999, -1, 0, 9999, 10_000]),
    )
        .prop_map(|((a, b, c, d, e, f), (g, h, i, j, k, l), m, n)| Ints {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
            k,
            l,
            m,
            n,
        })
}

/// Random [`Caps`], across each width and `max`.
pub fn caps() -> impl Strategy<Value = Caps> {
    (
        (any::<u8>(), int(0..200u8, vec![99, 100]), int(0..10_001u32, vec![5000, 5001])),
        (any::<i8>(), int(-200..200i16, vec![-100, -99, 99, 100]), any::<i128>(), any::<u128>()),
        int(-20_000..20_000i64, vec![-10_000, -9999, 9999, 10_000]),
    )
        .prop_map(|((a, b, c), (d, e, f, g), h)| Caps { a, b, c, d, e, f, g, h })
}

/// Instants to the unit's precision, beyond year 9999 and the width at times.
pub fn instant(unit_nanos: u64) -> BoxedStrategy<SystemTime> {
    let ends = [0u64, 253_402_300_799, 253_402_300_800, 9_999_999_999, 10_000_000_000];
    prop_oneof![0..300_000_000_000u64, prop::sample::select(ends.to_vec()),]
        .prop_map(move |secs| {
            SystemTime::UNIX_EPOCH + Duration::from_nanos(secs.saturating_mul(1_000_000_000) / unit_nanos * unit_nanos)
        })
        .boxed()
}

/// Random [`Times`]: millisecond and microsecond instants, an optional one.
pub fn times() -> impl Strategy<Value = Times> {
    (instant(1_000_000), 0..253_402_300_799i64, 0..1_000_000u32, prop::option::of(instant(1_000_000_000))).prop_map(
        |(at, secs, micros, plain)| Times { at, text: DateTime::from_timestamp(secs, micros * 1000).unwrap(), plain },
    )
}

/// Random [`Floats`]: any bits (NaN, infinities, zeros of both signs), decimals of scale 0 to 3.
pub fn floats() -> impl Strategy<Value = Floats> {
    let f64s = || {
        prop_oneof![
            any::<f64>(),
            prop::sample::select(vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE])
        ]
    };
    (f64s(), any::<f32>(), any::<i64>(), 0..4u32, f64s()).prop_map(|(hex, small, mantissa, scale, last)| Floats {
        hex,
        small,
        price: Decimal::new(mantissa, scale),
        last,
    })
}

/// Random [`Ids`]: any UUID and ULID, both enum names, an optional one.
pub fn ids() -> impl Strategy<Value = Ids> {
    let status = || prop::sample::select(vec![Status::Pending, Status::ShipPending]);
    (any::<u128>(), any::<u128>(), status(), prop::option::of(status())).prop_map(|(id, ulid, status, maybe)| Ids {
        id: Uuid::from_u128(id),
        ulid: Ulid::from(ulid),
        status,
        maybe,
    })
}

/// Random [`Outer`]: nested keys across their width, an optional one, a last text.
pub fn outers() -> impl Strategy<Value = Outer> {
    let inner = || int(0..1200u16, vec![999, 1000]).prop_map(|id| Inner { id });
    (inner(), prop::option::of(inner()), text('#', true, Domain::Any, 4)).prop_map(|(inner, opt, tail)| Outer {
        inner,
        opt,
        tail,
    })
}

/// Random fields of a [`Texts`] (which borrows them): a bool, a char and texts, some refused.
pub fn texts() -> impl Strategy<Value = (bool, char, String, String, String)> {
    (
        any::<bool>(),
        crate::text_char('#', false, Domain::Any),
        text('#', false, Domain::Any, 4),
        text('#', false, Domain::Any, 4),
        text('#', true, Domain::Any, 4),
    )
}

/// Random [`OrderKey`]s, across the width of `placed_at`.
pub fn orders() -> impl Strategy<Value = OrderKey> {
    (int(0..20_000_000_000u64, vec![9_999_999_999, 10_000_000_000]), text('#', true, Domain::Any, 4))
        .prop_map(|(placed_at, order_id)| OrderKey { placed_at, order_id })
}

/// Random [`Item`]s of every variant.
pub fn items() -> impl Strategy<Value = Item> {
    prop_oneof![
        Just(Item::Profile),
        orders().prop_map(Item::Order),
        int(0..200u8, vec![99, 100]).prop_map(|n| Item::Address(AddressKey { n })),
    ]
}
