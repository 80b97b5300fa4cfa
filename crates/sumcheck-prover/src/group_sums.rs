//! The round coefficients `(a0, a2)` of a half-round, summed over the
//! bound form's partner groups.
//!
//! With `x = w_other[y]`, `e = Q[2k, y]`, `o = Q[2k+1, y]` (hands in
//! `hand`, other order) and `we`, `wo` the hand's wires at `2k`, `2k+1`:
//! `a0 = Σ e·x·we` and `a2 = Σ (o − e)·x·(wo − we)`, a missing entry or
//! wire counting as zero. Three ways to sum, one result:
//!
//! * **products** — each group's products, gathered a block at a time so
//!   they run through the field's slice kernels (deferred reduction in
//!   `dot`): a full pair takes four, a lone entry two or three.
//! * **by the hand's code** — when the hand's wires are table-coded
//!   (SHA-256 wires take a few hundred or thousand distinct values),
//!   `a0 = Σ_b T[b]·(Σ_{we = T[b]} e·x)` and likewise `a2` with `wo`, `we`:
//!   the wire factor is applied once per table entry instead of once per
//!   group, leaving one product per entry of the form.
//! * **by both codes** — when both hands are coded and the two tables'
//!   product is small, the sums are bucketed by `(x, we)` and no product
//!   is taken per entry at all, only additions (XOR in GF(2^128)); the
//!   buckets cost `|Tx|·|Th|` products at the end.
//!
//! The first rounds of the mdoc hash circuit's largest layers read their
//! wires coded, and their forms are mostly lone entries, so the last two
//! cut most of those rounds' coefficient products. They sum entry by entry
//! (an entry adds to `a0` at its even wire's code if it is the even one,
//! and `∓q·x` to `a2` at the two codes), which needs no look at the
//! partner. All three loops take the hand as a compile-time constant: a
//! run-time index into each `[h0, h1]` key went through the stack and
//! stalled store forwarding on every entry.

use core::ops::Range;

use longfellow_field::Field;

use crate::wires::WireRead;

/// Largest bucket grid (`|Tx|·|Th|`) summed by both codes: two grids of
/// this many elements stay within a core's L2 cache.
const BOTH_CODES_MAX: usize = 1 << 15;

/// A grid or table pays only when the pass has this many entries per
/// bucket: its zeroing and final products must stay a small share.
const ENTRIES_PER_BUCKET: usize = 4;

/// Whether the sums over `entries` entries with these wires would be
/// bucketed by code (then a pass should not be split finer than needed).
pub(crate) fn sums_by_code<F, WH, WO>(w_hand: &WH, w_other: &WO, entries: usize) -> bool
where
    F: Field,
    WH: WireRead<F> + ?Sized,
    WO: WireRead<F> + ?Sized,
{
    !matches!(Mode::choose(w_hand, w_other, entries), Mode::Products)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Products,
    HandCode,
    BothCodes,
}

impl Mode {
    fn choose<F, WH, WO>(w_hand: &WH, w_other: &WO, entries: usize) -> Self
    where
        F: Field,
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let budget = entries / ENTRIES_PER_BUCKET;
        match (w_hand.table(), w_other.table()) {
            // Two 2^16-entry tables overflow a 32-bit `usize`.
            (Some(th), Some(tx))
                if th.len().saturating_mul(tx.len()) <= BOTH_CODES_MAX.min(budget) =>
            {
                Self::BothCodes
            }
            (Some(th), _) if th.len() <= budget => Self::HandCode,
            _ => Self::Products,
        }
    }
}

/// The members of one partner group.
#[derive(Clone, Copy)]
enum Members<F> {
    Pair(F, F),
    Even(F),
    Odd(F),
}

/// Calls `f(k2, y, members)` for each partner group (for binding the lowest
/// bit of `h[hand]`) that starts in `range`: a group whose first entry lies
/// before `range` belongs to the range before; one that starts at its end
/// may run one entry past it. `k2` is the group's even hand index, `y` the
/// other hand's index.
#[inline(always)]
fn for_each_group<F: Copy>(
    (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
    hand: usize,
    mut f: impl FnMut(usize, usize, Members<F>),
) {
    let other = 1 - hand;
    let n = h.len();
    let mut i = range.start;
    if i > 0 && i < n && partners(h[i - 1], h[i], hand) {
        i += 1;
    }
    while i < range.end {
        let key = h[i];
        let (k2, y) = ((key[hand] & !1) as usize, key[other] as usize);
        if key[hand] & 1 == 1 {
            f(k2, y, Members::Odd(v[i]));
            i += 1;
        } else if i + 1 < n && partners(key, h[i + 1], hand) {
            f(k2, y, Members::Pair(v[i], v[i + 1]));
            i += 2;
        } else {
            f(k2, y, Members::Even(v[i]));
            i += 1;
        }
    }
}

/// Whether `b` is `a`'s odd partner when binding the lowest bit of
/// `h[hand]`.
#[inline(always)]
pub(crate) fn partners(a: [u32; 2], b: [u32; 2], hand: usize) -> bool {
    let other = 1 - hand;
    a[other] == b[other] && (a[hand] >> 1) == (b[hand] >> 1) && a[hand] & 1 == 0 && b[hand] & 1 == 1
}

/// Operands gathered per block (a power of two: indices are masked).
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
        // `len < GROUP_BLOCK` always (the caller flushes a full batch);
        // the mask tells the compiler so: no range check per column.
        let i = self.len & (GROUP_BLOCK - 1);
        for (col, x) in self.cols.iter_mut().zip(row) {
            col[i] = x;
        }
        self.len = i + 1;
        self.len == GROUP_BLOCK
    }

    /// Where the next row goes (`< GROUP_BLOCK`).
    #[inline(always)]
    fn next_row(&self) -> usize {
        self.len & (GROUP_BLOCK - 1)
    }

    /// The filled part of each column; empties the batch.
    fn take(&mut self) -> [&mut [F]; K] {
        let m = core::mem::take(&mut self.len);
        self.cols.each_mut().map(|c| &mut c[..m])
    }
}

