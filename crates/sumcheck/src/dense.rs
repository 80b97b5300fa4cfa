//! Dense arrays of wire values and their binding.
//!
//! Binding the lowest index variable to `r` maps `v` of length `n` to
//! `v'[i] = v[2i] + r·(v[2i+1] − v[2i])` of length `⌈n/2⌉`, where a missing
//! `v[2i+1]` counts as zero (the array is implicitly zero-padded to `2^logw`).

use longfellow_field::Field;

use crate::par;

/// Binds the lowest variable of `src` to `r`, writing `⌈len/2⌉` values into
/// `dst` (which is resized; its capacity is reused).
pub fn bind_into<F: Field>(src: &[F], r: F, dst: &mut Vec<F>) {
    let n = src.len();
    let out_len = n.div_ceil(2);
    dst.clear();
    dst.resize(out_len, F::ZERO);
    par::for_each_chunk_mut(dst, par::MIN_CHUNK, |start, out| {
        for (j, o) in out.iter_mut().enumerate() {
            let i = start + j;
            let lo = src[2 * i];
            *o = match src.get(2 * i + 1) {
                Some(hi) => lo + r * (*hi - lo),
                None => lo - r * lo,
            };
        }
    });
}

/// [`bind_into`] without a second buffer: `v` is overwritten by its
/// binding and shortened to `⌈len/2⌉`. Serial, since output `i` lands on
/// input slots another chunk would still read; the pass is one product per
/// pair and memory-bound, and the prover saves a buffer half its largest
/// layer.
pub fn bind_in_place<F: Field>(v: &mut Vec<F>, r: F) {
    let n = v.len();
    let pairs = n / 2;
    for i in 0..pairs {
        let (lo, hi) = (v[2 * i], v[2 * i + 1]);
        v[i] = lo + r * (hi - lo);
    }
    if n % 2 == 1 {
        let lo = v[n - 1];
        v[pairs] = lo - r * lo;
    }
    v.truncate(n.div_ceil(2));
}

/// `Σ_i a[i]·b[i]` and the leading coefficient of
/// `t ↦ Σ_i bind(a, t)[i]·bind(b, t)[i]` (both arrays bound at the same
/// variable), i.e. the two numbers a quadratic sumcheck round needs.
pub fn round_coefficients<F: Field>(a: &[F], b: &[F]) -> (F, F) {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len();
    let pairs = n / 2;
    let (mut a0, mut a2) = par::sum_pairs(pairs, par::MIN_CHUNK, |range| {
        let mut s0 = F::ZERO;
        let mut s2 = F::ZERO;
        for i in range {
            let (x0, x1) = (a[2 * i], a[2 * i + 1]);
            let (y0, y1) = (b[2 * i], b[2 * i + 1]);
            s0 += x0 * y0;
            s2 += (x1 - x0) * (y1 - y0);
        }
        (s0, s2)
    });
    if n % 2 == 1 {
        // Partner is zero in both arrays: the pair contributes x·y·(1−t)².
        let xy = a[n - 1] * b[n - 1];
        a0 += xy;
        a2 += xy;
    }
    (a0, a2)
}
