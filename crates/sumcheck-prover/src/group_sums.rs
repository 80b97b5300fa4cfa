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
            (Some(th), Some(tx)) if th.len() * tx.len() <= BOTH_CODES_MAX.min(budget) => {
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

/// Operands gathered per block.
const GROUP_BLOCK: usize = 64;

/// `K` columns of up to [`GROUP_BLOCK`] gathered operands, with two codes
/// per row for the code-bucketed sums.
struct Batch<F, const K: usize> {
    cols: [[F; GROUP_BLOCK]; K],
    codes: [[u32; 2]; GROUP_BLOCK],
    len: usize,
}

impl<F: Field, const K: usize> Batch<F, K> {
    fn new() -> Self {
        Self {
            cols: [[F::ZERO; GROUP_BLOCK]; K],
            codes: [[0; 2]; GROUP_BLOCK],
            len: 0,
        }
    }

    /// Appends one row; true once the batch is full.
    #[inline(always)]
    fn push(&mut self, row: [F; K], codes: [u32; 2]) -> bool {
        for (col, x) in self.cols.iter_mut().zip(row) {
            col[self.len] = x;
        }
        self.codes[self.len] = codes;
        self.len += 1;
        self.len == GROUP_BLOCK
    }

    /// The filled part of each column and of the codes; empties the batch.
    fn take(&mut self) -> ([&mut [F]; K], &[[u32; 2]]) {
        let m = core::mem::take(&mut self.len);
        (self.cols.each_mut().map(|c| &mut c[..m]), &self.codes[..m])
    }
}

/// The codes of the wires an entry at hand index `k` reads (its even
/// partner's, and its odd partner's when that wire exists) and whether the
/// entry is the even one.
#[inline(always)]
fn entry_codes<F, WH: WireRead<F> + ?Sized>(
    w_hand: &WH,
    k: usize,
    len: usize,
) -> (usize, Option<usize>, bool) {
    let ke = k & !1;
    let co = (ke + 1 < len).then(|| w_hand.code(ke + 1));
    (w_hand.code(ke), co, k & 1 == 0)
}

/// Marks an odd entry's even code (tables hold at most 2^16 values).
const ODD_TAG: u32 = 1 << 31;

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

/// No odd wire: the group's `wo` is zero and has no code.
const NO_CODE: u32 = u32::MAX;

/// Running sums of one pass (or of one part of it) over partner groups.
pub(crate) struct GroupSums<F> {
    mode: Mode,
    /// Products mode: `e`, `o − e`, `x`, `we`, `wd`.
    pairs: Batch<F, 5>,
    /// Products mode: `e`, `x`, `we`, `wd`.
    evens: Batch<F, 4>,
    /// Products mode: `o`, `x`, `wd`. Hand-code mode, one row per entry:
    /// `q`, `x` (and the entry's codes).
    odds: Batch<F, 3>,
    /// Bucketed `a0` and `a2` parts: per hand code, or per (x code, hand
    /// code) with `width` hand codes per row.
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
        let (width, buckets) = match mode {
            Mode::Products => (0, 0),
            // One extra slot takes the additions that have no bucket.
            Mode::HandCode => (th, th + 1),
            Mode::BothCodes => (th, th * w_other.table().map_or(0, <[F]>::len) + 1),
        };
        Self {
            mode,
            pairs: Batch::new(),
            evens: Batch::new(),
            odds: Batch::new(),
            s0: vec![F::ZERO; buckets],
            s2: vec![F::ZERO; buckets],
            width,
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
                    if self.pairs.push([e, o - e, x, we, wd], [0; 2]) {
                        self.flush_pairs();
                    }
                }
                Members::Even(e) => {
                    if self.evens.push([e, x, we, wd], [0; 2]) {
                        self.flush_evens();
                    }
                }
                Members::Odd(o) => {
                    if self.odds.push([o, x, wd], [0; 2]) {
                        self.flush_odds();
                    }
                }
            }
        });
    }

    fn add_entries_by_both_codes<const HAND: usize, WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let (hand, other) = (HAND, 1 - HAND);
        let len = w_hand.len();
        let width = self.width;
        let dummy = self.s0.len() - 1;
        let (s0, s2) = (&mut self.s0, &mut self.s2);
        for i in group_entries(h, range, hand) {
            let key = h[i];
            let (k, y, q) = (key[hand] as usize, key[other] as usize, v[i]);
            let row = w_other.code(y) * width;
            let (ce, co, even) = entry_codes(w_hand, k, len);
            let (ce, co) = (row + ce, co.map_or(dummy, |c| row + c));
            s0[if even { ce } else { dummy }] += q;
            let sq = if even { -q } else { q };
            s2[co] += sq;
            s2[ce] -= sq;
        }
    }

    fn add_entries_by_hand_code<const HAND: usize, WH, WO>(
        &mut self,
        (h, v, range): (&[[u32; 2]], &[F], Range<usize>),
        w_hand: &WH,
        w_other: &WO,
    ) where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        let (hand, other) = (HAND, 1 - HAND);
        let len = w_hand.len();
        let dummy = self.s0.len() - 1;
        for i in group_entries(h, range, hand) {
            let key = h[i];
            let (k, y) = (key[hand] as usize, key[other] as usize);
            let (ce, co, even) = entry_codes(w_hand, k, len);
            let (ce, co) = (ce as u32, co.unwrap_or(dummy) as u32);
            // The even code doubles as the sign: odd entries are marked
            // by the top bit.
            let tag = if even { ce } else { ce | ODD_TAG };
            if self.odds.push([v[i], w_other.at(y), F::ZERO], [tag, co]) {
                self.flush_entries();
            }
        }
    }

    /// Hand-code mode, per entry: `p = q·x`, then `a0` gets `p` at the even
    /// code (even entries only), `a2` gets `∓p` at the odd and `±p` at the
    /// even code (upper sign for even entries).
    fn flush_entries(&mut self) {
        let ([q, x, _], codes) = self.odds.take();
        F::mul_assign_slice(q, x);
        let dummy = self.s0.len() - 1;
        for (&p, &[tag, co]) in q.iter().zip(codes) {
            let ce = (tag & !ODD_TAG) as usize;
            let even = tag & ODD_TAG == 0;
            self.s0[if even { ce } else { dummy }] += p;
            let sp = if even { -p } else { p };
            self.s2[co as usize] += sp;
            self.s2[ce] -= sp;
        }
    }

    fn flush_pairs(&mut self) {
        let ([even, diff, x, w_even, w_diff], codes) = self.pairs.take();
        F::mul_assign_slice(even, x);
        F::mul_assign_slice(diff, x);
        if self.mode == Mode::Products {
            self.a0 += F::dot(even, w_even);
            self.a2 += F::dot(diff, w_diff);
            return;
        }
        for ((&p0, &p2), &[ce, co]) in even.iter().zip(diff.iter()).zip(codes) {
            self.s0[ce as usize] += p0;
            self.s2[ce as usize] -= p2;
            if co != NO_CODE {
                self.s2[co as usize] += p2;
            }
        }
    }

    fn flush_evens(&mut self) {
        // (o − e) = −e for a lone even entry.
        let ([e, x, w_even, w_diff], codes) = self.evens.take();
        F::mul_assign_slice(e, x);
        if self.mode == Mode::Products {
            self.a0 += F::dot(e, w_even);
            self.a2 -= F::dot(e, w_diff);
            return;
        }
        for (&p, &[ce, co]) in e.iter().zip(codes) {
            self.s0[ce as usize] += p;
            self.s2[ce as usize] += p;
            if co != NO_CODE {
                self.s2[co as usize] -= p;
            }
        }
    }

    fn flush_odds(&mut self) {
        let ([o, x, w_diff], codes) = self.odds.take();
        F::mul_assign_slice(o, x);
        if self.mode == Mode::Products {
            self.a2 += F::dot(o, w_diff);
            return;
        }
        for (&p, &[ce, co]) in o.iter().zip(codes) {
            self.s2[ce as usize] -= p;
            if co != NO_CODE {
                self.s2[co as usize] += p;
            }
        }
    }

    /// The coefficients `(a0, a2)`; `w_hand`, `w_other` as in every
    /// [`Self::add_groups`] call.
    pub(crate) fn finish<WH, WO>(mut self, w_hand: &WH, w_other: &WO) -> (F, F)
    where
        WH: WireRead<F> + ?Sized,
        WO: WireRead<F> + ?Sized,
    {
        if self.mode == Mode::Products {
            self.flush_pairs();
            self.flush_evens();
            self.flush_odds();
        } else {
            self.flush_entries();
            // The extra slot is not a bucket.
            self.s0.pop();
            self.s2.pop();
        }
        let th = w_hand.table().unwrap_or(&[]);
        match self.mode {
            Mode::Products => {}
            Mode::HandCode => {
                self.a0 += F::dot(&self.s0, th);
                self.a2 += F::dot(&self.s2, th);
            }
            Mode::BothCodes => {
                let tx = w_other.table().unwrap_or(&[]);
                let rows = |s: &[F]| -> F {
                    let per_x: Vec<F> = s.chunks(self.width).map(|row| F::dot(row, th)).collect();
                    F::dot(&per_x, tx)
                };
                if self.width > 0 {
                    self.a0 += rows(&self.s0);
                    self.a2 += rows(&self.s2);
                }
            }
        }
        (self.a0, self.a2)
    }
}