/// Where one entry's share goes in the code buckets: the bucket of its
/// even partner's wire, the bucket of its odd partner's wire (the spare
/// slot when that wire does not exist) and whether it is the even entry.
#[derive(Clone, Copy, Default)]
struct Slots {
    even_wire: usize,
    odd_wire: usize,
    even: bool,
}

impl Slots {
    /// The slots of an entry at hand index `k`, its buckets `offset` into
    /// the grid (a row of the both-codes grid, or 0).
    #[inline(always)]
    fn of<F, WH: WireRead<F> + ?Sized>(w_hand: &WH, k: usize, offset: usize, spare: usize) -> Self {
        let ke = k & !1;
        let odd_wire = if ke + 1 < w_hand.len() {
            offset + w_hand.code(ke + 1)
        } else {
            spare
        };
        Self {
            even_wire: offset + w_hand.code(ke),
            odd_wire,
            even: k & 1 == 0,
        }
    }

    /// Adds the share `p` of an entry (its value, times `x` unless `x` is
    /// bucketed too): `a0` gets `p` at the even wire if the entry is even,
    /// `a2` gets `p·(wo − we)` with the sign of its parity, `−` for even.
    #[inline(always)]
    fn add<F: Field>(self, p: F, s0: &mut [F], s2: &mut [F]) {
        let (ce, co) = (self.even_wire, self.odd_wire);
        let spare = s0.len() - 1;
        s0[if self.even { ce } else { spare }] += p;
        let signed = if self.even { -p } else { p };
        s2[co] += signed;
        s2[ce] -= signed;
    }
}

/// The entries of the partner groups that start in `range` (see
/// [`for_each_group`]).
#[inline(always)]
fn group_entries(h: &[[u32; 2]], range: Range<usize>, hand: usize) -> Range<usize> {
    let n = h.len();
    let mut start = range.start;
    if start > 0 && start < n && partners(h[start - 1], h[start], hand) {
        start += 1;
    }
    let mut end = range.end.min(n);
    if end > start && end < n && partners(h[end - 1], h[end], hand) {
        end += 1;
    }
    start..end.max(start)
}

/// Running sums of one pass (or of one part of it) over partner groups.
pub(crate) struct GroupSums<F> {
    mode: Mode,
    /// Products mode: `e`, `o − e`, `x`, `we`, `wd` per full pair.
    pairs: Batch<F, 5>,
    /// Products mode: `e`, `x`, `we`, `wd` per lone even entry.
    evens: Batch<F, 4>,
    /// Products mode: `o`, `x`, `wd` per lone odd entry.
    odds: Batch<F, 3>,
    /// Hand-code mode: `q`, `x` per entry, with its slots.
    entries: Batch<F, 2>,
    entry_slots: [Slots; GROUP_BLOCK],
    /// Bucketed `a0` and `a2` parts, per hand code or per (x code, hand
    /// code) with `width` hand codes per row, and one spare slot at the
    /// end for the additions that have no bucket.
    s0: Vec<F>,
    s2: Vec<F>,
    width: usize,
    a0: F,
    a2: F,
}

