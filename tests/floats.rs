//! Float segments, both forms and both widths, under random values biased to where floats are
//! hard: zeros of both signs, subnormals, `MIN_POSITIVE`, `MIN`/`MAX`, the infinities, powers of
//! ten and their neighbours (`next_up`, `next_down`), integers as floats, and random bit
//! patterns. Properties: round trip of the exact bits, byte order equals `total_cmp` order
//! (reversed for `desc`), canonical decode of mutated keys, decode never panics, and the query
//! law on float fields with exclusive bounds at neighbouring floats.

use std::cmp::Ordering;

use proptest::prelude::*;
use sortkey_core::{EncodeErrorKind, KeyCondition, QueryError, SortKey};
use sortkey_tests::law::{Call, End, LawKey, check_law, keys_and_call};
use sortkey_tests::{config, ends, mutation};

/// `f64` values where the encoding is hard, or random bits (NaN excluded).
fn f64s() -> BoxedStrategy<f64> {
    let specials = vec![
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        -f64::from_bits(1),
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::EPSILON,
        1.0,
        -1.0,
        1.5,
        -1.5,
        1.55,
        -1.55,
        0.1,
        0.3,
    ];
    let power = (-320i32..=308, -2i32..=2, any::<bool>()).prop_map(|(e, step, neg)| {
        let mut v = 10f64.powi(e);
        for _ in 0..step.abs() {
            v = if step > 0 { v.next_up() } else { v.next_down() };
        }
        if neg { -v } else { v }
    });
    let integer = any::<i64>().prop_map(|i| i as f64);
    let bits = any::<u64>().prop_map(f64::from_bits).prop_filter("not NaN", |v| !v.is_nan());
    prop_oneof![3 => prop::sample::select(specials), 3 => power, 1 => integer, 3 => bits].boxed()
}

/// `f32` values, as [`f64s`].
fn f32s() -> BoxedStrategy<f32> {
    let specials = vec![
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.5,
        -1.55,
    ];
    let power = (-45i32..=38, -2i32..=2, any::<bool>()).prop_map(|(e, step, neg)| {
        let mut v = 10f32.powi(e);
        for _ in 0..step.abs() {
            v = if step > 0 { v.next_up() } else { v.next_down() };
        }
        if neg { -v } else { v }
    });
    let bits = any::<u32>().prop_map(f32::from_bits).prop_filter("not NaN", |v| !v.is_nan());
    prop_oneof![3 => prop::sample::select(specials), 3 => power, 3 => bits].boxed()
}

/// Every form at once: readable and hex, ascending and `desc`, both widths, last and not.
#[derive(SortKey, Debug, Clone, Copy, PartialEq)]
#[key(prefix = "F")]
struct Floats {
    a: f64,
    #[key(desc)]
    b: f64,
    #[key(format = "hex")]
    c: f64,
    #[key(format = "hex", desc)]
    d: f32,
    e: f32,
    #[key(desc)]
    last: f32,
}

fn floats() -> impl Strategy<Value = Floats> {
    (f64s(), f64s(), f64s(), f32s(), f32s(), f32s()).prop_map(|(a, b, c, d, e, last)| Floats { a, b, c, d, e, last })
}

/// Field by field, `total_cmp`, `desc` fields reversed.
fn reference_cmp(x: &Floats, y: &Floats) -> Ordering {
    x.a.total_cmp(&y.a)
        .then(y.b.total_cmp(&x.b))
        .then(x.c.total_cmp(&y.c))
        .then(y.d.total_cmp(&x.d))
        .then(x.e.total_cmp(&y.e))
        .then(y.last.total_cmp(&x.last))
}

