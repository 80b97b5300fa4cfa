//! Radix-4 FFTs (with radix-2 stages where needed) over any commutative
//! ring with the needed roots of unity.
//!
//! The forward transform is decimation-in-frequency (natural order in,
//! bit-reversed order out) and the inverse is decimation-in-time
//! (bit-reversed in, natural out), so a convolution needs no explicit
//! permutation: transform, multiply pointwise in bit-reversed order, invert.
//!
//! A radix-4 step is two radix-2 stages fused: of the four twiddle
//! multiplications the two stages would do, one is by the fourth root of
//! unity `ι = w^{order/4}`, which the caller supplies as a cheap `rotate`
//! (in `F[i]`, `ι = ±i` is a swap and a negation). The data movement and the
//! output order are exactly those of the radix-2 stages.
//!
//! Where the ring has a slice kernel for them ([`Ring::batches_twiddles`]),
//! the twiddle products of a step are taken in blocks of [`BLOCK`]
//! butterflies: the additions of the block first (or after, inverting),
//! then each of its three rows times its gathered twiddles in one
//! [`Ring::mul_twiddles`] call (P-256's eight-lane products on AVX-512
//! IFMA) instead of one product at a time. Elsewhere each butterfly
//! multiplies as it goes.

use core::ops::{Add, Mul, Sub};

use longfellow_field::Field;

use super::fp2::Fp2;

/// Butterflies per block of twiddle products (three rows of this many
/// elements are gathered on the stack).
const BLOCK: usize = 32;

/// The arithmetic an FFT needs.
pub(crate) trait Ring:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// Whether [`Self::mul_twiddles`] is a slice kernel worth the blocked
    /// loops: gathering the twiddles and a second pass over each block cost
    /// about 7 % of a P-256 transform when the products stay one at a
    /// time, so without a kernel the transforms keep the fused loop.
    fn batches_twiddles() -> bool {
        false
    }

    /// `x_j ← x_j·t_j` over the common prefix.
    fn mul_twiddles(x: &mut [Self], t: &[Self]) {
        for (a, &b) in x.iter_mut().zip(t) {
            *a = *a * b;
        }
    }
}

impl<F: Field> Ring for F {}

impl<F: Field> Ring for Fp2<F> {
    fn batches_twiddles() -> bool {
        F::gaussian_slice_is_kernel()
    }

    fn mul_twiddles(x: &mut [Self], t: &[Self]) {
        let mut xs = [[F::ZERO; 2]; BLOCK];
        let mut ts = [[F::ZERO; 2]; BLOCK];
        for (xc, tc) in x.chunks_mut(BLOCK).zip(t.chunks(BLOCK)) {
            let n = xc.len().min(tc.len());
            for (d, s) in xs.iter_mut().zip(&*xc) {
                *d = [s.re, s.im];
            }
            for (d, s) in ts.iter_mut().zip(tc) {
                *d = [s.re, s.im];
            }
            F::mul_assign_gaussian_slice(&mut xs[..n], &ts[..n]);
            for (d, s) in xc.iter_mut().zip(&xs[..n]) {
                *d = Fp2::new(s[0], s[1]);
            }
        }
    }
}

/// The twiddles `tw[m·j·stride]` for `j` in `range` and `m` = 1 …
/// `R`, gathered into `rows[m − 1]` (a radix-4 step takes three, a
/// radix-2 stage one); returns the block's length.
#[inline]
fn gather<T: Copy, const R: usize>(
    tw: &[T],
    stride: usize,
    range: core::ops::Range<usize>,
    rows: &mut [[T; BLOCK]; 3],
) -> usize {
    let n = range.len();
    for (k, j) in range.enumerate() {
        for (m, row) in rows.iter_mut().enumerate().take(R) {
            row[k] = tw[(m + 1) * j * stride];
        }
    }
    n
}

/// All powers `w^0, …, w^{order − 1}` of a root `w` of order `order` (a
/// power of two `≥ 2`): the twiddle table for every transform size dividing
/// `order`.
pub(crate) fn twiddle_table<T: Ring>(w: T, one: T, order: usize) -> Vec<T> {
    let mut tw = Vec::with_capacity(order);
    let mut x = one;
    for _ in 0..order {
        tw.push(x);
        x = x * w;
    }
    tw
}

