//! The equality polynomial factored over groups of index bits, for the
//! verifier's pass over a layer's terms.
//!
//! `eq(P, i)` factors over any split of the index bits: with
//! `i = lo + 2^k·hi`, `eq(P, i) = eq(P[..k], lo)·eq(P[k..], hi)`. Tables of
//! a few thousand entries per group stay in cache and cost almost nothing
//! to build, where one full table of a 900 k-wire layer is 14 MB, written
//! once and then read at random. The price is a product per group, which
//! the term pass amortises: over runs of terms sharing high wire bits for
//! the input wires ([`PairEq`]), and over cached rows for the output wires
//! ([`EqRowCache`]).

use longfellow_field::Field;

use crate::eq::eq_table;

/// Low index bits to give the first table for indices below `n` with a
/// `bits`-coordinate point: half the significant bits, rounded up.
fn lo_bits_for(bits: usize, n: usize) -> usize {
    let significant = crate::eq::log2_ceil(n).min(bits);
    significant.div_ceil(2)
}

/// `eq(g0, i) + α·eq(g1, i)` for `i < n` (the verifier's output-wire
/// weight) from four short tables, α folded into the second high table.
#[derive(Clone, Debug)]
pub struct SplitEq2<F> {
    /// `eq(g0[..k], ·)`, `eq(g1[..k], ·)`: `min(n, 2^k)` entries each.
    pub(crate) lo: [Vec<F>; 2],
    /// `eq(g0[k..], ·)`, `α·eq(g1[k..], ·)`: `⌈n / 2^k⌉` entries each.
    pub(crate) hi: [Vec<F>; 2],
    /// `k`.
    pub(crate) shift: u32,
}

impl<F: Field> SplitEq2<F> {
    /// Tables for `eq(g0, i) + alpha·eq(g1, i)`, `0 ≤ i < n`; both points
    /// have the same length `≥ log2(n)`.
    pub fn new(g0: &[F], g1: &[F], alpha: F, n: usize) -> Self {
        debug_assert_eq!(g0.len(), g1.len());
        let k = lo_bits_for(g0.len(), n);
        let (mut lo, mut hi) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
        for (j, g) in [g0, g1].into_iter().enumerate() {
            let (p_lo, p_hi) = g.split_at(k);
            // Every low pattern occurs once an index reaches 2^k.
            eq_table(p_lo, n.min(1 << k), &mut lo[j]);
            eq_table(p_hi, n.div_ceil(1 << k), &mut hi[j]);
        }
        for h in hi[1].iter_mut() {
            *h *= alpha;
        }
        Self {
            lo,
            hi,
            shift: k as u32,
        }
    }

    /// The low tables, the high tables and the number `k` of low bits:
    /// the value at `i` is `lo[0][i mod 2^k]·hi[0][i >> k] +
    /// lo[1][i mod 2^k]·hi[1][i >> k]` (for a caller's own lookup loop).
    pub fn tables(&self) -> (&[Vec<F>; 2], &[Vec<F>; 2], u32) {
        (&self.lo, &self.hi, self.shift)
    }

    /// The value at `i < n` (the caller has checked the range).
    #[inline]
    pub fn at(&self, i: usize) -> F {
        let (lo, hi) = (i & ((1 << self.shift) - 1), i >> self.shift);
        self.lo[0][lo] * self.hi[0][hi] + self.lo[1][lo] * self.hi[1][hi]
    }
}

/// [`SplitEq2`] values cached one row of the low tables at a time.
///
/// A row (the `2^shift` indices sharing a high part) costs two products
/// per entry, as much as evaluating one index from the four tables, but is
/// then reused by every later index in it. Rows live in a direct-mapped cache
/// of at most `max_bytes`; when every row fits, each is computed at most
/// once and the cache is the full table, built lazily.
#[derive(Debug)]
pub(crate) struct EqRowCache<F> {
    rows: Vec<F>,
    /// Row held by each slot (`u32::MAX`: none).
    tags: Vec<u32>,
    slot_mask: usize,
    width: usize,
    /// `log2(width)`: an index's row is `i >> shift`.
    shift: u32,
    /// `slots·width − 1`. Slots are direct-mapped and hold consecutive
    /// rows, so index `i` lives at `i & index_mask` of `rows` (its slot's
    /// start plus its offset in the row).
    index_mask: usize,
}

impl<F: Field> EqRowCache<F> {
    /// An empty cache; [`EqRowCache::reset`] sizes it.
    pub(crate) fn new() -> Self {
        Self {
            rows: Vec::new(),
            tags: Vec::new(),
            slot_mask: 0,
            width: 1,
            shift: 0,
            index_mask: 0,
        }
    }

