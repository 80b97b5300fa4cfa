//! The output-wire weights a layer's `g` binding reads.
//!
//! Binding `g` weighs each term by `eq(G0, g) + α·eq(G1, g)`. A full table
//! of those weights has one entry per output wire: 11–14 MB for the mdoc
//! hash circuit's largest layers, alive while the layer's bound form (the
//! prover's biggest allocation) is being built. For such layers the four
//! `√n`-entry factor tables are kept instead and each weight is two
//! products away; the factor tables stay in cache, where the full table's
//! random reads would mostly miss it.

use longfellow_field::Field;

use crate::circuit::Term;
use crate::eq::{eq2_factors, eq2_table};

/// `eq(G0, g) + α·eq(G1, g)` for every output wire `g < n`.
pub(crate) enum EqWeights<F> {
    /// One entry per output wire.
    Dense(Vec<F>),
    /// Factor tables (see [`Split`]).
    Split(Split<F>),
}

impl<F: Field> EqWeights<F> {
    /// The weights for `n` output wires, factored when a full table would
    /// take at least `split_min_bytes`.
    pub(crate) fn new(
        g0: &[F],
        g1: &[F],
        alpha: F,
        n: usize,
        split_min_bytes: usize,
        tmp: &mut Vec<F>,
    ) -> Self {
        let mut out = Vec::new();
        if n == 0 || n * size_of::<F>() < split_min_bytes {
            eq2_table(g0, g1, alpha, n, &mut out, tmp);
            return Self::Dense(out);
        }
        let mut factors = Vec::new();
        let (nlo, k) = eq2_factors(g0, g1, alpha, n, &mut out, &mut factors);
        let (lo0, rest) = factors.split_at(nlo);
        let (lo1, rest) = rest.split_at(nlo);
        let (hi0, hi1) = rest.split_at(n.div_ceil(nlo));
        Self::Split(Split {
            lo: [lo0.to_vec(), lo1.to_vec()],
            hi: [hi0.to_vec(), hi1.to_vec()],
            mask: (1 << k) - 1,
            k,
            n,
        })
    }
}

impl<F: Field> EqWeights<F> {
    /// Every weight (borrowed when already a table).
    pub(crate) fn to_dense(&self) -> std::borrow::Cow<'_, [F]> {
        match self {
            Self::Dense(v) => std::borrow::Cow::Borrowed(v),
            Self::Split(s) => (0..s.n).filter_map(|g| s.weight(g)).collect(),
        }
    }
}

/// `weight(g) = hi0[g >> k]·lo0[g mod 2^k] + hi1α[g >> k]·lo1[g mod 2^k]`.
pub(crate) struct Split<F> {
    lo: [Vec<F>; 2],
    hi: [Vec<F>; 2],
    mask: usize,
    k: usize,
    n: usize,
}

/// Read access to the weights, monomorphised per representation.
pub(crate) trait EqLookup<F>: Sync {
    /// Number of output wires.
    fn len(&self) -> usize;
    /// The weight of output wire `g`, `None` past the end.
    fn weight(&self, g: usize) -> Option<F>;

    /// `out[i]` = the weight of `terms[i].g`; the first `g` past the end
    /// as the error.
    fn weights_of(&self, terms: &[Term<F>], out: &mut [F]) -> Result<(), u32> {
        for (o, t) in out.iter_mut().zip(terms) {
            *o = self.weight(t.g as usize).ok_or(t.g)?;
        }
        Ok(())
    }
}

impl<F: Field> EqLookup<F> for [F] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[F]>::len(self)
    }
    #[inline(always)]
    fn weight(&self, g: usize) -> Option<F> {
        self.get(g).copied()
    }
}

impl<F: Field> EqLookup<F> for Split<F> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.n
    }
    #[inline(always)]
    fn weight(&self, g: usize) -> Option<F> {
        if g >= self.n {
            return None;
        }
        let (lo, hi) = (g & self.mask, g >> self.k);
        Some(self.hi[0][hi] * self.lo[0][lo] + self.hi[1][hi] * self.lo[1][lo])
    }

    /// Gathers the factors a few dozen terms at a time so that the products
    /// go through the field's slice kernel.
    fn weights_of(&self, terms: &[Term<F>], out: &mut [F]) -> Result<(), u32> {
        const CHUNK: usize = 64;
        let mut b = [F::ZERO; CHUNK];
        let mut c = [F::ZERO; CHUNK];
        let mut d = [F::ZERO; CHUNK];
        for (ts, os) in terms.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let m = ts.len().min(os.len());
            for (i, t) in ts[..m].iter().enumerate() {
                let g = t.g as usize;
                if g >= self.n {
                    return Err(t.g);
                }
                let (lo, hi) = (g & self.mask, g >> self.k);
                os[i] = self.hi[0][hi];
                b[i] = self.lo[0][lo];
                c[i] = self.hi[1][hi];
                d[i] = self.lo[1][lo];
            }
            F::mul_assign_slice(&mut os[..m], &b[..m]);
            F::mul_assign_slice(&mut c[..m], &d[..m]);
            for (o, &x) in os[..m].iter_mut().zip(&c[..m]) {
                *o += x;
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
            let (mut full, mut tmp) = (Vec::new(), Vec::new());
            eq2_table(&g0, &g1, alpha, n, &mut full, &mut tmp);
            let EqWeights::Split(split) = EqWeights::new(&g0, &g1, alpha, n, 0, &mut tmp) else {
                panic!("a zero threshold splits every table");
            };
            assert_eq!(EqLookup::len(&split), n);
            for (g, w) in full.iter().enumerate() {
                assert_eq!(split.weight(g), Some(*w), "n = {n}, g = {g}");
            }
            assert_eq!(split.weight(n), None);
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
            let EqWeights::Dense(dense) = EqWeights::new(&g0, &g1, alpha, n, usize::MAX, &mut tmp)
            else {
                panic!("an unreachable threshold keeps the table");
            };
            assert_eq!(dense, full);
        }
    }

    #[test]
    fn split_weights_match_the_table() {
        check(|i| Gf2_128::from_u128(u128::from(i) * 0x9e37_79b9_7f4a_7c15 + 1));
        check(|i| Fp256::from_u64(i * 1_000_003 + 17));
    }
}