/// Reverses the low `bits` bits of `i`.
#[inline]
pub(crate) fn bit_reverse(i: usize, bits: u32) -> usize {
    if bits == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - bits)
    }
}

/// In-place forward DFT `A[t] = Σ_j a[j]·w^{jt}` with the result stored at
/// index `bit_reverse(t)`, where `w` has order `a.len()` and
/// `tw = twiddle_table(w', ·, order)` for a `w'` with
/// `w = w'^(order/a.len())`; `rotate(x) = x·w'^{order/4}`.
///
/// Only `a[..nonzero]` may be non-zero on entry; the first stages, whose
/// upper inputs are then all zero, skip the additions. `a.len()` must be a
/// power of two dividing `order`.
pub(crate) fn dif<T: Ring>(a: &mut [T], tw: &[T], nonzero: usize, rotate: impl Fn(T) -> T) {
    let size = a.len();
    debug_assert!(size.is_power_of_two() && tw.len().is_power_of_two() && tw.len() >= size);
    let order = tw.len();
    let mut half = size / 2;
    // Sparse radix-2 stages: (u, 0) ↦ (u, u·w^j); zero inputs stay zero.
    let Some(&first) = a.first() else {
        return;
    };
    let mut rows = [[first; BLOCK]; 3];
    let batched = T::batches_twiddles();
    while half >= 1 && nonzero <= half {
        let stride = order / (2 * half);
        for chunk in a.chunks_exact_mut(2 * half) {
            let (lo, hi) = chunk.split_at_mut(half);
            let n = nonzero.min(half);
            if !batched {
                for (j, (x, y)) in lo[..n].iter().zip(&mut hi[..n]).enumerate() {
                    *y = if j == 0 { *x } else { *x * tw[j * stride] };
                }
                continue;
            }
            hi[..n].copy_from_slice(&lo[..n]);
            for start in (1..n).step_by(BLOCK) {
                let end = (start + BLOCK).min(n);
                let len = gather::<T, 1>(tw, stride, start..end, &mut rows);
                T::mul_twiddles(&mut hi[start..end], &rows[0][..len]);
            }
        }
        half /= 2;
    }
    // Dense radix-4 steps: stages `half = 2q` and `q` together.
    while half >= 2 {
        let q = half / 2;
        let stride = order / (4 * q);
        for chunk in a.chunks_exact_mut(4 * q) {
            let (a01, a23) = chunk.split_at_mut(2 * q);
            let (a0, a1) = a01.split_at_mut(q);
            let (a2, a3) = a23.split_at_mut(q);
            if !batched {
                for j in 0..q {
                    let (x0, x1, x2, x3) = (a0[j], a1[j], a2[j], a3[j]);
                    let sum02 = x0 + x2;
                    let diff02 = x0 - x2;
                    let sum13 = x1 + x3;
                    let diff13 = rotate(x1 - x3);
                    a0[j] = sum02 + sum13;
                    if j == 0 {
                        a1[j] = sum02 - sum13;
                        a2[j] = diff02 + diff13;
                        a3[j] = diff02 - diff13;
                    } else {
                        a1[j] = (sum02 - sum13) * tw[2 * j * stride];
                        a2[j] = (diff02 + diff13) * tw[j * stride];
                        a3[j] = (diff02 - diff13) * tw[3 * j * stride];
                    }
                }
                continue;
            }
            for start in (0..q).step_by(BLOCK) {
                let end = (start + BLOCK).min(q);
                for j in start..end {
                    let (x0, x1, x2, x3) = (a0[j], a1[j], a2[j], a3[j]);
                    let sum02 = x0 + x2;
                    let diff02 = x0 - x2;
                    let sum13 = x1 + x3;
                    let diff13 = rotate(x1 - x3);
                    a0[j] = sum02 + sum13;
                    a1[j] = sum02 - sum13;
                    a2[j] = diff02 + diff13;
                    a3[j] = diff02 - diff13;
                }
                // Twiddle 1 at j = 0.
                let from = start.max(1);
                if from < end {
                    let len = gather::<T, 3>(tw, stride, from..end, &mut rows);
                    T::mul_twiddles(&mut a1[from..end], &rows[1][..len]);
                    T::mul_twiddles(&mut a2[from..end], &rows[0][..len]);
                    T::mul_twiddles(&mut a3[from..end], &rows[2][..len]);
                }
            }
        }
        half /= 4;
    }
    // A final radix-2 stage (twiddle 1) when an odd number were left.
    if half == 1 {
        for pair in a.chunks_exact_mut(2) {
            let (u, v) = (pair[0], pair[1]);
            pair[0] = u + v;
            pair[1] = u - v;
        }
    }
}

