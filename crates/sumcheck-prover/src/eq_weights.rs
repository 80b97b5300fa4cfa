//! The output-wire weights a layer's `g` binding reads.
//!
//! Binding `g` weighs each term by `eq(G0, g) + α·eq(G1, g)`. A full table
//! of those weights has one entry per output wire: 11–14 MB for the mdoc
//! hash circuit's largest layers, alive while the layer's bound form (the
//! prover's biggest allocation) is being built. The four `√n`-entry factor
//! tables stay in cache instead, and each weight is two products away.
//!
//! A large table still pays where terms outnumber outputs: it costs one
//! `lincomb2` per output wire, the factors two products per term. After
//! the layer with the largest form, [`FreedRoom`] lets such a layer build
//! its table in the previous layer's form values, memory that is already
//! mapped: the mdoc hash circuit's layers 14 and 15 (4 and 1.6 terms per
//! output), 2–4 % of a proof. Only there: a table in fresh memory took
//! more in page faults than its lookups saved, and with two threads one
//! placed in what glibc kept of freed heap chunks raised the proof's peak
//! by 4.7 MB. Even in the spare vector the peak rises by about 1 MB
//! (the kept vector and the next form outgrow the largest form by more
//! than the freed wires and buffers give back to the system).

use longfellow_field::Field;

use longfellow_sumcheck::{eq2_table, SplitEq2, Term};

/// `eq(G0, g) + α·eq(G1, g)` for every output wire `g < n`.
pub(crate) enum EqWeights<F> {
    /// One entry per output wire.
    Dense(Vec<F>),
    /// The factor tables (see [`Split`]).
    Split(Split<F>),
}

/// Whether the weights of `n` output wires are small enough for a table
/// in any case (under `split_min_bytes`).
pub(crate) fn small_table<F>(n: usize, split_min_bytes: usize) -> bool {
    n.saturating_mul(size_of::<F>()) < split_min_bytes
}

/// Bytes of a bound form with `entries` hand pairs (the `HQuad` vectors).
pub(crate) fn form_bytes<F>(entries: usize) -> usize {
    entries.saturating_mul(size_of::<[u32; 2]>() + size_of::<F>())
}

/// What the layers proven so far freed, for the next layer's weight
/// table: the last form's value vector (its pages already mapped) and the
/// bytes it may keep beside the layer's own form.
///
/// Layer `L`'s peak held at least its form (whose pages stay mapped as it
/// shrinks), its round buffers and the wires of layers `L..`; at a later
/// layer `l` the form and buffers of `L` and the wires of layers `L..l`
/// are freed, so `max_L (form(L) + buffers(L) + Σ_{L ≤ j < l} wires(j))`
/// minus layer `l`'s own form bounds what the kept vector may add to the
/// live bytes without passing that peak's. The process's peak is another
/// matter: the allocator does not hand every freed byte back (see the
/// module documentation for what was measured).
pub(crate) struct FreedRoom<F> {
    bytes: usize,
    spare: Vec<F>,
}

impl<F: Field> FreedRoom<F> {
    /// Before the first layer: nothing freed.
    pub(crate) fn new() -> Self {
        Self {
            bytes: 0,
            spare: Vec::new(),
        }
    }

    /// Where a layer with `n` output wires, `terms` terms and a form of
    /// `form` bytes keeps its weights: the storage to hand to
    /// [`EqWeights::new_in`] and whether to build a table there — if small
    /// (see [`small_table`]), or if the terms outnumber the outputs and the
    /// spare vector holds the table with its whole allocation inside the
    /// room; factors otherwise. A spare that does not fit the room is freed
    /// first.
    pub(crate) fn table_storage(
        &mut self,
        n: usize,
        terms: usize,
        form: usize,
        split_min_bytes: usize,
    ) -> (Vec<F>, bool) {
        let room = self.bytes.saturating_sub(form);
        let mut storage = core::mem::take(&mut self.spare);
        if storage.capacity().saturating_mul(size_of::<F>()) > room {
            storage = Vec::new();
        }
        let in_spare = terms > n && storage.capacity() >= n;
        let table = small_table::<F>(n, split_min_bytes) || in_spare;
        (storage, table)
    }

    /// After a layer: its form (`form` bytes, `values` its value vector)
    /// and round buffers (`buffers` bytes), which were alive together at
    /// its peak, are freed, and its wires (`wires` bytes), which were alive
    /// at every earlier layer's peak too. So the room is the larger of the
    /// earlier room and this layer's form and buffers, plus its wires: a
    /// later layer's buffers do not add to an earlier layer's peak.
    pub(crate) fn layer_done(
        &mut self,
        mut values: Vec<F>,
        form: usize,
        buffers: usize,
        wires: usize,
    ) {
        values.clear();
        self.spare = values;
        self.bytes = self
            .bytes
            .max(form.saturating_add(buffers))
            .saturating_add(wires);
    }
}

impl<F: Field> EqWeights<F> {
    /// The weights for `n` output wires: a full table if `table`, else the
    /// factor tables.
    pub(crate) fn new(g0: &[F], g1: &[F], alpha: F, n: usize, table: bool) -> Self {
        Self::new_in(Vec::new(), g0, g1, alpha, n, table)
    }

