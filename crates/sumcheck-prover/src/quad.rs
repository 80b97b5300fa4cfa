//! The layer's quadratic form `Q[g, h0, h1]` and its binding.
//!
//! Terms are kept grouped by hand pair `(h0, h1)` and sorted in Morton
//! order, with `h0`'s bits at the even positions of the key. Sumcheck
//! binds the lowest remaining bit of `h0`, then of `h1`, then the next bit
//! of `h0`, …, i.e. always the lowest bit of the current key, so after
//! each binding the two entries that merge are neighbours and the list
//! stays sorted. One pass per round therefore both binds and fully merges.

use longfellow_field::Field;

use longfellow_par as par;

use crate::wires::WireRead;

fn spread(x: u32) -> u64 {
    let mut v = u64::from(x);
    v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
    v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
    v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    v = (v | (v << 2)) & 0x3333_3333_3333_3333;
    v = (v | (v << 1)) & 0x5555_5555_5555_5555;
    v
}

/// Morton key with `h0` on the even bits.
pub(crate) fn morton(h0: u32, h1: u32) -> u64 {
    spread(h0) | (spread(h1) << 1)
}

/// The quadratic form after binding `g`: sparse `Q[h0, h1]`, distinct
/// pairs in Morton order of the current (partially bound) indices.
#[derive(Clone, Debug, Default)]
pub struct HQuad<F> {
    pub(crate) h: Vec<[u32; 2]>,
    pub(crate) v: Vec<F>,
}

impl<F: Field> HQuad<F> {
    /// Empty, to be filled by binding a layer's output variables.
    pub fn new() -> Self {
        Self {
            h: Vec::new(),
            v: Vec::new(),
        }
    }

    /// Number of stored entries.
    pub fn len(&self) -> usize {
        self.h.len()
    }

