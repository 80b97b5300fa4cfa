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

use crate::group_sums::{partners, sums_by_code, GroupSums};
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

/// Whether `a` comes strictly before `b` in [`morton`] order, without
/// interleaving the bits: the hand whose indices differ in the higher bit
/// decides, `h1` on a tie (its bits sit above `h0`'s). Streaming a layer's
/// terms checks this once per hand pair (millions per proof), where
/// spreading both keys cost about thirty operations each.
#[inline]
pub(crate) fn morton_less(a: [u32; 2], b: [u32; 2]) -> bool {
    let (x0, x1) = (a[0] ^ b[0], a[1] ^ b[1]);
    // `x1`'s highest set bit is below `x0`'s.
    let h0_decides = x1 < x0 && x1 < (x0 ^ x1);
    if h0_decides {
        a[0] < b[0]
    } else {
        a[1] < b[1]
    }
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
        // Counted as `bind_h_and_contract` counts its entries, so the two
        // split at the same sizes (`par::scatter_pays`).
        let work = 2 * self.h.len();
        scatter.run(self.h.len(), work, qw, |range, acc| {
            let (h, v) = (&self.h[range.clone()], &self.v[range]);
            if hand == 0 {
                contract_range::<F, 0>(h, v, w_other, acc);
            } else {
                contract_range::<F, 1>(h, v, w_other, acc);
            }
        });
    }

    /// Binds the lowest bit of `h[hand]` to `r`, merging partner entries.
    pub fn bind_h(&mut self, hand: usize, r: F) {
        let n = self.h.len();
        let parts = par::parts_of::<F>(n);
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
        // Two products per entry (the binding's and the contraction's).
        let parts = if par::scatter_pays::<F>(2 * n, qw.len()) {
            par::parts_of::<F>(n)
        } else {
            1
        };
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
        if par::parts_of::<F>(self.h.len()) > 1 {
            self.bind_h(hand, r);
            return self.round_coefficients(next, w_next, w_bound);
        }
        let mut sums = GroupSums::for_wires(w_next, w_bound, self.h.len());
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
        sums.finish(w_next, w_bound)
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
        let parts = par::parts_of::<F>(n);
        if !sums_by_code(w_hand, w_other, n / parts) {
            return par::sum_pairs(n, par::split_len::<F>(), |range| {
                direct_coefficients(&self.h, &self.v, range, hand, w_hand, w_other)
            });
        }
        // Code-bucketed sums keep a grid per part: one part per thread. The
        // grids are allocated here, on the calling thread: what a helper
        // thread allocates and frees stays in its malloc arena and raised
        // the two-thread peak, while a block freed on the helper goes back
        // to the arena it came from.
        let per = n.div_ceil(parts).max(1);
        let sums: Vec<(usize, GroupSums<F>)> = (0..parts)
            .map(|k| (k * per, GroupSums::for_wires(w_hand, w_other, per)))
            .collect();
        par::map_vec(sums, |(start, mut sums)| {
            let range = start.min(n)..(start + per).min(n);
            sums.add_groups((&self.h, &self.v, range), hand, w_hand, w_other);
            sums.finish(w_hand, w_other)
        })
        .into_iter()
        .fold((F::ZERO, F::ZERO), |(a, b), (x, y)| (a + x, b + y))
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
    let mut sums = GroupSums::for_wires(w_hand, w_other, range.len());
    sums.add_groups((h, v, range), hand, w_hand, w_other);
    sums.finish(w_hand, w_other)
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
    if hand == 0 {
        bind_h_range_contract_of::<F, 0>(h, v, r, w_bound, acc)
    } else {
        bind_h_range_contract_of::<F, 1>(h, v, r, w_bound, acc)
    }
}

/// `acc[h[HAND]] += v·w_other[h[other]]` over one range of entries.
fn contract_range<F: Field, const HAND: usize>(
    h: &[[u32; 2]],
    v: &[F],
    w_other: &[F],
    acc: &mut [F],
) {
    for (key, &q) in h.iter().zip(v) {
        acc[key[HAND] as usize] += q * w_other[key[1 - HAND] as usize];
    }
}

fn bind_h_range_contract_of<F: Field, const HAND: usize>(
    h: &mut [[u32; 2]],
    v: &mut [F],
    r: F,
    w_bound: &[F],
    acc: &mut [F],
) -> usize {
    let (hand, other) = (HAND, 1 - HAND);
    let mut w = [F::ZERO; BIND_BLOCK];
    bind_h_blocks_of::<F, HAND>(h, v, r, |written, vals| {
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
    done: impl FnMut(Written<'_, F>, &mut [F]),
) -> usize {
    // The hand is a constant inside: indexing a key by a run-time hand
    // puts the key through the stack, and writing half of it back then
    // reading it whole stalls store forwarding on every entry.
    if hand == 0 {
        bind_h_blocks_of::<F, 0>(h, v, r, done)
    } else {
        bind_h_blocks_of::<F, 1>(h, v, r, done)
    }
}

fn bind_h_blocks_of<F: Field, const HAND: usize>(
    h: &mut [[u32; 2]],
    v: &mut [F],
    r: F,
    mut done: impl FnMut(Written<'_, F>, &mut [F]),
) -> usize {
    let hand = HAND;
    let n = h.len();
    let mut base = [F::ZERO; BIND_BLOCK];
    let mut diff = [F::ZERO; BIND_BLOCK];
    let mut rd = 0;
    let mut wr = 0;
    while rd < n {
        let start = wr;
        let mut m = 0;
        while m < BIND_BLOCK && rd < n {
            let hh = h[rd];
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
            h[wr] = if HAND == 0 {
                [hh[0] >> 1, hh[1]]
            } else {
                [hh[0], hh[1] >> 1]
            };
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

#[cfg(test)]
mod morton_tests {
    use super::{morton, morton_less};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        /// Small ranges make equal and one-bit-apart hands common.
        #[test]
        fn morton_less_orders_as_the_keys_do(
            a0 in prop_oneof![0u32..8, any::<u32>()],
            a1 in prop_oneof![0u32..8, any::<u32>()],
            b0 in prop_oneof![0u32..8, any::<u32>()],
            b1 in prop_oneof![0u32..8, any::<u32>()],
        ) {
            prop_assert_eq!(morton_less([a0, a1], [b0, b1]), morton(a0, a1) < morton(b0, b1));
            prop_assert_eq!(morton_less([b0, b1], [a0, a1]), morton(b0, b1) < morton(a0, a1));
        }
    }

    #[test]
    fn morton_less_edge_cases() {
        assert!(!morton_less([3, 5], [3, 5]));
        assert!(morton_less([1, 0], [0, 1]));
        assert!(!morton_less([0, 1], [1, 0]));
        assert!(morton_less([u32::MAX, 0], [0, 1 << 31]));
        assert!(morton_less([0, u32::MAX >> 1], [0, 1 << 31]));
        assert!(morton_less([1 << 31, 0], [0, 1 << 31]));
    }
}