    /// [`Self::new`] writing a table into `storage` (any contents; its
    /// allocation is reused when large enough, and dropped for factors).
    pub(crate) fn new_in(
        mut storage: Vec<F>,
        g0: &[F],
        g1: &[F],
        alpha: F,
        n: usize,
        table: bool,
    ) -> Self {
        if n == 0 || table {
            eq2_table(g0, g1, alpha, n, &mut storage);
            return Self::Dense(storage);
        }
        drop(storage);
        Self::Split(Split::new(SplitEq2::new(g0, g1, alpha, n), n))
    }

    /// Every weight (borrowed when already a table).
    #[cfg_attr(not(feature = "reference"), allow(dead_code))]
    pub(crate) fn to_dense(&self) -> std::borrow::Cow<'_, [F]> {
        match self {
            Self::Dense(v) => std::borrow::Cow::Borrowed(v),
            Self::Split(s) => (0..s.n).map(|g| s.at(g)).collect(),
        }
    }
}

/// The [`SplitEq2`] factor tables of `n` output wires' weights, each
/// table pair interleaved: `hi[j] = [hi₀[j], hi₁[j]]`, `lo[j] = [lo₀[j],
/// lo₁[j]]`, so that a weight `hi₀·lo₀ + hi₁·lo₁` takes two look-ups (and
/// two range checks) instead of four, and its two products lie next to
/// each other in one slice product.
pub(crate) struct Split<F> {
    hi: Vec<[F; 2]>,
    lo: Vec<[F; 2]>,
    shift: u32,
    n: usize,
}

impl<F: Field> Split<F> {
    fn new(eq: SplitEq2<F>, n: usize) -> Self {
        let ([lo0, lo1], [hi0, hi1], shift) = eq.tables();
        let pairs = |a: &[F], b: &[F]| a.iter().zip(b).map(|(&x, &y)| [x, y]).collect();
        Self {
            hi: pairs(hi0, hi1),
            lo: pairs(lo0, lo1),
            shift,
            n,
        }
    }

    /// The weight of output wire `g < n`.
    #[cfg_attr(not(feature = "reference"), allow(dead_code))]
    fn at(&self, g: usize) -> F {
        let ([h0, h1], [l0, l1]) = (self.hi[g >> self.shift], self.lo[g & self.mask()]);
        h0 * l0 + h1 * l1
    }

    fn mask(&self) -> usize {
        (1usize << self.shift) - 1
    }
}

/// Read access to the weights, monomorphised per representation.
pub(crate) trait EqLookup<F>: Sync {
    /// Number of output wires.
    fn len(&self) -> usize;

    /// `out[i]` = the weight of `terms[i].g`; the first `g` past the end
    /// as the error.
    fn weights_of(&self, terms: &[Term<F>], out: &mut [F]) -> Result<(), u32>;
}

impl<F: Field> EqLookup<F> for [F] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[F]>::len(self)
    }

    fn weights_of(&self, terms: &[Term<F>], out: &mut [F]) -> Result<(), u32> {
        for (o, t) in out.iter_mut().zip(terms) {
            *o = *self.get(t.g as usize).ok_or(t.g)?;
        }
        Ok(())
    }
}