    /// Empties the cache and sizes it for `eq` within `max_bytes` (at
    /// least one row). The row buffer only grows, so a pass over several
    /// layers writes each page of it once.
    pub(crate) fn reset(&mut self, eq: &SplitEq2<F>, max_bytes: usize) {
        let width = 1usize << eq.shift;
        let nrows = eq.hi[0].len().max(1);
        let row_bytes = width * core::mem::size_of::<F>();
        let fit = (max_bytes / row_bytes).max(1);
        // A power of two at least nrows when that fits, so that no two rows
        // share a slot; otherwise the largest power of two that fits.
        let slots = if nrows <= fit {
            nrows.next_power_of_two()
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        if self.rows.len() < slots * width {
            self.rows.resize(slots * width, F::ZERO);
        }
        self.tags.clear();
        self.tags.resize(slots, u32::MAX);
        self.slot_mask = slots - 1;
        self.width = width;
        self.shift = eq.shift;
        self.index_mask = slots * width - 1;
    }

    /// The value of `eq` at `i < n` (the caller has checked the range).
    #[inline(always)]
    pub(crate) fn at(&mut self, eq: &SplitEq2<F>, i: usize) -> F {
        debug_assert_eq!(
            eq.shift, self.shift,
            "the cache was reset for another table"
        );
        let row = i >> self.shift;
        let slot = row & self.slot_mask;
        if self.tags[slot] != row as u32 {
            self.fill(eq, slot, row);
        }
        self.rows[i & self.index_mask]
    }

    /// Computes row `row` into `slot`. Out of line: rows change rarely (the
    /// files' terms keep output wires local), so the caller's loop stays
    /// small and its accumulators stay in registers.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, eq: &SplitEq2<F>, slot: usize, row: usize) {
        self.tags[slot] = row as u32;
        let start = slot * self.width;
        let line = &mut self.rows[start..start + self.width];
        // One pass, one reduction per entry; the low tables are shorter
        // than a row only when `n < 2^k` (entries no index reaches).
        F::lincomb2(line, eq.hi[0][row], &eq.lo[0], eq.hi[1][row], &eq.lo[1]);
        let filled = eq.lo[0].len().min(eq.lo[1].len()).min(line.len());
        line[filled..].fill(F::ZERO);
    }
}

/// Bits of each wire per level of [`PairEq`].
const DIGIT_BITS: u32 = 5;
/// Levels needed for 32-bit wires.
pub(crate) const MAX_LEVELS: usize = 32usize.div_ceil(DIGIT_BITS as usize);

/// `eq(H0, h0)·eq(H1, h1)` for wires `h0, h1 < n`, factored over levels of
/// [`DIGIT_BITS`]-bit digits: level `j` holds, for every pair of digits
/// `(d0, d1)`, `eq(H0's level-j coordinates, d0)·eq(H1's level-j
/// coordinates, d1)`, and the value is the product over the levels of the
/// entries for the wires' digits. The top level also takes the
/// coordinates above the wires' bits (where both wires have zeros).
///
/// A pass over terms whose wire pairs come in an order where high digits
/// change rarely multiplies a partial sum by one entry each time a level's
/// digits change, instead of two products per term.
#[derive(Debug)]
pub(crate) struct PairEq<F> {
    /// `tables[j][d0·width[j] + d1]`.
    tables: Vec<Vec<F>>,
    widths: Vec<usize>,
}

/// One level of a [`PairEq`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Level<'a, F> {
    /// `table[d0·width + d1]`.
    table: &'a [F],
    width: usize,
    /// The position of this level's digits in a wire.
    shift: u32,
}

impl<F: Field> Level<'_, F> {
    /// This level's factor of wires `(h0, h1)` (both below `n`).
    #[inline]
    pub(crate) fn factor(&self, h0: u32, h1: u32) -> F {
        let mask = (1u32 << DIGIT_BITS) - 1;
        let (d0, d1) = ((h0 >> self.shift) & mask, (h1 >> self.shift) & mask);
        self.table[d0 as usize * self.width + d1 as usize]
    }
}

