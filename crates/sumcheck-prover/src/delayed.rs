//! Delayed binding: the first half-rounds of a large layer leave the form
//! unbound and bind all their challenges at once.
//!
//! Binding one variable of the sparse form costs a product per entry, and
//! the mdoc hash circuit's large forms hardly shrink in their first
//! half-rounds (most entries have no partner to merge with), so binding
//! `p` variables one at a time costs about `p` products per entry. After
//! `p` half-rounds the bound form is
//! `Q_p[k] = Σ_b eq(r, b)·Q[k·2^p + b]` over the `p` lowest bits `b` of
//! each entry's Morton key (the bits the half-rounds bound, in order), so
//! the same form comes from one product per entry: its value times the
//! entry's `eq(r, b)` weight, summed over the entries that share the
//! remaining key.
//!
//! Until then a half-round's coefficients are summed straight off the
//! unbound entries: an entry contributes its value times `eq(r, b)` to the
//! sums it would contribute to once bound, and since `eq(r, b)` depends
//! only on `b`, the sums are bucketed by `b` as well as by the wires'
//! codes (see [`crate::group_sums`]) and weighted once per bucket at the
//! end. With both hands' wires coded this takes no product per entry at
//! all; with the hand's wires coded, one (value times the other wire), as
//! without the delay. A half-round waits only while its buckets stay small
//! next to the form ([`Mode::choose_copies`]).

use core::ops::Range;

use longfellow_field::Field;
use longfellow_par as par;

use crate::group_sums::{GroupSums, Mode, Slots};
use crate::quad::HQuad;
use crate::wires::WireRead;

/// Most half-rounds a form waits for: the buckets double with each, and
/// after a few the forms have shrunk and the wires have left their codes.
pub(crate) const MAX_DELAY: usize = 4;

/// Most buckets a delayed pass keeps per part (per pattern of unbound bits
/// times codes): two arrays of this many 16-byte sums take 512 KiB, half
/// of a Zen 4 core's L2. Larger grids measured no faster on one thread
/// and, kept once per thread beside the largest form, raised the
/// two-thread peak by 3.5 MiB.
const MAX_BUCKETS: usize = 1 << 14;

/// `e[b] = Π_i (r_i if bit i of b is set, else 1 − r_i)`: the weight of
/// an entry whose unbound low key bits are `b`.
pub(crate) fn eq_table<F: Field>(r: &[F]) -> Vec<F> {
    let mut e = Vec::with_capacity(1 << r.len());
    e.push(F::ONE);
    for &ri in r {
        let low = e.len();
        let one_minus = F::ONE - ri;
        for b in 0..low {
            let x = e[b];
            e.push(x * ri);
            e[b] = x * one_minus;
        }
    }
    e
}

/// The `bits` lowest bits of the Morton key of `key` (`h0` on the even
/// positions): the variables the first `bits` half-rounds bind.
#[inline(always)]
fn low_bits(key: [u32; 2], bits: usize) -> usize {
    let spread = |x: u32| -> usize {
        let x = x as usize;
        (x & 1) | ((x & 2) << 1) | ((x & 4) << 2) | ((x & 8) << 3)
    };
    (spread(key[0] & 15) | (spread(key[1] & 15) << 1)) & ((1 << bits) - 1)
}

/// How far each hand's index has been bound after `bits` half-rounds:
/// `h0` takes the even half-rounds, `h1` the odd ones.
#[inline(always)]
fn shifts(bits: usize) -> [usize; 2] {
    [bits.div_ceil(2), bits / 2]
}

/// Whether the next half-round, for a hand with wires `w_hand` against
/// `w_other`, can be summed with `bits` variables still unbound in a form
/// of `entries` entries.
pub(crate) fn delay_pays<F, WH, WO>(w_hand: &WH, w_other: &WO, entries: usize, bits: usize) -> bool
where
    F: Field,
    WH: WireRead<F> + ?Sized,
    WO: WireRead<F> + ?Sized,
{
    bits <= MAX_DELAY && delayed_mode(w_hand, w_other, entries, bits).is_some()
}

