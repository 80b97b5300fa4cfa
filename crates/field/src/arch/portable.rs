//! The portable twins of the instruction-set kernels: the same operations
//! element by element on the constant-time integer-multiply product. They
//! run where no carry-less multiply exists (or the switch asks for them),
//! and they are the reference every other path is tested against.
#![forbid(unsafe_code)]

use crate::gf2_128::portable::{clmul128, mul as mul_u128, reduce};
use crate::{Butterfly, Gf2_128};

/// `a·b`.
#[inline(always)]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    mul_u128(a, b)
}

/// `a·b` unreduced, as (low, middle, high) with the middle part zero.
#[inline(always)]
pub(crate) fn mul_wide(a: u128, b: u128) -> [u128; 3] {
    let (lo, hi) = clmul128(a, b);
    [lo, 0, hi]
}

/// The element that (low, middle, high) stand for.
#[inline(always)]
pub(crate) fn reduce_wide([lo, mid, hi]: [u128; 3]) -> u128 {
    reduce(lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// `Σ a_i·b_i`, the products summed unreduced and reduced once.
pub(crate) fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> Gf2_128 {
    let (mut lo, mut hi) = (0u128, 0u128);
    for (x, y) in a.iter().zip(b) {
        let (l, h) = clmul128(x.0, y.0);
        lo ^= l;
        hi ^= h;
    }
    Gf2_128(reduce(lo, hi))
}

/// `out_i ← a·x_i + b·y_i`, one reduction per element.
pub(crate) fn lincomb2(out: &mut [Gf2_128], a: Gf2_128, x: &[Gf2_128], b: Gf2_128, y: &[Gf2_128]) {
    for ((o, p), q) in out.iter_mut().zip(x).zip(y) {
        let (l0, h0) = clmul128(a.0, p.0);
        let (l1, h1) = clmul128(b.0, q.0);
        o.0 = reduce(l0 ^ l1, h0 ^ h1);
    }
}

/// `y_i ← y_i + u·x_i`.
pub(crate) fn axpy(y: &mut [Gf2_128], u: Gf2_128, x: &[Gf2_128]) {
    for (a, b) in y.iter_mut().zip(x) {
        a.0 ^= mul(u.0, b.0);
    }
}

/// `x_i ← x_i·y_i`.
pub(crate) fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
    for (a, b) in x.iter_mut().zip(y) {
        a.0 = mul(a.0, b.0);
    }
}

/// One butterfly of `kind` on `(a, c)` with twiddle `t`.
#[inline(always)]
fn butterfly(a: &mut u128, c: &mut u128, t: u128, kind: Butterfly) {
    (*a, *c) = kind.on(*a, *c, |x, y| x ^ y, |x| mul(t, x));
}

/// Butterflies between `lo` and `hi` with one twiddle.
pub(crate) fn butterflies(lo: &mut [Gf2_128], hi: &mut [Gf2_128], t: Gf2_128, kind: Butterfly) {
    for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
        butterfly(&mut a.0, &mut c.0, t.0, kind);
    }
}

/// One FFT level: chunk `i` of `2·half` elements uses `twiddles[i]`.
pub(crate) fn butterfly_level(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) {
    for (chunk, &t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
        let (lo, hi) = chunk.split_at_mut(half);
        butterflies(lo, hi, t, kind);
    }
}