impl<F: Field> PairEq<F> {
    /// Tables for wires below `n` (`n ≤ 2^h0.len()`, `h0`, `h1` of equal
    /// length).
    pub(crate) fn new(h0: &[F], h1: &[F], n: usize) -> Self {
        debug_assert_eq!(h0.len(), h1.len());
        let bits = crate::eq::log2_ceil(n).min(h0.len());
        let levels = bits.div_ceil(DIGIT_BITS as usize).max(1);
        let s = DIGIT_BITS as usize;
        let mut tables = Vec::with_capacity(levels);
        let mut widths = Vec::with_capacity(levels);
        let (mut e0, mut e1) = (Vec::new(), Vec::new());
        for j in 0..levels {
            let start = (j * s).min(h0.len());
            let end = if j + 1 == levels {
                h0.len()
            } else {
                (j + 1) * s
            };
            // Digit values that wires below n reach at this level.
            let width = ((n.max(1) - 1) >> (j * s)).min((1 << s) - 1) + 1;
            eq_table(&h0[start..end], width, &mut e0);
            eq_table(&h1[start..end], width, &mut e1);
            let mut t = Vec::with_capacity(width * width);
            for a in &e0 {
                t.extend(e1.iter().map(|b| *a * *b));
            }
            tables.push(t);
            widths.push(width);
        }
        Self { tables, widths }
    }

    /// Number of levels.
    pub(crate) fn levels(&self) -> usize {
        self.tables.len()
    }

    /// Bits per level digit.
    pub(crate) const fn digit_bits() -> u32 {
        DIGIT_BITS
    }

    /// Level `j`'s table, to be kept by a caller that reads one level on
    /// every step (the term pass and level 0).
    #[inline]
    pub(crate) fn level(&self, j: usize) -> Level<'_, F> {
        Level {
            table: &self.tables[j],
            width: self.widths[j],
            shift: DIGIT_BITS * j as u32,
        }
    }

    /// The level-`j` factor of wires `(h0, h1)` (both below `n`).
    #[inline]
    pub(crate) fn factor(&self, j: usize, h0: u32, h1: u32) -> F {
        self.level(j).factor(h0, h1)
    }

    /// `eq(H0, h0)·eq(H1, h1)` (both below `n`).
    #[cfg(test)]
    pub(crate) fn at(&self, h0: u32, h1: u32) -> F {
        (0..self.levels()).fold(F::ONE, |acc, j| acc * self.factor(j, h0, h1))
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
        let q = point::<F>(seed ^ 0x55, bits);
        let alpha = F::from_u64(seed | 1) * F::from_u64(12_345);
        let mut full2 = Vec::new();
        eq2_table(&p, &q, alpha, n, &mut full2);
        let split2 = SplitEq2::new(&p, &q, alpha, n);
        for (i, want) in full2.iter().enumerate() {
            assert_eq!(split2.at(i), *want, "n={n} i={i}");
        }
        // A cache of one, two or every row gives the same values in any
        // order, fresh or reused after a larger size (its buffer then
        // outgrows the slots in use).
        let mut reused = EqRowCache::new();
        for rows in [1, 2, usize::MAX / 64, 2, 1] {
            let bytes = rows.saturating_mul(core::mem::size_of::<F>() << split2.shift);
            let mut fresh = EqRowCache::new();
            for cache in [&mut fresh, &mut reused] {
                cache.reset(&split2, bytes);
                for i in (0..n).rev().chain(0..n).step_by(3) {
                    assert_eq!(cache.at(&split2, i), full2[i], "n={n} i={i} rows={rows}");
                }
            }
        }
    }

    fn check_pair<F: Field>(seed: u64, n: usize, extra: usize) {
        let bits = log2_ceil(n) + extra;
        let (p, q) = (point::<F>(seed, bits), point::<F>(seed ^ 0xaa, bits));
        let (mut e0, mut e1) = (Vec::new(), Vec::new());
        eq_table(&p, n, &mut e0);
        eq_table(&q, n, &mut e1);
        let pair = PairEq::new(&p, &q, n);
        // A spread of pairs: all for small n, a stride through the rest.
        let step = (n / 97).max(1);
        for h0 in (0..n).step_by(step).chain(n.checked_sub(1)) {
            for h1 in (0..n).step_by(step).chain(n.checked_sub(1)) {
                let want = e0[h0] * e1[h1];
                assert_eq!(pair.at(h0 as u32, h1 as u32), want, "n={n} h=({h0},{h1})");
            }
        }
    }

    #[test]
    fn edge_sizes() {
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 1000, 1024, 1025] {
            for extra in [0, 1, 3] {
                check::<Gf2_128>(n as u64, n, extra);
                check::<Fp256>(n as u64, n, extra);
                check_pair::<Gf2_128>(n as u64, n, extra);
                check_pair::<Fp256>(n as u64, n, extra);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn split_equals_full_table(seed in any::<u64>(), n in 0usize..5000, extra in 0usize..4) {
            check::<Gf2_128>(seed, n, extra);
            check::<Fp256>(seed, n, extra);
            check_pair::<Gf2_128>(seed, n, extra);
            check_pair::<Fp256>(seed, n, extra);
        }
    }
}
