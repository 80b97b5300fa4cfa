//! The equality polynomial as a product of two short tables.
//!
//! `eq(P, i)` factors over any split of the index bits: with `i = lo + 2^k·hi`,
//! `eq(P, i) = eq(P[..k], lo)·eq(P[k..], hi)`. Two tables of about `√n`
//! entries each stay in the first-level cache and cost almost nothing to
//! build, where one full table of a 900 k-wire layer is 14 MB, written once
//! and then read at random. The price is one product per lookup, which the
//! verifier's term pass mostly amortises over runs of terms that share the
//! high bits of their wires.

use longfellow_field::Field;

use crate::eq::eq_table;

/// Low index bits to give the first table for indices below `n` with a
/// `bits`-coordinate point: half the significant bits, rounded up.
fn lo_bits_for(bits: usize, n: usize) -> usize {
    let significant = crate::eq::log2_ceil(n).min(bits);
    significant.div_ceil(2)
}

/// `eq(point, i)` for `i < n` from two tables.
#[derive(Clone, Debug)]
pub(crate) struct SplitEq<F> {
    lo: Vec<F>,
    hi: Vec<F>,
    shift: u32,
    n: usize,
}

impl<F: Field> SplitEq<F> {
    /// Tables for `eq(point, i)`, `0 ≤ i < n ≤ 2^point.len()`.
    pub(crate) fn new(point: &[F], n: usize) -> Self {
        let mut s = Self {
            lo: Vec::new(),
            hi: Vec::new(),
            shift: 0,
            n: 0,
        };
        s.reset(point, n);
        s
    }

    /// Rebuilds in place (reusing the allocations) for another point.
    pub(crate) fn reset(&mut self, point: &[F], n: usize) {
        debug_assert!(point.len() >= usize::BITS as usize || n <= 1usize << point.len());
        let k = lo_bits_for(point.len(), n);
        let (p_lo, p_hi) = point.split_at(k);
        // Every low pattern occurs once an index reaches 2^k.
        eq_table(p_lo, n.min(1 << k), &mut self.lo);
        eq_table(p_hi, n.div_ceil(1 << k), &mut self.hi);
        self.shift = k as u32;
        self.n = n;
    }

    /// Number of indices covered.
    pub(crate) fn len(&self) -> usize {
        self.n
    }

    /// Bits in the low table's index.
    pub(crate) fn shift(&self) -> u32 {
        self.shift
    }

    /// The low table: `eq(P[..shift], lo)`.
    pub(crate) fn lo(&self) -> &[F] {
        &self.lo
    }

    /// The high table: `eq(P[shift..], hi)`.
    pub(crate) fn hi(&self) -> &[F] {
        &self.hi
    }

    /// `eq(point, i)`, or `None` for `i ≥ n`.
    #[cfg(test)]
    pub(crate) fn get(&self, i: usize) -> Option<F> {
        if i >= self.n {
            return None;
        }
        let lo = self.lo[i & ((1 << self.shift) - 1)];
        Some(lo * self.hi[i >> self.shift])
    }
}

/// `eq(g0, i) + α·eq(g1, i)` for `i < n` (the verifier's output-wire
/// weight) from four short tables, α folded into the second high table.
#[derive(Clone, Debug)]
pub(crate) struct SplitEq2<F> {
    lo: [Vec<F>; 2],
    hi: [Vec<F>; 2],
    shift: u32,
    n: usize,
}

impl<F: Field> SplitEq2<F> {
    /// Tables for `eq(g0, i) + alpha·eq(g1, i)`, `0 ≤ i < n`; both points
    /// have the same length `≥ log2(n)`.
    pub(crate) fn new(g0: &[F], g1: &[F], alpha: F, n: usize) -> Self {
        let mut s = Self {
            lo: [Vec::new(), Vec::new()],
            hi: [Vec::new(), Vec::new()],
            shift: 0,
            n: 0,
        };
        s.reset(g0, g1, alpha, n);
        s
    }

    /// Rebuilds in place (reusing the allocations).
    pub(crate) fn reset(&mut self, g0: &[F], g1: &[F], alpha: F, n: usize) {
        debug_assert_eq!(g0.len(), g1.len());
        let k = lo_bits_for(g0.len(), n);
        for (j, g) in [g0, g1].into_iter().enumerate() {
            let (p_lo, p_hi) = g.split_at(k);
            eq_table(p_lo, n.min(1 << k), &mut self.lo[j]);
            eq_table(p_hi, n.div_ceil(1 << k), &mut self.hi[j]);
        }
        for h in self.hi[1].iter_mut() {
            *h *= alpha;
        }
        self.shift = k as u32;
        self.n = n;
    }

    /// The value at `i < n` (the caller has checked the range).
    #[inline]
    pub(crate) fn at(&self, i: usize) -> F {
        let (lo, hi) = (i & ((1 << self.shift) - 1), i >> self.shift);
        self.lo[0][lo] * self.hi[0][hi] + self.lo[1][lo] * self.hi[1][hi]
    }

    /// Writes the whole table (`n` entries) into `out`: one row of low
    /// entries per high index, two products per entry.
    pub(crate) fn fill(&self, out: &mut Vec<F>) {
        out.clear();
        out.reserve(self.n);
        let width = 1usize << self.shift;
        for (h0, h1) in self.hi[0].iter().zip(&self.hi[1]) {
            let take = (self.n - out.len()).min(width);
            out.extend(
                self.lo[0][..take]
                    .iter()
                    .zip(&self.lo[1][..take])
                    .map(|(l0, l1)| *l0 * *h0 + *l1 * *h1),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eq::{eq2_table, log2_ceil};
    use longfellow_field::{Fp256, Gf2_128};
    use proptest::prelude::*;

    fn point<F: Field>(seed: u64, len: usize) -> Vec<F> {
        (0..len as u64)
            .map(|i| {
                let x = F::from_u64(seed.wrapping_mul(0x9e37_79b9).wrapping_add(i * 7919 + 1));
                x * x * x + F::from_u64(i + 3)
            })
            .collect()
    }

    fn check<F: Field>(seed: u64, n: usize, extra: usize) {
        let bits = log2_ceil(n) + extra;
        let p = point::<F>(seed, bits);
        let mut full = Vec::new();
        eq_table(&p, n, &mut full);
        let split = SplitEq::new(&p, n);
        assert_eq!(split.len(), n);
        for (i, want) in full.iter().enumerate() {
            assert_eq!(split.get(i), Some(*want), "n={n} i={i}");
        }
        assert_eq!(split.get(n), None);

        let q = point::<F>(seed ^ 0x55, bits);
        let alpha = F::from_u64(seed | 1) * F::from_u64(12_345);
        let (mut full2, mut tmp) = (Vec::new(), Vec::new());
        eq2_table(&p, &q, alpha, n, &mut full2, &mut tmp);
        let split2 = SplitEq2::new(&p, &q, alpha, n);
        for (i, want) in full2.iter().enumerate() {
            assert_eq!(split2.at(i), *want, "n={n} i={i}");
        }
        let mut filled = Vec::new();
        split2.fill(&mut filled);
        assert_eq!(filled, full2);
    }

    #[test]
    fn edge_sizes() {
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 1000, 1024, 1025] {
            for extra in [0, 1, 3] {
                check::<Gf2_128>(n as u64, n, extra);
                check::<Fp256>(n as u64, n, extra);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn split_equals_full_table(seed in any::<u64>(), n in 0usize..5000, extra in 0usize..4) {
            check::<Gf2_128>(seed, n, extra);
            check::<Fp256>(seed, n, extra);
        }
    }
}
