//! Crafted circuit files that used to cost minutes of CPU or hundreds of
//! megabytes before any check failed. Each is built here as an attacker
//! would build it, and must now be refused or decoded in under a second and
//! 64 MiB of heap (measured by a counting allocator around the decoder).
//!
//! - LFC1 with term deltas chosen so that the compactor's former unkeyed
//!   hash put them all in one bucket chain (quadratic insertion);
//! - LFC2 layers declaring millions of one-entry segments, unused or each
//!   used once (hundreds of MB from a few kB of zstd), bare and inside an
//!   LFA2 archive.

// A global allocator needs `unsafe impl`; it only forwards to `System`.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use longfellow_circuit::{load_any, load_pair, CircuitError, Field};
use longfellow_field::{Fp256, Gf2_128};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to `System` unchanged; only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed)
                    + (new_size - layout.size());
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// One test at a time: the counters are process-wide, so a test building
/// its crafted file (tens of MB of raw bytes before compression) while
/// another measures its decoder would be counted in that decoder's heap.
static SERIAL: Mutex<()> = Mutex::new(());

/// The lock every test holds from its first allocation to its last.
fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

const MAX_TIME: Duration = Duration::from_secs(1);
const MAX_HEAP: usize = 64 << 20;

/// CPU time of this thread, where Linux reports it (`schedstat`, in ns):
/// CI machines are shared, and wall time there measures the neighbours.
/// Elsewhere, `None` and wall time is used.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `decode`, returns its result, and asserts the (CPU) time and the
/// heap growth over what was live before; `_held` is the test's
/// [`serial`] lock.
fn bounded<T>(_held: &MutexGuard<'_, ()>, what: &str, decode: impl FnOnce() -> T) -> T {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let (start, cpu) = (Instant::now(), thread_cpu());
    let out = decode();
    let took = match (cpu, thread_cpu()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => start.elapsed(),
    };
    let heap = PEAK.load(Ordering::Relaxed).saturating_sub(base);
    eprintln!(
        "{what}: {took:?} CPU ({:?} wall), peak heap +{} KiB",
        start.elapsed(),
        heap >> 10
    );
    assert!(took < MAX_TIME, "{what}: decoding took {took:?}");
    assert!(heap < MAX_HEAP, "{what}: decoding allocated {heap} bytes");
    out
}

fn zstd(raw: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(raw, ruzstd::encoding::CompressionLevel::Fastest)
}

fn u24(o: &mut Vec<u8>, v: u32) {
    o.extend_from_slice(&v.to_le_bytes()[..3]);
}

fn uleb(o: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            o.push(b);
            return;
        }
        o.push(b | 0x80);
    }
}

/// The compactor's former multiply–rotate hash of a delta (derived `Hash`
/// of four `u32`s), up to the final multiplication by an odd constant —
/// which keeps the low bits' equality, so it can be left out.
fn old_hash_before_last_multiply(g: u32, h0: u32, h1: u32, k: u32) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut s = 0u64;
    for v in [g, h0, h1] {
        s = (s.rotate_left(5) ^ u64::from(v)).wrapping_mul(K);
    }
    s.rotate_left(5) ^ u64::from(k)
}

/// An LFC1 GF(2^128) circuit with one layer of `terms` distinct deltas
/// whose hashes agree in their low `bits` bits (the bucket index of any
/// table up to 2^bits buckets): the constant index of each term cancels the
/// low bits of the rest of the hash, so `2^bits` (zero) constants are
/// needed. Wires stay in range: h0 visits 0, 1, 0, 2, 0, 3, …, so the
/// deltas +1, −1, +2, −2, … are all distinct.
fn lfc1_colliding(bits: u32, terms: u32) -> Vec<u8> {
    let nconst = 1u32 << bits;
    let nw = terms / 2 + 2;
    let logw = 32 - (nw - 1).leading_zeros();
    let mut o = vec![1u8];
    for v in [Gf2_128::FIELD_ID, 1, 1, 0, 0, nw, 1, nconst] {
        u24(&mut o, v);
    }
    o.resize(o.len() + 16 * nconst as usize, 0);
    u24(&mut o, logw);
    u24(&mut o, nw);
    u24(&mut o, terms);
    let mask = u64::from(nconst - 1);
    for t in 0..terms {
        let step = t / 2 + 1;
        // LFC1 stores magnitude·2 + sign.
        let (dh0, wire) = if t % 2 == 0 {
            (step.wrapping_mul(1), step * 2)
        } else {
            (step.wrapping_neg(), step * 2 + 1)
        };
        let k = (old_hash_before_last_multiply(0, dh0, 0, 0) & mask) as u32;
        debug_assert_eq!(old_hash_before_last_multiply(0, dh0, 0, k) & mask, 0);
        u24(&mut o, 0);
        u24(&mut o, wire);
        u24(&mut o, 0);
        u24(&mut o, k);
    }
    o.extend_from_slice(&[0u8; 32]); // wrong ID: reached only if all terms decode
    o
}