/// The bucketing of a delayed pass with `bits` unbound variables, if its
/// buckets fit ([`MAX_BUCKETS`]); `None` when it would need products.
fn delayed_mode<F, WH, WO>(w_hand: &WH, w_other: &WO, entries: usize, bits: usize) -> Option<Mode>
where
    F: Field,
    WH: WireRead<F> + ?Sized,
    WO: WireRead<F> + ?Sized,
{
    match Mode::choose_copies(w_hand, w_other, entries, 1 << bits, MAX_BUCKETS) {
        Mode::Products => None,
        mode => Some(mode),
    }
}

/// Sums of one delayed pass (or of one part of it): `a0` and `a2` parts
/// per unbound-bits pattern and wire code, with one spare slot at the end.
struct DelayedSums<F> {
    mode: Mode,
    /// Buckets per pattern, and hand codes per row of a pattern's grid.
    stride: usize,
    width: usize,
    s0: Vec<F>,
    s2: Vec<F>,
}

/// Entries gathered per block for the hand-code products.
const BLOCK: usize = 64;

impl<F: Field> DelayedSums<F> {
    fn new(mode: Mode, th: usize, tx: usize, bits: usize) -> Self {
        let stride = if mode == Mode::BothCodes { th * tx } else { th };
        let buckets = (stride << bits) + 1;
        Self {
            mode,
            stride,
            width: th,
            s0: vec![F::ZERO; buckets],
            s2: vec![F::ZERO; buckets],
        }
    }

    fn add<const HAND: usize, WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
        bits: usize,
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let shift = shifts(bits);
        let (sh, so) = (shift[HAND], shift[1 - HAND]);
        let spare = self.s0.len() - 1;
        if self.mode == Mode::BothCodes {
            for i in range {
                let key = h[i];
                let y = (key[1 - HAND] >> so) as usize;
                let offset = low_bits(key, bits) * self.stride + w_other.code(y) * self.width;
                Slots::of(w_hand, (key[HAND] >> sh) as usize, offset, spare).add(
                    v[i],
                    &mut self.s0,
                    &mut self.s2,
                );
            }
            return;
        }
        let mut q = [F::ZERO; BLOCK];
        let mut x = [F::ZERO; BLOCK];
        let mut slots = [Slots::default(); BLOCK];
        let mut i = range.start;
        while i < range.end {
            let m = BLOCK.min(range.end - i);
            for j in 0..m {
                let key = h[i + j];
                let offset = low_bits(key, bits) * self.stride;
                slots[j] = Slots::of(w_hand, (key[HAND] >> sh) as usize, offset, spare);
                q[j] = v[i + j];
                x[j] = w_other.at((key[1 - HAND] >> so) as usize);
            }
            F::mul_assign_slice(&mut q[..m], &x[..m]);
            for (p, s) in q[..m].iter().zip(&slots[..m]) {
                s.add(*p, &mut self.s0, &mut self.s2);
            }
            i += m;
        }
    }

    /// The coefficients: each pattern's buckets times the wire tables,
    /// weighted by the pattern's `eq` weight.
    fn finish(&self, e: &[F], th: &[F], tx: &[F]) -> (F, F) {
        let pattern = |s: &[F]| -> F {
            if self.mode == Mode::BothCodes {
                s.chunks(self.width.max(1))
                    .zip(tx)
                    .fold(F::ZERO, |acc, (row, &t)| acc + t * F::dot(row, th))
            } else {
                F::dot(s, th)
            }
        };
        let mut a = (F::ZERO, F::ZERO);
        for (b, &eb) in e.iter().enumerate() {
            let at = b * self.stride..(b + 1) * self.stride;
            a.0 += eb * pattern(&self.s0[at.clone()]);
            a.1 += eb * pattern(&self.s2[at]);
        }
        a
    }
}