    /// The stored `((h0, h1), value)` entries, in the current order.
    pub fn entries(&self) -> impl Iterator<Item = ([u32; 2], F)> + '_ {
        self.h.iter().copied().zip(self.v.iter().copied())
    }

    /// Whether no entry is stored.
    pub fn is_empty(&self) -> bool {
        self.h.is_empty()
    }

    /// `qw[i] = Σ_{entries with h[hand] = i} v·w_other[h[other]]`.
    pub fn contract(
        &self,
        hand: usize,
        w_other: &[F],
        qw: &mut [F],
        scatter: &mut par::Scatter<F>,
    ) {
        let other = 1 - hand;
        // Same rule as `bind_h_and_contract`: split once the entries
        // outnumber the accumulator's slots.
        let work = 2 * self.h.len();
        scatter.run(self.h.len(), work, qw, |range, acc| {
            for j in range {
                let h = self.h[j];
                acc[h[hand] as usize] += self.v[j] * w_other[h[other] as usize];
            }
        });
    }

    /// Binds the lowest bit of `h[hand]` to `r`, merging partner entries.
    pub fn bind_h(&mut self, hand: usize, r: F) {
        let n = self.h.len();
        let parts = par::parts_for(n);
        if parts <= 1 {
            let kept = bind_h_range(&mut self.h, &mut self.v, hand, r);
            self.h.truncate(kept);
            self.v.truncate(kept);
            return;
        }
        let cuts = self.cuts(hand, parts);
        let kept = par::compact_ranges(&mut self.h, &mut self.v, &cuts, |h, v| {
            bind_h_range(h, v, hand, r)
        });
        self.h.truncate(kept);
        self.v.truncate(kept);
    }

    /// [`Self::bind_h`] fused with the next round's [`Self::contract`]:
    /// binds the lowest bit of `h[hand]` to `r` and, for each resulting
    /// entry, adds `v·w_bound[h[hand]]` into `qw[h[other]]`, where `w_bound`
    /// are the wires of `hand` already bound to `r`. One pass over the
    /// entries instead of two.
    pub fn bind_h_and_contract(
        &mut self,
        hand: usize,
        r: F,
        w_bound: &[F],
        qw: &mut [F],
        scatter: &mut par::Scatter<F>,
    ) {
        let n = self.h.len();
        // Splitting pays for a private accumulator per part only when the
        // entries outnumber the accumulator's length.
        let parts = if n >= qw.len() { par::parts_for(n) } else { 1 };
        let cuts = self.cuts(hand, parts);
        let kept = scatter.compact_and_scatter(&mut self.h, &mut self.v, &cuts, qw, |h, v, acc| {
            bind_h_range_contract(h, v, hand, r, w_bound, acc)
        });
        self.h.truncate(kept);
        self.v.truncate(kept);
    }

    /// [`Self::bind_h`] fused with the next half-round's
    /// [`Self::round_coefficients`]: binds the lowest bit of `h[hand]` to
    /// `r` and returns the coefficients for binding the other hand, whose
    /// wires are `w_next`, against `w_bound` (the wires of `hand`, already
    /// bound to `r`). The early rounds of the largest layers stream a form
    /// of tens of megabytes; reading it once per half-round instead of
    /// twice is what this saves.
    pub fn bind_h_and_coefficients<WN, WB>(
        &mut self,
        hand: usize,
        r: F,
        w_next: &WN,
        w_bound: &WB,
    ) -> (F, F)
    where
        WN: WireRead<F> + ?Sized,
        WB: WireRead<F> + ?Sized,
    {
        let next = 1 - hand;
        // Split across threads, the two passes stay apart: fusing them
        // there measured no faster on two threads and added ≈ 0.5 MB of
        // code (one copy per pair of wire encodings).
        if par::parts_for(self.h.len()) > 1 {
            self.bind_h(hand, r);
            return self.round_coefficients(next, w_next, w_bound);
        }
        let mut sums = GroupSums::new();
        let mut done_to = 0;
        let kept = bind_h_blocks(&mut self.h, &mut self.v, hand, r, |written, _| {
            let end = written.h.len() - 1;
            if end >= done_to + COEFFICIENT_LAG {
                let groups = (written.h, written.v, done_to..end);
                sums.add_groups(groups, next, w_next, w_bound);
                done_to = end;
            }
        });
        self.h.truncate(kept);
        self.v.truncate(kept);
        sums.add_groups((&self.h, &self.v, done_to..kept), next, w_next, w_bound);
        sums.finish()
    }

    /// The round coefficients `(a0, a2)` of [`crate::round_coefficients`]
    /// for binding the lowest bit of `h[hand]`, computed from the entries
    /// directly instead of through a contraction buffer (which would hold
    /// one value per wire of `hand`): with `x = w_other[y]`, `e = Q[2k, y]`
    /// and `o = Q[2k+1, y]` (hands in `hand`, other order),
    /// `a0 = Σ e·x·w_hand[2k]` and
    /// `a2 = Σ (o − e)·x·(w_hand[2k+1] − w_hand[2k])`, a missing wire
    /// counting as zero. Partners are neighbours, so one pass suffices.
    pub fn round_coefficients<WH, WO>(&self, hand: usize, w_hand: &WH, w_other: &WO) -> (F, F)
    where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let n = self.h.len();
        par::sum_pairs(n, par::MIN_CHUNK, |range| {
            direct_coefficients(&self.h, &self.v, range, hand, w_hand, w_other)
        })
    }

    /// Cut points for `parts` ranges that never separate two partners.
    fn cuts(&self, hand: usize, parts: usize) -> Vec<usize> {
        let n = self.h.len();
        let mut cuts = Vec::with_capacity(parts + 1);
        cuts.push(0usize);
        for c in 1..parts {
            let mut b = (c * n / parts).max(*cuts.last().unwrap_or(&0));
            if b > 0 && b < n && partners(self.h[b - 1], self.h[b], hand) {
                b += 1;
            }
            cuts.push(b.min(n));
        }
        cuts.push(n);
        cuts
    }

    /// The fully bound value `Q[0, 0]` (zero for an empty form).
    pub fn scalar(&self) -> Option<F> {
        match (self.h.as_slice(), self.v.as_slice()) {
            ([], []) => Some(F::ZERO),
            ([[0, 0]], [v]) => Some(*v),
            _ => None,
        }
    }
}

/// The fused pass takes coefficients over the finished prefix of the bound
/// entries, up to but not including its last entry (whose partner may not
/// be written yet), once this many entries have accumulated.
const COEFFICIENT_LAG: usize = 1024;

/// [`HQuad::round_coefficients`] over the partner groups that start in
/// `range` (see [`GroupSums::add_groups`]).
fn direct_coefficients<F, WH, WO>(
    h: &[[u32; 2]],
    v: &[F],
    range: core::ops::Range<usize>,
    hand: usize,
    w_hand: &WH,
    w_other: &WO,
) -> (F, F)
where
    F: Field,
    WH: WireRead<F> + ?Sized,
    WO: WireRead<F> + ?Sized,
{
    let mut sums = GroupSums::new();
    sums.add_groups((h, v, range), hand, w_hand, w_other);
    sums.finish()
}

