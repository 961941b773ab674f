//! `rust_decimal::Decimal` as a fixed-point segment (`#[key(scale = N)]`): round trip by value,
//! byte order equals the order of the values (reversed for `desc`), more fractional digits than
//! the scale and values wider than the width are errors, mutated keys decode canonically or
//! not at all, and the query law on a price field.

use std::cmp::Ordering;

use proptest::prelude::*;
use sortkey_core::rust_decimal::Decimal;
use sortkey_core::{EncodeErrorKind, KeyCondition, QueryError, SortKey};
use sortkey_tests::law::{Call, End, LawKey, check_law, keys_and_call};
use sortkey_tests::{config, ends, mutation};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "CAT")]
struct Catalogue {
    #[key(scale = 2, width = 12)]
    price: Decimal,
    #[key(scale = 1, width = 4, desc)]
    rating: Decimal,
    sku: String,
}

/// Decimals with at most `scale` fractional digits, biased to zero, the width's edges and
/// neighbours one unit of the last place apart.
fn decimal(scale: u32, width: u32) -> BoxedStrategy<Decimal> {
    let limit = 10i64.pow(width - 1) - 1;
    let edges: Vec<i64> =
        [0, 1, -1, limit, -limit, limit - 1, 1999, 1990, -1999].into_iter().filter(|e| e.abs() <= limit).collect();
    prop_oneof![2 => prop::sample::select(edges), 1 => -limit..=limit]
        .prop_map(move |units| Decimal::new(units, scale))
        .boxed()
}

fn catalogue() -> BoxedStrategy<Catalogue> {
    (decimal(2, 12), decimal(1, 4), prop::sample::select(vec!["a", "b", "ab", ""]))
        .prop_map(|(price, rating, sku)| Catalogue { price, rating, sku: sku.to_owned() })
        .boxed()
}

fn reference_cmp(x: &Catalogue, y: &Catalogue) -> Ordering {
    x.price.cmp(&y.price).then(y.rating.cmp(&x.rating)).then(x.sku.as_bytes().cmp(y.sku.as_bytes()))
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn round_trip_by_value(x in catalogue()) {
        let key = x.encode()?;
        prop_assert_eq!(Catalogue::decode(&key)?, x);
    }

    #[test]
    fn byte_order_is_value_order(x in catalogue(), y in catalogue()) {
        let (kx, ky) = (x.encode()?, y.encode()?);
        prop_assert_eq!(kx.as_bytes().cmp(ky.as_bytes()), reference_cmp(&x, &y), "{} {}", kx, ky);
    }

    #[test]
    fn mutated_keys_decode_canonically_or_not_at_all(x in catalogue(), m in mutation('#')) {
        if let Some(key) = m.apply(&x.encode()?)
            && let Ok(v) = Catalogue::decode(&key)
        {
            prop_assert_eq!(v.encode()?, key);
        }
    }

    #[test]
    fn more_digits_than_the_scale_is_an_error(units in 1i64..1_000_000, extra in 1u32..4) {
        let price = Decimal::new(units * 10 + 1, 2 + extra);
        let e = Catalogue { price, rating: Decimal::ONE, sku: "a".into() }.encode().unwrap_err();
        prop_assert!(matches!(e.kind(), EncodeErrorKind::TooPrecise { scale: 2, .. }), "{e}");
        prop_assert_eq!(e.field(), Some("price"));
    }
}

#[test]
fn the_documented_encoding() {
    let k = Catalogue { price: "19.99".parse().unwrap(), rating: "4.5".parse().unwrap(), sku: "x".into() };
    assert_eq!(k.encode().unwrap(), "CAT#000000001999#-954#x");
    let wide = Catalogue { price: "1000000000".parse().unwrap(), ..k };
    let e = wide.encode().unwrap_err();
    assert!(matches!(e.kind(), EncodeErrorKind::TooWide { value, width: 12, .. } if value == "1000000000"), "{e}");
}

impl LawKey for Catalogue {
    const N: usize = 3;
    const HAS_PREFIX: bool = true;
    fn cmp_field(&self, o: &Self, i: usize) -> Ordering {
        match i {
            0 => self.price.cmp(&o.price),
            1 => self.rating.cmp(&o.rating),
            _ => self.sku.as_bytes().cmp(o.sku.as_bytes()),
        }
    }
    fn text(&self, i: usize) -> Option<&str> {
        (i == 2).then_some(self.sku.as_str())
    }
    fn build(c: &Call<Self>) -> Result<KeyCondition, QueryError> {
        let (q, f) = (Catalogue::query(), &c.fixed);
        match c.k {
            0 => ends!(q, c, |t| t.price, price_range),
            1 => {
                ends!(q.price(f.price), c, |t| t.rating, rating_range)
            }
            2 => ends!(q.price(f.price).rating(f.rating), c, |t| &t.sku, sku_range, text),
            _ => {
                let q = q.price(f.price).rating(f.rating).sku(&f.sku);
                if matches!(c.end, End::Eq) { q.eq() } else { q.begins_with() }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn query_law_on_a_price((keys, c) in keys_and_call(catalogue())) {
        check_law(&c, &keys)?;
    }
}