#[test]
fn lfc1_colliding_deltas_decode_in_linear_time() {
    let held = serial();
    // 150,000 colliding distinct deltas (within every count cap): with the
    // unkeyed hash this took several seconds; the full-size attack (2^20
    // constants, millions of terms) took minutes to hours.
    let file = zstd(&lfc1_colliding(18, 150_000));
    eprintln!("crafted LFC1: {} bytes of zstd", file.len());
    let r = bounded(&held, "LFC1 colliding deltas", || {
        load_any(&file).map(|_| ())
    });
    // Every term was decoded: only the (deliberately wrong) ID fails.
    assert!(matches!(r, Err(CircuitError::IdMismatch { .. })), "{r:?}");
}

#[test]
fn lfc1_with_the_largest_tables_is_refused() {
    let held = serial();
    // 2^20 constants (16 MiB decoded) and 2^19 distinct deltas in a layer.
    let file = zstd(&lfc1_colliding(20, 1 << 19));
    let r = bounded(&held, "LFC1 maximal tables", || load_any(&file).map(|_| ()));
    assert!(matches!(r, Err(CircuitError::TooLarge { .. })), "{r:?}");
}

/// An LFC2 circuit over `F` (field ID `field`) whose `layers` layers each
/// declare `segments` one-entry segments over a single delta; tokens name
/// each segment once when `use_all`, else only the first.
fn lfc2_segment_bomb<F: Field>(layers: u32, segments: u64, use_all: bool) -> Vec<u8> {
    let mut o = b"LFC2".to_vec();
    for v in [u64::from(F::FIELD_ID), 1, 1, 0, 0, 1, u64::from(layers), 1] {
        uleb(&mut o, v);
    }
    o.resize(o.len() + F::BYTES, 0); // the constant 0
    for _ in 0..layers {
        uleb(&mut o, 0); // logw
        uleb(&mut o, 1); // nw
        uleb(&mut o, 1); // one delta: (0, 0, 0, constant 0)
        o.extend_from_slice(&[0, 0, 0, 0]);
        uleb(&mut o, segments);
        for _ in 0..segments {
            o.extend_from_slice(&[1, 0]);
        }
        if use_all {
            uleb(&mut o, segments);
            for s in 0..segments {
                uleb(&mut o, s);
            }
        } else {
            uleb(&mut o, 1);
            uleb(&mut o, 0);
        }
    }
    o.extend_from_slice(&[0u8; 32]);
    o
}

fn lfa2(sig: &[u8], hash: &[u8]) -> Vec<u8> {
    let mut o = b"LFA2".to_vec();
    o.push(1);
    uleb(&mut o, 7);
    o.extend_from_slice(&[0u8; 32]);
    for _ in 0..4 {
        uleb(&mut o, 0);
    }
    uleb(&mut o, 2);
    for (name, body) in [("sig", sig), ("hash", hash)] {
        uleb(&mut o, name.len() as u64);
        o.extend_from_slice(name.as_bytes());
        o.extend_from_slice(&[0u8; 32]);
        uleb(&mut o, body.len() as u64);
    }
    o.extend_from_slice(sig);
    o.extend_from_slice(hash);
    o
}

fn refused(r: Result<(), CircuitError>) {
    assert!(
        matches!(
            r,
            Err(CircuitError::TooLarge { .. } | CircuitError::Invalid { .. })
        ),
        "{r:?}"
    );
}

#[test]
fn lfc2_unused_segments_are_refused() {
    let held = serial();
    // The reported file: 2^24 one-entry segments, one of them used.
    let bomb = zstd(&lfc2_segment_bomb::<Gf2_128>(1, 1 << 24, false));
    eprintln!("crafted LFC2: {} bytes of zstd", bomb.len());
    refused(bounded(&held, "LFC2 2^24 unused segments", || {
        load_any(&bomb).map(|_| ())
    }));
    // Under the table budget, unused segments are refused by name.
    let small = zstd(&lfc2_segment_bomb::<Gf2_128>(1, 1 << 16, false));
    let r = bounded(&held, "LFC2 2^16 unused segments", || {
        load_any(&small).map(|_| ())
    });
    assert!(
        matches!(
            r,
            Err(CircuitError::Invalid {
                what: "segment",
                value: 1,
                ..
            })
        ),
        "{r:?}"
    );
}

#[test]
fn lfc2_used_segments_are_bounded_per_circuit() {
    let held = serial();
    // Each segment used once: every count is within its per-layer cap, but
    // three such layers decode to 36 MiB of tables (and 16 to 200 MB).
    let bomb = zstd(&lfc2_segment_bomb::<Gf2_128>(3, 1 << 20, true));
    eprintln!("crafted LFC2 (used segments): {} bytes of zstd", bomb.len());
    refused(bounded(&held, "LFC2 used segments", || {
        load_any(&bomb).map(|_| ())
    }));
}

#[test]
fn lfa2_segment_bomb_is_refused() {
    let held = serial();
    let sig = lfc2_segment_bomb::<Fp256>(1, 1 << 24, false);
    let hash = lfc2_segment_bomb::<Gf2_128>(1, 1, true);
    let file = zstd(&lfa2(&sig, &hash));
    eprintln!("crafted .lfa2: {} bytes of zstd", file.len());
    refused(bounded(&held, "LFA2 segment bomb", || {
        load_pair(&file).map(|_| ())
    }));
    refused(bounded(&held, "LFA2 segment bomb (any)", || {
        load_any(&file).map(|_| ())
    }));
}
