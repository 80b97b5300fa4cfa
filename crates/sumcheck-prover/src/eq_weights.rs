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

use longfellow_sumcheck::{eq2_table, SplitEq2, Term};

/// `eq(G0, g) + α·eq(G1, g)` for every output wire `g < n`.
pub(crate) enum EqWeights<F> {
    /// One entry per output wire.
    Dense(Vec<F>),
    /// The factor tables (see [`Split`]).
    Split(Split<F>),
}

impl<F: Field> EqWeights<F> {
    /// The weights for `n` output wires, factored when a full table would
    /// take at least `split_min_bytes`.
    pub(crate) fn new(g0: &[F], g1: &[F], alpha: F, n: usize, split_min_bytes: usize) -> Self {
        if n == 0 || n * size_of::<F>() < split_min_bytes {
            let mut out = Vec::new();
            eq2_table(g0, g1, alpha, n, &mut out);
            return Self::Dense(out);
        }
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
            let weights = EqWeights::new(&g0, &g1, alpha, n, 0);
            assert_eq!(weights.to_dense().as_ref(), full.as_slice(), "n = {n}");
            let EqWeights::Split(split) = weights else {
                panic!("a zero threshold splits every table");
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
            let EqWeights::Dense(dense) = EqWeights::new(&g0, &g1, alpha, n, usize::MAX) else {
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