impl<F: Field> GroupSums<F> {
    /// Sums for a pass over about `entries` entries with these wires.
    pub(crate) fn for_wires<WH, WO>(w_hand: &WH, w_other: &WO, entries: usize) -> Self
    where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let mode = Mode::choose(w_hand, w_other, entries);
        let th = w_hand.table().map_or(0, <[F]>::len);
        let tx = w_other.table().map_or(0, <[F]>::len);
        // `choose` bounded the grid; the spare slot comes last.
        let buckets = match mode {
            Mode::Products => 0,
            Mode::HandCode => th + 1,
            Mode::BothCodes => th * tx + 1,
        };
        Self {
            mode,
            pairs: Batch::new(),
            evens: Batch::new(),
            odds: Batch::new(),
            entries: Batch::new(),
            entry_slots: [Slots::default(); GROUP_BLOCK],
            s0: vec![F::ZERO; buckets],
            s2: vec![F::ZERO; buckets],
            width: th,
            a0: F::ZERO,
            a2: F::ZERO,
        }
    }

    /// Adds the partner groups that start in `range` of the entries `h`,
    /// `v` (see [`for_each_group`]).
    pub(crate) fn add_groups<WH, WO>(
        &mut self,
        groups: (&[[u32; 2]], &[F], Range<usize>),
        hand: usize,
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        // The hand is a constant inside each loop: indexing a key by a
        // run-time hand put the key through the stack on every entry.
        match (self.mode, hand) {
            (Mode::Products, 0) => self.add_products::<0, _, _>(groups, w_hand, w_other),
            (Mode::Products, _) => self.add_products::<1, _, _>(groups, w_hand, w_other),
            (Mode::HandCode, 0) => {
                self.add_entries_by_hand_code::<0, _, _>(groups, w_hand, w_other)
            }
            (Mode::HandCode, _) => {
                self.add_entries_by_hand_code::<1, _, _>(groups, w_hand, w_other)
            }
            (Mode::BothCodes, 0) => {
                self.add_entries_by_both_codes::<0, _, _>(groups, w_hand, w_other)
            }
            (Mode::BothCodes, _) => {
                self.add_entries_by_both_codes::<1, _, _>(groups, w_hand, w_other)
            }
        }
    }

    fn add_products<const HAND: usize, WH, WO>(
        &mut self,
        groups: (&[[u32; 2]], &[F], Range<usize>),
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let len = w_hand.len();
        for_each_group(groups, HAND, |k2, y, members| {
            let we = w_hand.at(k2);
            let wo = if k2 + 1 < len {
                w_hand.at(k2 + 1)
            } else {
                F::ZERO
            };
            let (x, wd) = (w_other.at(y), wo - we);
            match members {
                Members::Pair(e, o) => {
                    if self.pairs.push([e, o - e, x, we, wd]) {
                        self.flush_pairs();
                    }
                }
                Members::Even(e) => {
                    if self.evens.push([e, x, we, wd]) {
                        self.flush_evens();
                    }
                }
                Members::Odd(o) => {
                    if self.odds.push([o, x, wd]) {
                        self.flush_odds();
                    }
                }
            }
        });
    }

    /// Both codes: the entry's value goes straight into the bucket of its
    /// `(x, w)` codes, no product at all.
    fn add_entries_by_both_codes<const HAND: usize, WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let spare = self.s0.len() - 1;
        for i in group_entries(h, range, HAND) {
            let key = h[i];
            let row = w_other.code(key[1 - HAND] as usize) * self.width;
            Slots::of(w_hand, key[HAND] as usize, row, spare).add(v[i], &mut self.s0, &mut self.s2);
        }
    }

    /// The hand's code: `q·x` per entry (gathered for the slice kernel),
    /// into the bucket of the hand's code.
    fn add_entries_by_hand_code<const HAND: usize, WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let spare = self.s0.len() - 1;
        for i in group_entries(h, range, HAND) {
            let key = h[i];
            self.entry_slots[self.entries.next_row()] =
                Slots::of(w_hand, key[HAND] as usize, 0, spare);
            if self
                .entries
                .push([v[i], w_other.at(key[1 - HAND] as usize)])
            {
                self.flush_entries();
            }
        }
    }

    fn flush_entries(&mut self) {
        let [q, x] = self.entries.take();
        F::mul_assign_slice(q, x);
        for (&p, slots) in q.iter().zip(&self.entry_slots) {
            slots.add(p, &mut self.s0, &mut self.s2);
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

    /// The coefficients `(a0, a2)`; `w_hand`, `w_other` as in every
    /// [`Self::add_groups`] call.
    pub(crate) fn finish<WH, WO>(mut self, w_hand: &WH, w_other: &WO) -> (F, F)
    where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let th = w_hand.table().unwrap_or(&[]);
        match self.mode {
            Mode::Products => {
                self.flush_pairs();
                self.flush_evens();
                self.flush_odds();
            }
            Mode::HandCode => {
                self.flush_entries();
                // `dot` stops at the shorter slice: the spare slot is left out.
                self.a0 += F::dot(&self.s0, th);
                self.a2 += F::dot(&self.s2, th);
            }
            Mode::BothCodes => {
                let tx = w_other.table().unwrap_or(&[]);
                let grid = self.width * tx.len();
                // Row by row, without a vector of the rows' sums.
                let rows = |s: &[F]| -> F {
                    s[..grid]
                        .chunks(self.width.max(1))
                        .zip(tx)
                        .fold(F::ZERO, |acc, (row, &t)| acc + t * F::dot(row, th))
                };
                self.a0 += rows(&self.s0);
                self.a2 += rows(&self.s2);
            }
        }
        (self.a0, self.a2)
    }
}