fn same_bits(x: &Floats, y: &Floats) -> bool {
    (x.a.to_bits(), x.b.to_bits(), x.c.to_bits()) == (y.a.to_bits(), y.b.to_bits(), y.c.to_bits())
        && (x.d.to_bits(), x.e.to_bits(), x.last.to_bits()) == (y.d.to_bits(), y.e.to_bits(), y.last.to_bits())
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn round_trip_gives_the_exact_bits(x in floats()) {
        let key = x.encode()?;
        let back = Floats::decode(&key)?;
        prop_assert!(same_bits(&x, &back), "{x:?} -> {key} -> {back:?}");
    }

    #[test]
    fn byte_order_is_total_cmp_order(x in floats(), y in floats()) {
        let (kx, ky) = (x.encode()?, y.encode()?);
        prop_assert_eq!(kx.as_bytes().cmp(ky.as_bytes()), reference_cmp(&x, &y), "{:?} {:?}\n{}\n{}", x, y, kx, ky);
    }

    #[test]
    fn single_fields_keep_their_order(a in f64s(), b in f64s()) {
        // Neighbours and equal values are frequent here, which the 6-field key rarely meets.
        let key = |v: f64| Floats { a: v, b: 0.0, c: 0.0, d: 0.0, e: 0.0, last: 0.0 }.encode().unwrap();
        prop_assert_eq!(key(a).cmp(&key(b)), a.total_cmp(&b), "{} {}", a, b);
        prop_assert_eq!(key(a).cmp(&key(a.next_up())), a.total_cmp(&a.next_up()));
    }

    #[test]
    fn nan_is_refused(x in floats(), which in 0..6usize, payload in any::<u64>()) {
        let nan = f64::from_bits(0x7FF8_0000_0000_0000 | (payload & 0xF_FFFF_FFFF_FFFF));
        let mut bad = x;
        match which {
            0 => bad.a = nan,
            1 => bad.b = -nan,
            2 => bad.c = nan,
            3 => bad.d = nan as f32,
            4 => bad.e = f32::NAN,
            _ => bad.last = -f32::NAN,
        }
        let e = bad.encode().unwrap_err();
        prop_assert_eq!(e.kind(), &EncodeErrorKind::NotANumber);
    }

    #[test]
    fn mutated_keys_decode_canonically_or_not_at_all(x in floats(), m in mutation('#')) {
        if let Some(key) = m.apply(&x.encode()?)
            && let Ok(v) = Floats::decode(&key)
        {
            prop_assert_eq!(v.encode()?, key);
        }
    }

    #[test]
    fn decode_never_panics(key in "F#[AMNOPZ0-9~#a-f]{0,40}") {
        if let Ok(v) = Floats::decode(&key) {
            prop_assert_eq!(v.encode()?, key);
        }
    }
}

/// A float in the middle of a key, queried: prices of a product line.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "P")]
struct Priced {
    line: String,
    price: f64,
    #[key(desc)]
    rating: f32,
}

impl LawKey for Priced {
    const N: usize = 3;
    const HAS_PREFIX: bool = true;
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => self.line.as_bytes().cmp(o.line.as_bytes()),
            1 => self.price.total_cmp(&o.price),
            _ => self.rating.total_cmp(&o.rating),
        }
    }
    fn text(&self, i: usize) -> Option<&str> {
        (i == 0).then_some(self.line.as_str())
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Priced::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| &t.line, line_range, text),
            1 => ends!(q.line(&f.line), c, |t| t.price, price_range),
            2 => ends!(q.line(&f.line).price(f.price), c, |t| t.rating, rating_range),
            _ => {
                let q = q.line(&f.line).price(f.price).rating(f.rating);
                if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
            }
        }
    }
}

/// Prices clustered around a few values and their neighbouring floats, so that exclusive
/// bounds at a neighbour are met often.
fn priced() -> BoxedStrategy<Priced> {
    let near = |vs: Vec<f64>| {
        (prop::sample::select(vs), -1i32..=1).prop_map(|(v, step)| match step {
            -1 => v.next_down(),
            1 => v.next_up(),
            _ => v,
        })
    };
    let price = prop_oneof![3 => near(vec![0.0, -0.0, 1.5, 1.55, 19.99, -2.5, 1e300, f64::INFINITY]), 1 => f64s()];
    let rating = prop_oneof![3 => prop::sample::select(vec![0.0f32, 4.5, -4.5, 5.0, f32::NEG_INFINITY]), 1 => f32s()];
    (prop::sample::select(vec!["a", "b", "ab"]), price, rating)
        .prop_map(|(line, price, rating)| Priced { line: line.to_owned(), price, rating })
        .boxed()
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn query_law_on_float_fields((keys, call) in keys_and_call(priced())) {
        check_law(&call, &keys)?;
    }
}