/// In-place inverse of [`dif`] up to the factor `a.len()`: bit-reversed
/// input, natural-order output; `tw` is built from `w'^{−1}` and `rotate`
/// multiplies by `w'^{−order/4}`.
pub(crate) fn dit<T: Ring>(a: &mut [T], tw: &[T], rotate: impl Fn(T) -> T) {
    let size = a.len();
    let Some(&first) = a.first() else {
        return;
    };
    let mut rows = [[first; BLOCK]; 3];
    let batched = T::batches_twiddles();
    debug_assert!(size.is_power_of_two() && tw.len().is_power_of_two() && tw.len() >= size);
    let order = tw.len();
    let mut half = 1;
    if size.trailing_zeros() % 2 == 1 {
        // One radix-2 stage (twiddle 1) so that radix-4 steps fill the rest.
        for pair in a.chunks_exact_mut(2) {
            let (u, v) = (pair[0], pair[1]);
            pair[0] = u + v;
            pair[1] = u - v;
        }
        half = 2;
    }
    // Radix-4 steps: stages `half = q` and `2q` together.
    while half < size {
        let q = half;
        let stride = order / (4 * q);
        for chunk in a.chunks_exact_mut(4 * q) {
            let (a01, a23) = chunk.split_at_mut(2 * q);
            let (a0, a1) = a01.split_at_mut(q);
            let (a2, a3) = a23.split_at_mut(q);
            if !batched {
                for j in 0..q {
                    let (b0, b1, b2, b3) = if j == 0 {
                        (a0[j], a1[j], a2[j], a3[j])
                    } else {
                        (
                            a0[j],
                            a1[j] * tw[2 * j * stride],
                            a2[j] * tw[j * stride],
                            a3[j] * tw[3 * j * stride],
                        )
                    };
                    let lo_sum = b0 + b1;
                    let lo_diff = b0 - b1;
                    let hi_sum = b2 + b3;
                    let hi_diff = rotate(b2 - b3);
                    a0[j] = lo_sum + hi_sum;
                    a2[j] = lo_sum - hi_sum;
                    a1[j] = lo_diff + hi_diff;
                    a3[j] = lo_diff - hi_diff;
                }
                continue;
            }
            for start in (0..q).step_by(BLOCK) {
                let end = (start + BLOCK).min(q);
                // Twiddle 1 at j = 0.
                let from = start.max(1);
                if from < end {
                    let len = gather::<T, 3>(tw, stride, from..end, &mut rows);
                    T::mul_twiddles(&mut a1[from..end], &rows[1][..len]);
                    T::mul_twiddles(&mut a2[from..end], &rows[0][..len]);
                    T::mul_twiddles(&mut a3[from..end], &rows[2][..len]);
                }
                for j in start..end {
                    let (b0, b1, b2, b3) = (a0[j], a1[j], a2[j], a3[j]);
                    let lo_sum = b0 + b1;
                    let lo_diff = b0 - b1;
                    let hi_sum = b2 + b3;
                    let hi_diff = rotate(b2 - b3);
                    a0[j] = lo_sum + hi_sum;
                    a2[j] = lo_sum - hi_sum;
                    a1[j] = lo_diff + hi_diff;
                    a3[j] = lo_diff - hi_diff;
                }
            }
        }
        half *= 4;
    }
}
