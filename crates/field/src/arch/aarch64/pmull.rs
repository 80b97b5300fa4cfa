//! GF(2^128) with PMULL: one 64×64 carry-less product per instruction
//! (`vmull_p64`), run-time detected (the "pmull" feature, enabled in Rust
//! as `aes`). Same algorithm as the x86_64 128-bit kernels: Karatsuba
//! products, unreduced sums, and the reduction as two more products by
//! x^7 + x^2 + x + 1.
//!
//! Each kernel is a safe `#[target_feature]` function: calling it is
//! `unsafe` only from code compiled without those features, which
//! [`crate::arch`] does after the selection confirmed the CPU has them.

use crate::{Butterfly, Gf2_128};
use core::arch::aarch64::vmull_p64;

/// x^128 ≡ x^7 + x^2 + x + 1, as a 64-bit carry-less multiplier.
const POLY: u64 = 0x87;

#[inline(always)]
fn halves(v: u128) -> (u64, u64) {
    (v as u64, (v >> 64) as u64)
}

/// Unreduced product as (low, middle, high) with three multiplications:
/// the 256-bit value is `low ⊕ middle·x^64 ⊕ high·x^128`. Sums of these
/// reduce once.
#[inline]
#[target_feature(enable = "neon,aes")]
fn product(a: u128, b: u128) -> [u128; 3] {
    let ((a0, a1), (b0, b1)) = (halves(a), halves(b));
    let lo = vmull_p64(a0, b0);
    let hi = vmull_p64(a1, b1);
    let mid = vmull_p64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    [lo, mid, hi]
}

/// Reduces a [`product`] (or a sum of them).
#[inline]
#[target_feature(enable = "neon,aes")]
fn reduce([lo, mid, hi]: [u128; 3]) -> u128 {
    let lo = lo ^ (mid << 64);
    let (h0, h1) = halves(hi ^ (mid >> 64));
    // h1·x^192 ≡ (h1·POLY)·x^64: its low word lands in lo's top half, its
    // ≤ 7 high bits join h0 at x^128.
    let (t0, t1) = halves(vmull_p64(h1, POLY));
    let lo = lo ^ ((t0 as u128) << 64);
    // h0·x^128 ≡ h0·POLY, at most 71 bits.
    lo ^ vmull_p64(h0 ^ t1, POLY)
}

/// The reduced product.
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    reduce(product(a, b))
}

/// [`product`] for callers compiled without the features.
#[target_feature(enable = "neon,aes")]
pub(crate) fn product_parts(a: u128, b: u128) -> [u128; 3] {
    product(a, b)
}

/// [`reduce`] for callers compiled without the features.
#[target_feature(enable = "neon,aes")]
pub(crate) fn reduce_parts(parts: [u128; 3]) -> u128 {
    reduce(parts)
}

/// `Σ a_i·b_i` with one reduction; two accumulator sets so that
/// consecutive products do not wait on each other's XORs.
#[target_feature(enable = "neon,aes")]
pub(crate) fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
    let mut acc = [[0u128; 3]; 2];
    let mut pairs = a.chunks_exact(2).zip(b.chunks_exact(2));
    for (x, y) in &mut pairs {
        for (set, (xi, yi)) in acc.iter_mut().zip(x.iter().zip(y)) {
            let p = product(xi.0, yi.0);
            for (s, v) in set.iter_mut().zip(p) {
                *s ^= v;
            }
        }
    }
    let n = a.len().min(b.len());
    if n % 2 == 1 {
        let p = product(a[n - 1].0, b[n - 1].0);
        for (s, v) in acc[0].iter_mut().zip(p) {
            *s ^= v;
        }
    }
    reduce([0, 1, 2].map(|i| acc[0][i] ^ acc[1][i]))
}

/// `y_i ← y_i + u·x_i`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn axpy(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
    for (a, b) in y.iter_mut().zip(x) {
        a.0 ^= mul(u, b.0);
    }
}

/// `out_i ← a·x_i + b·y_i`, one reduction per element.
#[target_feature(enable = "neon,aes")]
pub(crate) fn lincomb2(out: &mut [Gf2_128], a: u128, x: &[Gf2_128], b: u128, y: &[Gf2_128]) {
    for ((o, p), q) in out.iter_mut().zip(x).zip(y) {
        let [l0, m0, h0] = product(a, p.0);
        let [l1, m1, h1] = product(b, q.0);
        o.0 = reduce([l0 ^ l1, m0 ^ m1, h0 ^ h1]);
    }
}

/// `x_i ← x_i·y_i`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
    for (a, b) in x.iter_mut().zip(y) {
        a.0 = mul(a.0, b.0);
    }
}

/// Butterflies between `lo` and `hi` with one twiddle.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn butterflies(lo: &mut [Gf2_128], hi: &mut [Gf2_128], t: u128, kind: Butterfly) {
    for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
        (a.0, c.0) = kind.on(a.0, c.0, |x, y| x ^ y, |x| mul(t, x));
    }
}

/// One FFT level: chunk `i` of `2·half` elements uses `twiddles[i]`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn butterfly_level(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) {
    for (chunk, t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
        let (lo, hi) = chunk.split_at_mut(half);
        butterflies(lo, hi, t.0, kind);
    }
}
