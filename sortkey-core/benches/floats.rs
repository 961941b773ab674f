//! An `f64` segment against the obvious hand-written alternatives, in one run.
//!
//! Each iteration encodes (or decodes) the same 64 values: prices, ratings, coordinates,
//! measurements, tiny and huge magnitudes, both signs. Rows per group:
//!
//! - `derive`: `encode_into` / `decode` of a key whose one field is the `f64` (readable form);
//! - `derive_hex`: the same with `format = "hex"`;
//! - `ryu`: `ryu::Buffer::format_finite` of the value, pushed into a reused `String`: the
//!   shortest digits alone, no order, what the readable form is measured against (target:
//!   within 2x);
//! - `fmt_e`: `write!(out, "{:e}", v)` into a reused `String`, the `std` way;
//! - `parse` (decode): `str::parse::<f64>` of the `ryu` text.
//!
//! `decimal_*`: a `rust_decimal::Decimal` at `scale = 2, width = 12` against computing the cents
//! by hand and `write!("{:012}")` (no checks), and decoding against `parse::<i64>`.
//!
//! `cargo bench -p sortkey-core --bench floats --features rust_decimal`; the times are per
//! iteration of 64 values.

use std::fmt::Write;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sortkey_core::SortKey;

#[derive(SortKey, Debug, Clone, Copy, PartialEq)]
struct Readable {
    price: f64,
}

#[derive(SortKey, Debug, Clone, Copy, PartialEq)]
struct Hex {
    #[key(format = "hex")]
    price: f64,
}

fn values() -> Vec<f64> {
    let mut out = Vec::new();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for i in 0..64 {
        // xorshift: the same 64 values every run.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = match i % 4 {
            0 => (x % 100_000) as f64 / 100.0,                   // prices with cents
            1 => (x % 50) as f64 / 10.0,                         // ratings
            2 => ((x % 360_000_000) as f64 / 1e6) - 180.0,       // coordinates
            _ => f64::from_bits(x >> 2 | 0x3000_0000_0000_0000), // measurements of any magnitude
        };
        out.push(if i % 7 == 0 { -v } else { v });
    }
    out
}

fn check_agreement(values: &[f64]) {
    let mut ryu = ryu::Buffer::new();
    for &v in values {
        let k = Readable { price: v };
        assert_eq!(Readable::decode(&k.encode().unwrap()).unwrap().price.to_bits(), v.to_bits());
        assert_eq!(Hex::decode(&Hex { price: v }.encode().unwrap()).unwrap().price.to_bits(), v.to_bits());
        assert_eq!(ryu.format_finite(v).parse::<f64>().unwrap().to_bits(), v.to_bits());
    }
}

fn bench(c: &mut Criterion) {
    let values = values();
    check_agreement(&values);
    let mut out = String::with_capacity(64);

    let mut g = c.benchmark_group("f64_encode");
    g.bench_function("derive", |b| {
        b.iter(|| {
            for &v in black_box(&values) {
                out.clear();
                Readable { price: v }.encode_into(&mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("derive_hex", |b| {
        b.iter(|| {
            for &v in black_box(&values) {
                out.clear();
                Hex { price: v }.encode_into(&mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("ryu", |b| {
        let mut ryu = ryu::Buffer::new();
        b.iter(|| {
            for &v in black_box(&values) {
                out.clear();
                out.push_str(ryu.format_finite(v));
                black_box(&out);
            }
        })
    });
    g.bench_function("fmt_e", |b| {
        b.iter(|| {
            for &v in black_box(&values) {
                out.clear();
                write!(out, "{v:e}").unwrap();
                black_box(&out);
            }
        })
    });
    g.finish();

    let readable: Vec<String> = values.iter().map(|&v| Readable { price: v }.encode().unwrap()).collect();
    let hex: Vec<String> = values.iter().map(|&v| Hex { price: v }.encode().unwrap()).collect();
    let mut ryu = ryu::Buffer::new();
    let plain: Vec<String> = values.iter().map(|&v| ryu.format_finite(v).to_owned()).collect();
    let mut g = c.benchmark_group("f64_decode");
    g.bench_function("derive", |b| {
        b.iter(|| {
            for k in black_box(&readable) {
                black_box(Readable::decode(k).unwrap());
            }
        })
    });
    g.bench_function("derive_hex", |b| {
        b.iter(|| {
            for k in black_box(&hex) {
                black_box(Hex::decode(k).unwrap());
            }
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            for k in black_box(&plain) {
                black_box(k.parse::<f64>().unwrap());
            }
        })
    });
    g.finish();
}

/// A price at scale 2 in 12 characters, as the derive writes it.
#[derive(SortKey, Debug, Clone, Copy, PartialEq)]
struct Cents {
    #[key(scale = 2, width = 12)]
    price: rust_decimal::Decimal,
}

/// The hand-written alternative: cents from the mantissa and scale, `{:012}` of them, no checks
/// (a negative value would not sort, a third decimal would be cut silently).
fn hand_cents(d: rust_decimal::Decimal, out: &mut String) {
    let cents = d.mantissa() * 10i128.pow(2u32.saturating_sub(d.scale())) / 10i128.pow(d.scale().saturating_sub(2));
    write!(out, "{cents:012}").unwrap();
}

fn bench_decimal(c: &mut Criterion) {
    let values: Vec<rust_decimal::Decimal> =
        values().iter().map(|v| rust_decimal::Decimal::new((v.abs() % 1e7 * 100.0) as i64, 2)).collect();
    for &d in &values {
        let mut hand = String::new();
        hand_cents(d, &mut hand);
        assert_eq!(Cents { price: d }.encode().unwrap(), hand, "the hand-written key agrees for {d}");
    }
    let mut out = String::with_capacity(16);
    let mut g = c.benchmark_group("decimal_encode");
    g.bench_function("derive", |b| {
        b.iter(|| {
            for &d in black_box(&values) {
                out.clear();
                Cents { price: d }.encode_into(&mut out).unwrap();
                black_box(&out);
            }
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            for &d in black_box(&values) {
                out.clear();
                hand_cents(d, &mut out);
                black_box(&out);
            }
        })
    });
    g.finish();
    let keys: Vec<String> = values.iter().map(|&d| Cents { price: d }.encode().unwrap()).collect();
    let mut g = c.benchmark_group("decimal_decode");
    g.bench_function("derive", |b| {
        b.iter(|| {
            for k in black_box(&keys) {
                black_box(Cents::decode(k).unwrap());
            }
        })
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            for k in black_box(&keys) {
                black_box(rust_decimal::Decimal::new(k.parse::<i64>().unwrap(), 2));
            }
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench, bench_decimal
}
criterion_main!(benches);
