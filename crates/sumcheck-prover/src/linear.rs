//! The bound form's entries on hand 0's wire 0, kept apart from the rest.
//!
//! Longfellow circuits write every linear term as a product with input wire
//! 0 (the constant one), so in the mdoc hash circuit's large layers 22–77 %
//! of the form's hand pairs are `(0, y)`. In the form those entries never
//! meet a partner while hand 0's bits are bound (wire 0 stays wire 0), yet
//! every hand-0 half-round reads, multiplies and rewrites each of them.
//!
//! Sums are linear, so the form splits into `Q'(h0, h1) + c·[h0 = 0]·L(h1)`
//! with `Q'` the other entries, `L` these ones and `c = Π(1 − r)` over hand
//! 0's challenges so far (the value of `eq(r, 0)`). Binding a hand-0 bit
//! then only updates `c`, and that half-round's coefficients from `L` need
//! one sum, `S = Σ_y L(y)·W1[y]`, which changes only when hand 1 is bound.
//! Binding a hand-1 bit binds `L` in one pass and sums `S` and the next
//! hand-1 half-round's `T0`, `T2` (without their factor `W0[0]`, which the
//! hand-0 binding in between still changes) in a second over the bound,
//! shorter `L`; with the wires table-coded that sum takes no product per
//! entry. Split at every layer, the v7 hash circuit's half-rounds on forms
//! over 20 K entries would visit 18 % fewer entries (18.5 M → 15.1 M).
//!
//! No proof byte changes: the coefficients are the same field elements. The
//! prover splits only where memory already mapped holds `L` (see
//! [`LinearPart::extract`]) and on one thread (see `prove_layers`).

use longfellow_field::Field;

use crate::quad::HQuad;
use crate::wires::WireRead;

/// `L` with its running factor and the sums of the next half-rounds.
#[derive(Clone, Debug)]
pub(crate) struct LinearPart<F> {
    /// Hand-1 index of each entry, ascending.
    y: Vec<u32>,
    v: Vec<F>,
    /// `Π(1 − r)` over hand 0's bound bits.
    scale: F,
    /// `Σ_y L(y)·W1[y]`, for the next hand-0 half-round.
    s: F,
    /// `Σ L(2m)·W1[2m]` and `Σ (L(2m+1) − L(2m))·(W1[2m+1] − W1[2m])`,
    /// for the next hand-1 half-round.
    t0: F,
    t2: F,
    /// Code buckets, kept between passes.
    buckets: Vec<F>,
}

/// Members per block of the product and binding passes.
const BLOCK: usize = 64;

/// Code buckets pay when the pass has this many entries per table value.
const ENTRIES_PER_CODE: usize = 4;

impl<F: Field> LinearPart<F> {
    /// Moves the entries with `h0 = 0` out of `quad` (which keeps the rest
    /// in order) and sums them against hand 1's wires `w1`. Their values go
    /// into `storage`, memory a layer proven before left mapped: `None`
    /// when there are no such entries or `storage` cannot hold them. A
    /// fresh allocation beside the form would raise the proof's peak (the
    /// allocator keeps freed blocks mapped, so the largest form then needs
    /// fresh pages) and pay its own page faults.
    pub(crate) fn extract<W: WireRead<F> + ?Sized>(
        quad: &mut HQuad<F>,
        w1: &W,
        mut storage: Vec<F>,
    ) -> Option<Self> {
        // No storage (as on several threads, or before the largest form
        // when nothing was spared): no pass over the form to count.
        if storage.capacity() == 0 {
            return None;
        }
        let count = quad.h.iter().filter(|h| h[0] == 0).count();
        if count == 0 || storage.capacity() < count {
            return None;
        }
        storage.clear();
        // Only `count` values stay alive through the rounds: the rest goes
        // back to the allocator, as the whole vector did before.
        storage.shrink_to(count);
        let mut y = Vec::with_capacity(count);
        let mut v = storage;
        let mut kept = 0;
        for i in 0..quad.h.len() {
            let (h, value) = (quad.h[i], quad.v[i]);
            if h[0] == 0 {
                y.push(h[1]);
                v.push(value);
            } else {
                quad.h[kept] = h;
                quad.v[kept] = value;
                kept += 1;
            }
        }
        quad.h.truncate(kept);
        quad.v.truncate(kept);
        let mut part = Self {
            y,
            v,
            scale: F::ONE,
            s: F::ZERO,
            t0: F::ZERO,
            t2: F::ZERO,
            buckets: Vec::new(),
        };
        part.sum(w1);
        Some(part)
    }

    /// This part's coefficients `(a0, a2)` for half-round `hand`, given
    /// hand 0's current wires `w0` (in round 0, the stored wires).
    pub(crate) fn coefficients<W: WireRead<F> + ?Sized>(&self, hand: usize, w0: &W) -> (F, F) {
        let at = |i: usize| if i < w0.len() { w0.at(i) } else { F::ZERO };
        let (we, wo) = (at(0), at(1));
        if hand == 0 {
            // Every entry is even (`h0 = 0`) with no odd partner.
            let e = self.scale * self.s;
            (e * we, -e * (wo - we))
        } else {
            let x = self.scale * we;
            (x * self.t0, x * self.t2)
        }
    }