/// Bound output entries per block of [`bind_pending_blocks`].
const BIND_BLOCK: usize = 64;

/// Binds the `r.len()` lowest Morton bits of every key at once, in place:
/// each entry's value times its `eq` weight, summed over the entries that
/// share the remaining key (neighbours, since the keys are in Morton
/// order). Calls `done` with the finished prefix of the bound entries as
/// it grows (the newest entry may still be receiving sums and is left
/// out); returns how many entries remain.
fn bind_pending_blocks<F: Field>(
    h: &mut [[u32; 2]],
    v: &mut [F],
    r: &[F],
    mut done: impl FnMut(&[[u32; 2]], &[F]),
) -> usize {
    let bits = r.len();
    let e = eq_table(r);
    let [s0, s1] = shifts(bits);
    let n = h.len();
    let mut p = [F::ZERO; BIND_BLOCK];
    let mut w = [F::ZERO; BIND_BLOCK];
    let mut rd = 0;
    let mut wr = 0;
    while rd < n {
        let m = BIND_BLOCK.min(n - rd);
        for j in 0..m {
            p[j] = v[rd + j];
            w[j] = e[low_bits(h[rd + j], bits)];
        }
        F::mul_assign_slice(&mut p[..m], &w[..m]);
        // Outputs never overtake inputs (`wr ≤ rd + j`): in place is safe.
        for (j, &pj) in p[..m].iter().enumerate() {
            let key = h[rd + j];
            let out = [key[0] >> s0, key[1] >> s1];
            if wr > 0 && h[wr - 1] == out {
                v[wr - 1] += pj;
            } else {
                h[wr] = out;
                v[wr] = pj;
                wr += 1;
            }
        }
        rd += m;
        if wr > 1 {
            done(&h[..wr - 1], &v[..wr - 1]);
        }
    }
    wr
}

/// The fused pass takes coefficients over the finished prefix once this
/// many new entries have accumulated (as `bind_h_and_coefficients` does).
const COEFFICIENT_LAG: usize = 1024;

