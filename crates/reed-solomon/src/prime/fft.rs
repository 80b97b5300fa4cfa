//! Radix-2 FFTs over any commutative ring with the needed roots of unity.
//!
//! The forward transform is decimation-in-frequency (natural order in,
//! bit-reversed order out) and the inverse is decimation-in-time
//! (bit-reversed in, natural out), so a convolution needs no explicit
//! permutation: transform, multiply pointwise in bit-reversed order, invert.

use core::ops::{Add, Mul, Sub};

/// The arithmetic an FFT needs.
pub(crate) trait Ring:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
}

impl<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>> Ring for T {}

/// Powers `w^0, w^1, …, w^{order/2 − 1}` of a root `w` of order `order`
/// (a power of two `≥ 2`): the twiddle table for every transform size
/// dividing `order`.
pub(crate) fn twiddle_table<T: Ring>(w: T, one: T, order: usize) -> Vec<T> {
    let mut tw = Vec::with_capacity(order / 2);
    let mut x = one;
    for _ in 0..order / 2 {
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
/// `tw = twiddle_table(w', ·, order)` for a `w'` with `w = w'^(order/a.len())`.
///
/// Only `a[..nonzero]` may be non-zero on entry; the first stages, whose
/// upper inputs are then all zero, skip the additions. `a.len()` must be a
/// power of two.
pub(crate) fn dif<T: Ring>(a: &mut [T], tw: &[T], nonzero: usize) {
    let size = a.len();
    debug_assert!(size.is_power_of_two());
    let order = 2 * tw.len();
    let mut nonzero = nonzero;
    let mut half = size / 2;
    while half >= 1 {
        let stride = order / (2 * half);
        let sparse = nonzero <= half;
        for chunk in a.chunks_exact_mut(2 * half) {
            let (lo, hi) = chunk.split_at_mut(half);
            if sparse {
                // (u, 0) ↦ (u, u·w^j); zero inputs stay zero.
                for (j, (x, y)) in lo.iter().zip(hi.iter_mut()).take(nonzero).enumerate() {
                    *y = *x * tw[j * stride];
                }
            } else if half == 1 {
                let (u, v) = (lo[0], hi[0]);
                lo[0] = u + v;
                hi[0] = u - v;
            } else {
                for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                    let (u, v) = (*x, *y);
                    *x = u + v;
                    *y = (u - v) * tw[j * stride];
                }
            }
        }
        if !sparse {
            // Every later stage sees dense data.
            nonzero = usize::MAX;
        }
        half /= 2;
    }
}

/// In-place inverse of [`dif`] up to the factor `a.len()`:
/// bit-reversed input, natural-order output, `tw` built from `w^{-1}`.
pub(crate) fn dit<T: Ring>(a: &mut [T], tw: &[T]) {
    let size = a.len();
    debug_assert!(size.is_power_of_two());
    let order = 2 * tw.len();
    let mut half = 1;
    while half < size {
        let stride = order / (2 * half);
        for chunk in a.chunks_exact_mut(2 * half) {
            let (lo, hi) = chunk.split_at_mut(half);
            if half == 1 {
                let (u, v) = (lo[0], hi[0]);
                lo[0] = u + v;
                hi[0] = u - v;
                continue;
            }
            for (j, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                let u = *x;
                let v = *y * tw[j * stride];
                *x = u + v;
                *y = u - v;
            }
        }
        half *= 2;
    }
}