/// Operands gathered per group.
const GROUP_BLOCK: usize = 64;

/// `K` columns of up to [`GROUP_BLOCK`] gathered operands.
struct Batch<F, const K: usize> {
    cols: [[F; GROUP_BLOCK]; K],
    len: usize,
}

impl<F: Field, const K: usize> Batch<F, K> {
    fn new() -> Self {
        Self {
            cols: [[F::ZERO; GROUP_BLOCK]; K],
            len: 0,
        }
    }

    /// Appends one row; true once the batch is full.
    #[inline(always)]
    fn push(&mut self, row: [F; K]) -> bool {
        for (col, x) in self.cols.iter_mut().zip(row) {
            col[self.len] = x;
        }
        self.len += 1;
        self.len == GROUP_BLOCK
    }

    /// The filled part of each column; empties the batch.
    fn take(&mut self) -> [&mut [F]; K] {
        let m = core::mem::take(&mut self.len);
        self.cols.each_mut().map(|c| &mut c[..m])
    }
}

/// The sums `a0 = Σ e·x·w_even` and `a2 = Σ (o − e)·x·w_diff` over partner
/// groups, gathered a block at a time so that the products go through the
/// field's slice kernels (deferred reduction in `dot`). Groups missing an
/// entry are kept apart because they need fewer products: a full pair
/// takes four, a lone even entry three (`e·x` once, then against both wire
/// factors) and a lone odd one two (it adds nothing to `a0`).
struct GroupSums<F> {
    /// `e`, `o − e`, `x`, `w_even`, `w_diff`.
    pairs: Batch<F, 5>,
    /// `e`, `x`, `w_even`, `w_diff`.
    evens: Batch<F, 4>,
    /// `o`, `x`, `w_diff`.
    odds: Batch<F, 3>,
    a0: F,
    a2: F,
}

impl<F: Field> GroupSums<F> {
    fn new() -> Self {
        Self {
            pairs: Batch::new(),
            evens: Batch::new(),
            odds: Batch::new(),
            a0: F::ZERO,
            a2: F::ZERO,
        }
    }

    /// Adds the partner groups (for binding the lowest bit of `h[hand]`)
    /// that start in `range` of the entries `h`, `v`: a group whose first
    /// entry lies before `range` belongs to the range before; one that
    /// starts at its end may run one entry past it. With `x = w_other[y]`,
    /// `e = Q[2k, y]` and `o = Q[2k+1, y]`, a missing entry or wire counting
    /// as zero. Partners are neighbours, so one pass suffices.
    fn add_groups<WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], core::ops::Range<usize>),
        hand: usize,
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let other = 1 - hand;
        let n = h.len();
        let len = w_hand.len();
        let mut i = range.start;
        if i > 0 && i < n && partners(h[i - 1], h[i], hand) {
            i += 1;
        }
        while i < range.end {
            let key = h[i];
            let k2 = (key[hand] & !1) as usize;
            let we = w_hand.at(k2);
            let wo = if k2 + 1 < len {
                w_hand.at(k2 + 1)
            } else {
                F::ZERO
            };
            let (x, wd) = (w_other.at(key[other] as usize), wo - we);
            if key[hand] & 1 == 1 {
                if self.odds.push([v[i], x, wd]) {
                    self.flush_odds();
                }
                i += 1;
            } else if i + 1 < n && partners(key, h[i + 1], hand) {
                let (e, o) = (v[i], v[i + 1]);
                if self.pairs.push([e, o - e, x, we, wd]) {
                    self.flush_pairs();
                }
                i += 2;
            } else {
                if self.evens.push([v[i], x, we, wd]) {
                    self.flush_evens();
                }
                i += 1;
            }
        }
    }

    fn flush_pairs(&mut self) {
        let [even, diff, x, w_even, w_diff] = self.pairs.take();
        F::mul_assign_slice(even, x);
        F::mul_assign_slice(diff, x);
        self.a0 += F::dot(even, w_even);
        self.a2 += F::dot(diff, w_diff);
    }

    fn flush_evens(&mut self) {
        // (o − e) = −e for a lone even entry.
        let [e, x, w_even, w_diff] = self.evens.take();
        F::mul_assign_slice(e, x);
        self.a0 += F::dot(e, w_even);
        self.a2 -= F::dot(e, w_diff);
    }

    fn flush_odds(&mut self) {
        let [o, x, w_diff] = self.odds.take();
        F::mul_assign_slice(o, x);
        self.a2 += F::dot(o, w_diff);
    }

    fn finish(mut self) -> (F, F) {
        self.flush_pairs();
        self.flush_evens();
        self.flush_odds();
        (self.a0, self.a2)
    }
}