impl<F: Field> EqLookup<F> for Split<F> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }

    /// Gathers the factors a few dozen terms at a time so that the products
    /// go through the field's slice kernel.
    fn weights_of(&self, terms: &[Term<F>], out: &mut [F]) -> Result<(), u32> {
        const CHUNK: usize = 64;
        let (hi, lo, k, mask) = (&self.hi[..], &self.lo[..], self.shift, self.mask());
        // `a[2i..2i + 2]` the high factors of term `i`, `b` its low ones.
        let mut a = [[F::ZERO; 2]; CHUNK];
        let mut b = [[F::ZERO; 2]; CHUNK];
        for (ts, os) in terms.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let m = ts.len().min(os.len());
            for ((t, ai), bi) in ts[..m].iter().zip(&mut a).zip(&mut b) {
                let g = t.g as usize;
                if g >= self.n {
                    return Err(t.g);
                }
                match (hi.get(g >> k), lo.get(g & mask)) {
                    (Some(h), Some(l)) => (*ai, *bi) = (*h, *l),
                    _ => return Err(t.g),
                }
            }
            let (a, b) = (a[..m].as_flattened_mut(), b[..m].as_flattened());
            F::mul_assign_slice(a, b);
            for (o, p) in os[..m].iter_mut().zip(a.chunks_exact(2)) {
                *o = p[0] + p[1];
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use longfellow_field::{Fp256, Gf2_128};

    fn check<F: Field>(mk: impl Fn(u64) -> F) {
        for (logn, n) in [
            (0, 1),
            (1, 2),
            (3, 5),
            (4, 16),
            (7, 100),
            (10, 1000),
            (11, 2048),
        ] {
            let g0: Vec<F> = (0..logn).map(|i| mk(3 * i + 7)).collect();
            let g1: Vec<F> = (0..logn).map(|i| mk(5 * i + 11)).collect();
            let alpha = mk(99);
            let mut full = Vec::new();
            eq2_table(&g0, &g1, alpha, n, &mut full);
            let weights = EqWeights::new(&g0, &g1, alpha, n, false);
            assert_eq!(weights.to_dense().as_ref(), full.as_slice(), "n = {n}");
            let EqWeights::Split(split) = weights else {
                panic!("not asked for a table, the weights are factored");
            };
            assert_eq!(EqLookup::len(&split), n);
            let terms: Vec<Term<F>> = (0..n as u32)
                .rev()
                .map(|g| Term {
                    g,
                    h0: 0,
                    h1: 0,
                    k: F::ONE,
                })
                .collect();
            let mut batch = vec![F::ZERO; n];
            split.weights_of(&terms, &mut batch).unwrap();
            assert!(batch.iter().rev().eq(full.iter()));
            let past = [Term {
                g: n as u32,
                h0: 0,
                h1: 0,
                k: F::ONE,
            }];
            assert_eq!(split.weights_of(&past, &mut batch[..1]), Err(n as u32));
            let EqWeights::Dense(dense) = EqWeights::new(&g0, &g1, alpha, n, true) else {
                panic!("asked for, the table is built");
            };
            assert_eq!(dense, full);
        }
    }

    #[test]
    fn small_tables_are_always_full() {
        let min = 2 << 20;
        assert!(small_table::<Gf2_128>(1000, min));
        assert!(!small_table::<Gf2_128>(min / 16, min));
        assert!(small_table::<Fp256>(min / 32 - 1, min));
        assert_eq!(form_bytes::<Gf2_128>(10), 240);
        assert_eq!(form_bytes::<Fp256>(10), 400);
    }

    #[test]
    fn freed_room_counts_forms_buffers_and_wires_and_reuses_the_spare() {
        let min = 1 << 10;
        let (g0, g1) = (
            vec![Gf2_128::from_u128(3); 12],
            vec![Gf2_128::from_u128(5); 12],
        );
        let alpha = Gf2_128::from_u128(7);
        let n = 4000; // 64,000 bytes of table
        let mut room = FreedRoom::<Gf2_128>::new();
        let weights = |room: &mut FreedRoom<Gf2_128>, terms: usize, form: usize| {
            let (storage, table) = room.table_storage(n, terms, form, min);
            EqWeights::new_in(storage, &g0, &g1, alpha, n, table)
        };
        // Nothing freed yet: factors.
        let w = weights(&mut room, 4 * n, 0);
        assert!(matches!(w, EqWeights::Split(_)));
        // A freed form of 40,000 bytes, 30,000 of buffers and wires: beside
        // a 4,000-byte form, the freed value vector (4,096 elements, 65,536
        // bytes, kept mapped) holds the 64,000-byte table.
        let values = Vec::with_capacity(4096);
        let spare_at = values.as_ptr();
        room.layer_done(values, 40_000, 10_000, 20_000);
        let w = weights(&mut room, 4 * n, 4_000);
        let EqWeights::Dense(table) = &w else {
            panic!("the spare fits the room");
        };
        assert_eq!(table.as_ptr(), spare_at, "the spare holds the table");
        let mut full = Vec::new();
        eq2_table(&g0, &g1, alpha, n, &mut full);
        assert_eq!(table, &full);
        // A larger form leaves too little room for the spare: factors.
        room.layer_done(Vec::with_capacity(4096), 0, 0, 0);
        let w = weights(&mut room, 4 * n, 5_000);
        assert!(matches!(w, EqWeights::Split(_)));
        // A later layer's buffers were alive beside a smaller form only:
        // they add nothing to the room (70,000 bytes still).
        room.layer_done(Vec::with_capacity(4096), 0, 2_000, 0);
        let w = weights(&mut room, 4 * n, 5_000);
        assert!(matches!(w, EqWeights::Split(_)));
        // Its wires were alive at the earlier peak: they do.
        room.layer_done(Vec::with_capacity(4096), 0, 0, 2_000);
        let w = weights(&mut room, 4 * n, 5_000);
        assert!(matches!(w, EqWeights::Dense(_)));
        // Room to spare, but a spare too short for the table: factors (no
        // table in fresh memory).
        room.layer_done(Vec::with_capacity(n - 1), 1 << 30, 0, 0);
        let w = weights(&mut room, 4 * n, 0);
        assert!(matches!(w, EqWeights::Split(_)));
        // Fewer terms than outputs: factors.
        room.layer_done(Vec::with_capacity(n), 1 << 30, 0, 0);
        let w = weights(&mut room, n, 0);
        assert!(matches!(w, EqWeights::Split(_)));
    }

    #[test]
    fn split_weights_match_the_table() {
        check(|i| Gf2_128::from_u128(u128::from(i) * 0x9e37_79b9_7f4a_7c15 + 1));
        check(|i| Fp256::from_u64(i * 1_000_003 + 17));
    }
}