impl<F: Field> HQuad<F> {
    /// The coefficients `(a0, a2)` of the half-round binding `hand`'s
    /// variable while the form still waits for the challenges `pending`
    /// (one per earlier half-round of the layer), or `None` if the wires'
    /// codes do not allow it (see [`delay_pays`], with the same
    /// `entries`).
    pub(crate) fn delayed_coefficients<WH, WO>(
        &self,
        hand: usize,
        pending: &[F],
        entries: usize,
        w_hand: &WH,
        w_other: &WO,
    ) -> Option<(F, F)>
    where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let bits = pending.len();
        if bits > MAX_DELAY {
            return None;
        }
        let mode = delayed_mode(w_hand, w_other, entries, bits)?;
        let th = w_hand.table().unwrap_or(&[]);
        let tx = w_other.table().unwrap_or(&[]);
        let e = eq_table(pending);
        let n = self.h.len();
        // Each part keeps its own buckets: one part per thread.
        let chunk = n.div_ceil(par::parts_of::<F>(n)).max(1);
        Some(par::sum_pairs(n, chunk, |range| {
            let mut sums = DelayedSums::new(mode, th.len(), tx.len(), bits);
            let groups = (&self.h[..], &self.v[..], range);
            if hand == 0 {
                sums.add::<0, _, _>(groups, bits, w_hand, w_other);
            } else {
                sums.add::<1, _, _>(groups, bits, w_hand, w_other);
            }
            sums.finish(&e, th, tx)
        }))
    }

    /// Binds the waiting challenges `r` (one per half-round so far, in
    /// order) into the form at once.
    pub(crate) fn bind_pending(&mut self, r: &[F]) {
        let n = self.h.len();
        let parts = par::parts_of::<F>(n);
        let kept = if parts <= 1 {
            bind_pending_blocks(&mut self.h, &mut self.v, r, |_, _| {})
        } else {
            let cuts = self.pending_cuts(r.len(), parts);
            par::compact_ranges(&mut self.h, &mut self.v, &cuts, |h, v| {
                bind_pending_blocks(h, v, r, |_, _| {})
            })
        };
        self.h.truncate(kept);
        self.v.truncate(kept);
    }

    /// [`Self::bind_pending`] fused with the next half-round's
    /// [`Self::round_coefficients`] for hand `next` (wires `w_next`,
    /// against the other hand's bound wires `w_bound`).
    pub(crate) fn bind_pending_and_coefficients<WN, WB>(
        &mut self,
        r: &[F],
        next: usize,
        w_next: &WN,
        w_bound: &WB,
    ) -> (F, F)
    where
        WN: WireRead<F> + ?Sized,
        WB: WireRead<F> + ?Sized,
    {
        if par::parts_of::<F>(self.h.len()) > 1 {
            self.bind_pending(r);
            return self.round_coefficients(next, w_next, w_bound);
        }
        let mut sums = GroupSums::for_wires(w_next, w_bound, self.h.len());
        let mut done_to = 0;
        let kept = bind_pending_blocks(&mut self.h, &mut self.v, r, |h, v| {
            // Leave out the last finished entry: its partner may not be
            // finished yet.
            let end = h.len() - 1;
            if end >= done_to + COEFFICIENT_LAG {
                sums.add_groups((h, v, done_to..end), next, w_next, w_bound);
                done_to = end;
            }
        });
        self.h.truncate(kept);
        self.v.truncate(kept);
        sums.add_groups((&self.h, &self.v, done_to..kept), next, w_next, w_bound);
        sums.finish(w_next, w_bound)
    }

    /// Cut points for `parts` ranges that never separate two entries that
    /// bind into one (equal keys above the `bits` lowest Morton bits).
    fn pending_cuts(&self, bits: usize, parts: usize) -> Vec<usize> {
        let n = self.h.len();
        let [s0, s1] = shifts(bits);
        let out = |k: [u32; 2]| [k[0] >> s0, k[1] >> s1];
        let mut cuts = Vec::with_capacity(parts + 1);
        cuts.push(0usize);
        for c in 1..parts {
            let mut b = (c * n / parts).max(*cuts.last().unwrap_or(&0));
            while b > 0 && b < n && out(self.h[b - 1]) == out(self.h[b]) {
                b += 1;
            }
            cuts.push(b.min(n));
        }
        cuts.push(n);
        cuts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use longfellow_field::Gf2_128;

    #[test]
    fn low_bits_follow_the_half_round_order() {
        // h0 bit 0, h1 bit 0, h0 bit 1, h1 bit 1, …
        assert_eq!(low_bits([1, 0], 4), 0b0001);
        assert_eq!(low_bits([0, 1], 4), 0b0010);
        assert_eq!(low_bits([2, 0], 4), 0b0100);
        assert_eq!(low_bits([0, 2], 4), 0b1000);
        assert_eq!(low_bits([3, 3], 3), 0b0111);
        assert_eq!(low_bits([15, 15], 8), 0xff);
    }

    #[test]
    fn eq_table_weights_each_bit_by_its_challenge() {
        let r: Vec<Gf2_128> = (2..5u64).map(|x| Gf2_128::from_index(x * 77)).collect();
        let e = eq_table(&r);
        assert_eq!(e.len(), 8);
        for (b, &eb) in e.iter().enumerate() {
            let want = r.iter().enumerate().fold(Gf2_128::ONE, |acc, (i, &ri)| {
                acc * if b >> i & 1 == 1 {
                    ri
                } else {
                    Gf2_128::ONE - ri
                }
            });
            assert_eq!(eb, want, "pattern {b:03b}");
        }
    }
}
