//! Layouts you can run against the derived code, in one run: `DynLayout::decode` and
//! `DynLayout::encode_into` of the benchmark keys (`RankKey`, `EventKey`, as in keys.rs) read
//! from their layout text, against the derived `decode` and `encode_into` of the same keys.
//!
//! `cargo bench -p sortkey-core --bench dynamic`; the medians are in BENCHMARKS.md
//! ("Layouts you can run").

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group};
use sortkey_core::{DecodeKey, DynLayout, SortKey};

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

#[derive(SortKey, Debug, Clone, PartialEq)]
struct EventKey {
    #[key(width = 10)]
    tenant: u32,
    #[key(width = 16)]
    timestamp: u64,
    #[key(width = 5, desc)]
    priority: u16,
    #[key(width = 10)]
    seq: u32,
}

/// The derived and the dynamic decode and encode of one key, in groups `<name>_decode` and
/// `<name>_encode_into`.
fn bench<K>(c: &mut Criterion, name: &str, key: &K)
where
    K: SortKey + for<'k> DecodeKey<'k>,
{
    let layout = DynLayout::parse(&K::LAYOUT.to_string()).unwrap();
    let encoded = key.encode().unwrap();
    let value = layout.decode(&encoded).unwrap();
    assert_eq!(layout.encode(&value).unwrap(), encoded, "the layout writes the derived key");

    let mut g = c.benchmark_group(format!("{name}_decode"));
    g.bench_function("derive", |b| b.iter(|| K::decode(black_box(&encoded)).unwrap()));
    g.bench_function("dynamic", |b| b.iter(|| layout.decode(black_box(&encoded)).unwrap()));
    let plan = layout.plan();
    g.bench_function("plan", |b| b.iter(|| plan.decode(black_box(&encoded)).unwrap()));
    g.finish();

    let mut out = String::with_capacity(64);
    let mut g = c.benchmark_group(format!("{name}_encode_into"));
    g.bench_function("derive", |b| {
        b.iter(|| {
            out.clear();
            black_box(key).encode_into(&mut out).unwrap();
        })
    });
    g.bench_function("dynamic", |b| {
        b.iter(|| {
            out.clear();
            layout.encode_into(black_box(&value), &mut out).unwrap();
        })
    });
    g.bench_function("plan", |b| {
        b.iter(|| {
            out.clear();
            plan.encode_into(black_box(&value), &mut out).unwrap();
        })
    });
    g.finish();
}

/// The audit's classification of one key: a lock of two layouts (the current one first), keys
/// of the current layout, of the older one, and a few no layout reads, as a table holds them.
fn bench_audit(c: &mut Criterion) {
    use sortkey_core::{KeyAudit, LockFile};
    let lock = LockFile::parse(
        "RankKey = RUN#{score:u64 width=12 desc}#{timestamp:u64 width=16}#{player_id:text}\n\
         RankKeyV1 = RUN#{score:u64 width=10 desc}#{timestamp:u64 width=16}#{player_id:text}\n",
    )
    .unwrap();
    let keys: Vec<String> = (0..1000u64)
        .map(|i| match i % 10 {
            0..=6 => format!("RUN#{:012}#{:016}#p_{i}", 999_999_999_999 - i, 1_719_100_800 + i),
            7 | 8 => format!("RUN#{:010}#{:016}#p_{i}", 9_999_999_999 - i, 1_719_100_800 + i),
            _ => format!("garbage_{i}"),
        })
        .collect();
    let mut g = c.benchmark_group("audit_observe");
    g.throughput(criterion::Throughput::Elements(keys.len() as u64));
    g.bench_function("1000_keys", |b| {
        b.iter(|| {
            let mut audit = KeyAudit::new(lock.entries.clone());
            for key in &keys {
                audit.observe(black_box(key));
            }
            black_box(audit.report().keys)
        })
    });
    // The Scan audit's way since classification moved into the segments' tasks: each page
    // classified into an audit of its own, merged into the total where pages are gathered. The
    // gathering thread does only the merge (`merge_page_audit`), the cores the rest.
    g.bench_function("1000_keys_as_a_page_merged", |b| {
        let mut total = KeyAudit::new(lock.entries.clone());
        b.iter(|| {
            let mut page = KeyAudit::new(lock.entries.clone());
            for key in &keys {
                page.observe(black_box(key));
            }
            total.merge_audit(&page).unwrap();
            black_box(total.report().keys)
        })
    });
    g.bench_function("merge_page_audit", |b| {
        let mut total = KeyAudit::new(lock.entries.clone());
        let mut page = KeyAudit::new(lock.entries.clone());
        for key in &keys {
            page.observe(key);
        }
        b.iter(|| {
            total.merge_audit(black_box(&page)).unwrap();
        })
    });
    g.finish();
}

fn benches_dynamic(c: &mut Criterion) {
    let rank = RankKey { score: 1500, timestamp: 1_719_100_800_123, player_id: "p_8842".into() };
    let event = EventKey { tenant: 42, timestamp: 1_719_100_800_000, priority: 3, seq: 17 };
    bench(c, "dyn_rank", &rank);
    bench(c, "dyn_event", &event);
}

fn config() -> Criterion {
    Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = benches_dynamic, bench_audit
}

/// `SORTKEY_PROBE=event_decode` (or `rank_decode`) runs the dynamic decode a million times
/// instead of the benchmarks, for `perf record` or `valgrind --tool=callgrind`.
fn probe(name: &str) {
    let rank = RankKey { score: 1500, timestamp: 1_719_100_800_123, player_id: "p_8842".into() };
    let event = EventKey { tenant: 42, timestamp: 1_719_100_800_000, priority: 3, seq: 17 };
    let (layout, key) = match name {
        "rank_decode" => (DynLayout::parse(&RankKey::LAYOUT.to_string()).unwrap(), rank.encode().unwrap()),
        _ => (DynLayout::parse(&EventKey::LAYOUT.to_string()).unwrap(), event.encode().unwrap()),
    };
    for _ in 0..1_000_000 {
        drop(black_box(layout.decode(black_box(&key))));
    }
}

fn main() {
    if let Ok(name) = std::env::var("SORTKEY_PROBE") {
        return probe(&name);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