    /// Binds half-round `hand`'s variable to `r`; for hand 1, `w1` are its
    /// wires already bound to `r`.
    pub(crate) fn bind<W: WireRead<F> + ?Sized>(&mut self, hand: usize, r: F, w1: &W) {
        if hand == 0 {
            self.scale *= F::ONE - r;
            return;
        }
        // Each output is `e + r·d`: a block's `e` are written first, then
        // one `axpy` with its `d` (the field's slice kernel). Outputs never
        // pass the entries still to read, so the pass runs in place.
        let n = self.y.len();
        let (mut i, mut out) = (0, 0);
        let mut d = [F::ZERO; BLOCK];
        while i < n {
            let start = out;
            let mut m = 0;
            while i < n && m < BLOCK {
                let (ke, e, o, next) = group_at(&self.y, &self.v, i);
                i = next;
                self.y[out] = (ke >> 1) as u32;
                self.v[out] = e;
                d[m] = o - e;
                out += 1;
                m += 1;
            }
            F::axpy(&mut self.v[start..out], r, &d[..m]);
        }
        self.y.truncate(out);
        self.v.truncate(out);
        self.sum(w1);
    }

    /// `S`, `T0` and `T2` of the current `L` against hand 1's wires `w1`.
    fn sum<W: WireRead<F> + ?Sized>(&mut self, w1: &W) {
        match w1.table() {
            Some(table) if table.len() * ENTRIES_PER_CODE <= self.y.len() => {
                self.sum_by_code(w1, table)
            }
            _ => self.sum_by_products(w1),
        }
    }

    /// Calls `f(ke, e, o)` for each partner group of `L` (`ke` its even
    /// index, a missing member zero).
    #[inline(always)]
    fn for_each_group(&self, mut f: impl FnMut(usize, F, F)) {
        let mut i = 0;
        while i < self.y.len() {
            let (ke, e, o, next) = group_at(&self.y, &self.v, i);
            f(ke, e, o);
            i = next;
        }
    }

    /// The sums with one product per group member, gathered into blocks
    /// for the field's `dot` kernel.
    fn sum_by_products<W: WireRead<F> + ?Sized>(&mut self, w1: &W) {
        let at = |i: usize| if i < w1.len() { w1.at(i) } else { F::ZERO };
        let mut cols = [[F::ZERO; BLOCK]; 6];
        let (mut even, mut odd, mut t2) = (F::ZERO, F::ZERO, F::ZERO);
        let mut m = 0;
        let mut flush = |cols: &[[F; BLOCK]; 6], m: usize| {
            let [e, we, o, wo, d, dw] = cols.each_ref().map(|c| &c[..m]);
            even += F::dot(e, we);
            odd += F::dot(o, wo);
            t2 += F::dot(d, dw);
        };
        self.for_each_group(|ke, e, o| {
            let (we, wo) = (at(ke), at(ke + 1));
            for (col, x) in cols.iter_mut().zip([e, we, o, wo, o - e, wo - we]) {
                col[m] = x;
            }
            m += 1;
            if m == BLOCK {
                flush(&cols, m);
                m = 0;
            }
        });
        flush(&cols, m);
        (self.s, self.t0, self.t2) = (even + odd, even, t2);
    }

    /// The sums by hand 1's codes: each member's value is added to buckets
    /// of its own and its partner's wire code, and each distinct wire value
    /// is multiplied once at the end. No product per entry.
    fn sum_by_code<W: WireRead<F> + ?Sized>(&mut self, w1: &W, table: &[F]) {
        // Per code: `e` at its own code, `o` at its own code, `o` at its
        // partner's and `e` at its partner's.
        const EE: usize = 0;
        const OO: usize = 1;
        const OE: usize = 2;
        const EO: usize = 3;
        let mut buckets = core::mem::take(&mut self.buckets);
        buckets.clear();
        buckets.resize(4 * table.len(), F::ZERO);
        let len = w1.len();
        self.for_each_group(|ke, e, o| {
            let ce = 4 * w1.code(ke);
            buckets[ce + EE] += e;
            buckets[ce + OE] += o;
            if ke + 1 < len {
                let co = 4 * w1.code(ke + 1);
                buckets[co + OO] += o;
                buckets[co + EO] += e;
            }
        });
        let (mut even, mut odd, mut t2) = (F::ZERO, F::ZERO, F::ZERO);
        for (t, b) in table.iter().zip(buckets.chunks_exact(4)) {
            even += *t * b[EE];
            odd += *t * b[OO];
            t2 += *t * (b[OO] - b[OE] - b[EO] + b[EE]);
        }
        self.buckets = buckets;
        (self.s, self.t0, self.t2) = (even + odd, even, t2);
    }

    /// The fully bound part, `c·L(0)`, once every bit is bound.
    pub(crate) fn scalar(&self) -> Option<F> {
        match (self.y.as_slice(), self.v.as_slice()) {
            ([], []) => Some(F::ZERO),
            ([0], [v]) => Some(self.scale * *v),
            _ => None,
        }
    }
}

/// The partner group starting at entry `i` of `L` (indices `y`, values
/// `v`) for binding the lowest bit of `y`: its even index, its even and odd
/// members (a missing one zero) and the entry after it.
#[inline(always)]
fn group_at<F: Field>(y: &[u32], v: &[F], i: usize) -> (usize, F, F, usize) {
    let k = y[i] as usize;
    if k & 1 == 1 {
        (k - 1, F::ZERO, v[i], i + 1)
    } else if y.get(i + 1).is_some_and(|&next| next as usize == k + 1) {
        (k, v[i], v[i + 1], i + 2)
    } else {
        (k, v[i], F::ZERO, i + 1)
    }
}
