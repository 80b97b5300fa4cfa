//! Dense arrays of wire values and their binding.
//!
//! Binding the lowest index variable to `r` maps `v` of length `n` to
//! `v'[i] = v[2i] + r·(v[2i+1] − v[2i])` of length `⌈n/2⌉`, where a missing
//! `v[2i+1]` counts as zero (the array is implicitly zero-padded to `2^logw`).

use longfellow_field::Field;

use crate::wires::WireRead;
use longfellow_par as par;

/// Binds the lowest variable of `src` to `r`, writing `⌈len/2⌉` values into
/// `dst` (which is resized; its capacity is reused).
pub fn bind_into<F: Field>(src: &[F], r: F, dst: &mut Vec<F>) {
    bind_wires_into(src, r, dst);
}

/// [`bind_into`] from any [`WireRead`] source (a table-coded layer is
/// bound without being expanded first).
pub(crate) fn bind_wires_into<F: Field, W: WireRead<F> + ?Sized>(src: &W, r: F, dst: &mut Vec<F>) {
    let n = src.len();
    let out_len = n.div_ceil(2);
    par::refill(dst, out_len, F::ZERO);
    par::for_each_chunk_mut(dst, par::split_len::<F>(), |start, out| {
        let mut diff = [F::ZERO; BIND_BLOCK];
        for (b, block) in out.chunks_mut(BIND_BLOCK).enumerate() {
            bind_block(src, r, start + b * BIND_BLOCK, block, &mut diff);
        }
    });
}

/// Writes the bound values `first..first + out.len()` of `src` into `out`
/// (at most [`BIND_BLOCK`] of them), `diff` being scratch.
#[inline(always)]
fn bind_block<F: Field, W: WireRead<F> + ?Sized>(
    src: &W,
    r: F,
    first: usize,
    out: &mut [F],
    diff: &mut [F; BIND_BLOCK],
) {
    let n = src.len();
    for (j, (o, d)) in out.iter_mut().zip(diff.iter_mut()).enumerate() {
        let i = first + j;
        let lo = src.at(2 * i);
        let hi = if 2 * i + 1 < n {
            src.at(2 * i + 1)
        } else {
            F::ZERO
        };
        *o = lo;
        *d = hi - lo;
    }
    F::axpy(out, r, &diff[..out.len()]);
}

/// Pairs bound per step: the pairs' low values and differences are
/// gathered first so that the products go through the field's `axpy`
/// kernel.
const BIND_BLOCK: usize = 64;

/// [`bind_into`] without a second buffer: `v` is overwritten by its
/// binding and shortened to `⌈len/2⌉`. Serial, since output `i` lands on
/// input slots another chunk would still read; the pass is one product per
/// pair and memory-bound, and the prover saves a buffer half its largest
/// layer.
pub fn bind_in_place<F: Field>(v: &mut Vec<F>, r: F) {
    let out_len = v.len().div_ceil(2);
    let mut block = [F::ZERO; BIND_BLOCK];
    let mut diff = [F::ZERO; BIND_BLOCK];
    let mut first = 0;
    while first < out_len {
        let m = (out_len - first).min(BIND_BLOCK);
        bind_block(v.as_slice(), r, first, &mut block[..m], &mut diff);
        // Outputs `first..first + m` sit at or before inputs already read.
        v[first..first + m].copy_from_slice(&block[..m]);
        first += m;
    }
    v.truncate(out_len);
}

/// `Σ_i a[i]·b[i]` and the leading coefficient of
/// `t ↦ Σ_i bind(a, t)[i]·bind(b, t)[i]` (both arrays bound at the same
/// variable), i.e. the two numbers a quadratic sumcheck round needs.
pub fn round_coefficients<F: Field>(a: &[F], b: &[F]) -> (F, F) {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len();
    let pairs = n / 2;
    let (mut a0, mut a2) = par::sum_pairs(pairs, par::split_len::<F>(), |range| {
        // De-interleave a few dozen pairs at a time into contiguous
        // operands so both sums go through the field's `dot` kernel, which
        // defers the reduction of each product to the end of the block.
        const BLOCK: usize = 64;
        let mut even = [[F::ZERO; BLOCK]; 2];
        let mut diff = [[F::ZERO; BLOCK]; 2];
        let mut s0 = F::ZERO;
        let mut s2 = F::ZERO;
        let mut i = range.start;
        while i < range.end {
            let m = (range.end - i).min(BLOCK);
            for j in 0..m {
                let p = 2 * (i + j);
                let (x0, x1) = (a[p], a[p + 1]);
                let (y0, y1) = (b[p], b[p + 1]);
                even[0][j] = x0;
                even[1][j] = y0;
                diff[0][j] = x1 - x0;
                diff[1][j] = y1 - y0;
            }
            s0 += F::dot(&even[0][..m], &even[1][..m]);
            s2 += F::dot(&diff[0][..m], &diff[1][..m]);
            i += m;
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