fn partners(a: [u32; 2], b: [u32; 2], hand: usize) -> bool {
    let other = 1 - hand;
    a[other] == b[other] && (a[hand] >> 1) == (b[hand] >> 1) && a[hand] & 1 == 0 && b[hand] & 1 == 1
}

/// [`bind_h_range`] that also accumulates each bound entry's contraction
/// for the other hand; the block's wire factors are gathered so that these
/// products, too, go through the field's slice kernel.
fn bind_h_range_contract<F: Field>(
    h: &mut [[u32; 2]],
    v: &mut [F],
    hand: usize,
    r: F,
    w_bound: &[F],
    acc: &mut [F],
) -> usize {
    let other = 1 - hand;
    let mut w = [F::ZERO; BIND_BLOCK];
    bind_h_blocks(h, v, hand, r, |written, vals| {
        let keys = written.block_keys();
        for (wj, hh) in w.iter_mut().zip(keys) {
            *wj = w_bound[hh[hand] as usize];
        }
        F::mul_assign_slice(vals, &w[..keys.len()]);
        for (hh, p) in keys.iter().zip(vals.iter()) {
            acc[hh[other] as usize] += *p;
        }
    })
}

/// Binds a range in place; returns how many entries remain at its front.
fn bind_h_range<F: Field>(h: &mut [[u32; 2]], v: &mut [F], hand: usize, r: F) -> usize {
    bind_h_blocks(h, v, hand, r, |_, _| {})
}

/// The bound entries [`bind_h_blocks`] has finished so far (`h`, `v`: all
/// of them, in final order), the newest block starting at `start`.
struct Written<'a, F> {
    h: &'a [[u32; 2]],
    v: &'a [F],
    start: usize,
}

impl<F> Written<'_, F> {
    fn block_keys(&self) -> &[[u32; 2]] {
        &self.h[self.start..]
    }
}

/// Bound entries produced per block by [`bind_h_blocks`].
const BIND_BLOCK: usize = 64;

/// Binds the lowest bit of `h[hand]` to `r` in place, a block of outputs at
/// a time, calling `done(written, values)` with each finished block (`values`
/// is a scratch copy, free to overwrite); returns how many entries remain
/// at the front.
///
/// Each bound value is `base + r·diff` (a lone even entry: `v + r·(0 − v)`,
/// a lone odd one: `0 + r·v`); a block's bases and differences are gathered
/// first so that the products go through the field's `axpy` kernel.
/// Outputs never overtake inputs (`wr ≤ rd`), so a block's values can be
/// written back once all its inputs were read.
fn bind_h_blocks<F: Field>(
    h: &mut [[u32; 2]],
    v: &mut [F],
    hand: usize,
    r: F,
    mut done: impl FnMut(Written<'_, F>, &mut [F]),
) -> usize {
    let n = h.len();
    let mut base = [F::ZERO; BIND_BLOCK];
    let mut diff = [F::ZERO; BIND_BLOCK];
    let mut rd = 0;
    let mut wr = 0;
    while rd < n {
        let start = wr;
        let mut m = 0;
        while m < BIND_BLOCK && rd < n {
            let mut hh = h[rd];
            if rd + 1 < n && partners(h[rd], h[rd + 1], hand) {
                base[m] = v[rd];
                diff[m] = v[rd + 1] - v[rd];
                rd += 2;
            } else if hh[hand] & 1 == 0 {
                base[m] = v[rd];
                diff[m] = -v[rd];
                rd += 1;
            } else {
                base[m] = F::ZERO;
                diff[m] = v[rd];
                rd += 1;
            }
            hh[hand] >>= 1;
            h[wr] = hh;
            wr += 1;
            m += 1;
        }
        F::axpy(&mut base[..m], r, &diff[..m]);
        v[start..start + m].copy_from_slice(&base[..m]);
        let written = Written {
            h: &h[..start + m],
            v: &v[..start + m],
            start,
        };
        done(written, &mut base[..m]);
    }
    wr
}

#[cfg(test)]
#[path = "quad_fused_tests.rs"]
mod fused_tests;
