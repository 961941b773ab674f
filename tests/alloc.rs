//! Allocation counts, with a counting global allocator: `encode_into` into a buffer that has the
//! capacity allocates nothing, and neither does decoding a key without text fields.
//!
//! The counter is per thread, so the test harness's other threads do not disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sortkey_core::SortKey;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so `System`'s
// guarantees hold; the counting touches only a `Cell<u64>` thread-local, which does not allocate.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as is, see the impl.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as is, see the impl.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded as is, see the impl.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is, see the impl.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations (and reallocations) `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "RUN")]
struct RankKey {
    #[key(width = 10, desc)]
    score: u64,
    #[key(width = 16)]
    timestamp: u64,
    player_id: String,
}

/// Every integer kind, both directions, a bool: no text, so decoding needs no memory.
#[derive(SortKey, Debug, Clone, PartialEq)]
#[key(prefix = "EV", separator = '|')]
struct EventKey {
    #[key(width = 10)]
    tenant: u32,
    #[key(width = 20, desc)]
    timestamp: u64,
    #[key(width = 6)]
    delta: i32,
    #[key(desc)]
    priority: u8,
    archived: bool,
    #[key(width = 39)]
    id: u128,
    #[key(width = 40, desc)]
    signed_id: i128,
}

fn event() -> EventKey {
    EventKey {
        tenant: 42_017,
        timestamp: u64::MAX,
        delta: -99_999,
        priority: 3,
        archived: true,
        id: u128::MAX,
        signed_id: i128::MIN,
    }
}

#[test]
fn counter_sees_allocations() {
    let (n, s) = allocations(|| String::with_capacity(8));
    assert_eq!(n, 1);
    drop(s);
}

#[test]
fn encode_into_with_capacity_allocates_nothing() {
    let rank = RankKey { score: 1_500, timestamp: 1_719_100_800_123, player_id: "p_8842".into() };
    let mut out = String::with_capacity(256);
    for _ in 0..3 {
        out.clear();
        let (n, result) = allocations(|| rank.encode_into(&mut out));
        result.unwrap();
        assert_eq!(n, 0, "encode_into of {out}");
    }
    assert_eq!(out, "RUN#9999998499#0001719100800123#p_8842");

    let event = event();
    let (n, result) = allocations(|| {
        out.clear();
        event.encode_into(&mut out)
    });
    result.unwrap();
    assert_eq!(n, 0, "encode_into of {out}");
    assert_eq!(out.len(), EventKey::ENCODED_LEN.unwrap());
}

#[test]
fn decoding_a_key_without_text_allocates_nothing() {
    let encoded = event().encode().unwrap();
    let (n, decoded) = allocations(|| EventKey::decode(&encoded));
    assert_eq!(decoded.unwrap(), event());
    assert_eq!(n, 0);

    let (n, parsed) = allocations(|| encoded.parse::<EventKey>());
    assert_eq!(parsed.unwrap(), event());
    assert_eq!(n, 0);
}

#[test]
fn text_fields_allocate_only_their_own_string() {
    let encoded = "RUN#9999998499#0001719100800123#p_8842";
    let (n, decoded) = allocations(|| RankKey::decode(encoded));
    assert_eq!(decoded.unwrap().player_id, "p_8842");
    assert_eq!(n, 1, "the String of player_id");

    // `encode` allocates its result once, at the right size for fixed-width keys.
    let (n, s) = allocations(|| event().encode());
    assert_eq!(n, 1);
    assert_eq!(s.unwrap().len(), EventKey::ENCODED_LEN.unwrap());
}
