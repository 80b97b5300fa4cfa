//! The verifier's side: replay the transcript on a padded proof and turn
//! each check the plain sumcheck verifier would make into a constraint on
//! the committed pad, for Ligero to prove.
//!
//! Every transcript value `X̂ = X − dX` is public while the pad `dX` is
//! committed, so each unpadded quantity is tracked as an affine expression
//! `known + Σ sym[i]·dX[i]` over the layer's pad slots (the previous
//! layer's claim pad, this layer's round pads, this layer's claim pad).

use longfellow_field::held::{WideProducts, WithWideProducts};
use longfellow_field::Field;
use longfellow_transcript::Transcript;

use crate::circuit::LayeredCircuit;
use crate::circuit::Term;
use crate::eq::log2_ceil;
use crate::eq_split::{EqRowCache, Level, PairEq, SplitEq2, MAX_LEVELS};
use crate::error::SumcheckError;
use crate::pad::layer_pad_len;
use crate::poly::Lagrange;
use crate::proof::SumcheckProof;
use crate::shape::check_shape;
use crate::statement::begin_circuit;
use longfellow_constraints::{Constraints, LinearTerm};

/// Offset of the previous layer's claim pad in a layer's expression.
const PREV_CLAIM: usize = 0;
/// Offset of the first round pad in a layer's expression.
const ROUNDS: usize = 3;

/// Replays the sumcheck on `proof` (the transcript must already hold the
/// statement) and returns the constraints on the committed witness
/// (private inputs, then pad). Draws the final input-binding challenge.
pub fn constraints<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    public_inputs: &[F],
    proof: &SumcheckProof<F>,
    transcript: &mut Transcript,
) -> Result<Constraints<F>, SumcheckError> {
    replay(circuit, public_inputs, proof, None, transcript)
}

/// [`constraints`] for a prover, which already holds each layer's fully
/// bound quadratic form (`bound_quads`, one per layer, from its own
/// sumcheck run) and so skips re-deriving them from the circuit terms.
/// The constraints are the same; a verifier never has these values and
/// calls [`constraints`].
pub fn constraints_with_bound_quads<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    public_inputs: &[F],
    proof: &SumcheckProof<F>,
    bound_quads: &[F],
    transcript: &mut Transcript,
) -> Result<Constraints<F>, SumcheckError> {
    replay(circuit, public_inputs, proof, Some(bound_quads), transcript)
}

fn replay<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    public_inputs: &[F],
    proof: &SumcheckProof<F>,
    bound_quads: Option<&[F]>,
    transcript: &mut Transcript,
) -> Result<Constraints<F>, SumcheckError> {
    check_shape(circuit)?;
    if !proof.matches(circuit) {
        return Err(SumcheckError::ProofShape);
    }
    let nl = circuit.num_layers();
    let ninputs = circuit.num_inputs();
    let npub = circuit.num_public_inputs();
    if public_inputs.len() != npub {
        return Err(SumcheckError::Count {
            what: "public inputs",
            expected: npub,
            found: public_inputs.len(),
        });
    }
    if let Some(q) = bound_quads {
        if q.len() != nl {
            return Err(SumcheckError::Count {
                what: "bound quads",
                expected: nl,
                found: q.len(),
            });
        }
    }

    let lag = Lagrange::<F>::new();
    let g = begin_circuit::<F>(transcript, log2_ceil(circuit.num_outputs()));
    let mut bindings = [g.clone(), g];
    let mut claims = [F::ZERO; 2];
    let mut pi = ninputs - npub;
    // Each layer's pad slots plus its previous claim pads (none for layer
    // 0), then the private inputs and the last claim pads.
    let linear_len = (0..nl)
        .map(|l| layer_pad_len(circuit.layer_logw(l)) + if l == 0 { 0 } else { 3 })
        .sum::<usize>()
        + (ninputs - npub)
        + 2;
    let mut linear = Vec::with_capacity(linear_len);
    let mut b = Vec::with_capacity(nl + 1);
    let mut g_cache = EqRowCache::new();

    for (l, lp) in proof.layers.iter().enumerate() {
        let logw = circuit.layer_logw(l);
        let alpha: F = transcript.challenge_element();
        let beta: F = transcript.challenge_element();

        let claim_pad = ROUNDS + 4 * logw;
        let mut sym = vec![F::ZERO; claim_pad + 3];
        // The running claim starts as claim0 + α·claim1 of the previous layer.
        let mut known = claims[0] + alpha * claims[1];
        sym[PREV_CLAIM] = F::ONE;
        sym[PREV_CLAIM + 1] = alpha;

        let mut hb = [Vec::with_capacity(logw), Vec::with_capacity(logw)];
        for (round, hands) in lp.rounds.iter().enumerate() {
            for (hand, hp) in hands.iter().enumerate() {
                transcript.write_element(&hp.p0);
                transcript.write_element(&hp.p2);
                let r: F = transcript.challenge_element();
                hb[hand].push(r);
                let [l0, l1, l2] = lag.basis(r);
                let i0 = ROUNDS + 2 * (2 * round + hand);
                // p(1) = claim − p(0)
                known -= hp.p0;
                sym[i0] -= F::ONE;
                // claim' = L1·p(1) + L0·p(0) + L2·p(P2)
                known *= l1;
                for s in sym.iter_mut() {
                    *s *= l1;
                }
                known += l0 * hp.p0;
                sym[i0] += l0;
                known += l2 * hp.p2;
                sym[i0 + 1] += l2;
            }
        }

        let quad = match bound_quads {
            Some(q) => q[l],
            None => {
                let nv = circuit.layer_nv(l);
                let nw = circuit.layer_nw(l);
                let gw = SplitEq2::new(&bindings[0], &bindings[1], alpha, nv);
                let eh = PairEq::new(&hb[0], &hb[1], nw);
                bind_layer(circuit, l, nv, &gw, beta, &eh, nw, &mut g_cache)?
            }
        };

        // claim = quad·(ĉ0 + dc0)·(ĉ1 + dc1), with the product of pads in its own slot.
        let [c0, c1] = lp.claims;
        sym[claim_pad] -= quad * c1;
        sym[claim_pad + 1] -= quad * c0;
        sym[claim_pad + 2] -= quad;
        b.push(quad * c0 * c1 - known);
        // Layer 0 has no previous claim pad.
        let first = if l == 0 { ROUNDS } else { PREV_CLAIM };
        for (i, k) in sym.iter().enumerate().skip(first) {
            linear.push(LinearTerm {
                c: l,
                w: pi + i - ROUNDS,
                k: *k,
            });
        }
        transcript.write_elements(&lp.claims);

        claims = lp.claims;
        bindings = hb;
        pi += layer_pad_len(logw);
    }

    // Input binding: Σ_i (eq(G0,i) + γ·eq(G1,i))·input_i = claim0 + γ·claim1,
    // with the public part moved to the right-hand side.
    let gamma: F = transcript.challenge_element();
    // Row by row through the cache: no table of all inputs.
    let gw = SplitEq2::new(&bindings[0], &bindings[1], gamma, ninputs);
    g_cache.reset(&gw, 0);
    let mut public_part = F::ZERO;
    for (i, x) in public_inputs.iter().enumerate() {
        public_part += g_cache.at(&gw, i) * *x;
    }
    for i in npub..ninputs {
        linear.push(LinearTerm {
            c: nl,
            w: i - npub,
            k: g_cache.at(&gw, i),
        });
    }
    let last_claim_pad = pi - 3;
    linear.push(LinearTerm {
        c: nl,
        w: last_claim_pad,
        k: -F::ONE,
    });
    linear.push(LinearTerm {
        c: nl,
        w: last_claim_pad + 1,
        k: -gamma,
    });
    b.push(claims[0] + gamma * claims[1] - public_part);
    debug_assert_eq!(linear.len(), linear_len);
    Ok(Constraints { linear, b })
}

/// Memory for cached rows of output-wire weights. Terms of a layer touch
/// output wires in an order with some locality, so a cached row is usually
/// reused; 8 MiB holds every row of all but the two largest v7 hash-circuit
/// layers.
const MAX_G_CACHE_BYTES: usize = 8 << 20;

/// The fully bound quadratic form of layer `l`:
/// `Σ_t (k = 0 ? β : k)·EG(g)·eq(H0, h0)·eq(H1, h1)`, streaming over the
/// terms and rejecting any term whose wires are out of range.
///
/// One pass on one thread: splitting a layer into spans on several threads
/// (each with its own row cache) cost about a fifth more CPU here, taking
/// terms in blocks and filling more rows, without a measurable gain on a
/// shared two-core machine.
#[allow(clippy::too_many_arguments)]
fn bind_layer<F: Field, C: LayeredCircuit<F>>(
    circuit: &C,
    l: usize,
    nv: usize,
    gw: &SplitEq2<F>,
    beta: F,
    eh: &PairEq<F>,
    nw: usize,
    cache: &mut EqRowCache<F>,
) -> Result<F, SumcheckError> {
    cache.reset(gw, MAX_G_CACHE_BYTES);
    F::with_wide_products(LayerPass {
        circuit,
        l,
        nv,
        gw,
        beta,
        eh,
        nw,
        cache,
    })
}

/// [`bind_layer`]'s pass over the terms, compiled for the product kernel
/// held through it: the pass makes one to three products per term, and
/// choosing the kernel per product was 6 % of its instructions.
struct LayerPass<'a, F, C> {
    circuit: &'a C,
    l: usize,
    nv: usize,
    gw: &'a SplitEq2<F>,
    beta: F,
    eh: &'a PairEq<F>,
    nw: usize,
    cache: &'a mut EqRowCache<F>,
}

impl<F: Field, C: LayeredCircuit<F>> WithWideProducts<F> for LayerPass<'_, F, C> {
    type Output = Result<F, SumcheckError>;

    fn run<P: WideProducts<F>>(self, products: P) -> Self::Output {
        let (gw, cache) = (self.gw, self.cache);
        let mut pass = TermPass::new(self.l, self.nv, self.nw, self.beta, self.eh, products);
        let mut hot = Hot::default();
        self.circuit.visit_terms(self.l, |t: Term<F>| {
            pass.term(t, &mut hot, |g| cache.at(gw, g))
        });
        pass.finish(hot)
    }
}

/// The state of [`TermPass`] that changes on (almost) every term, kept by
/// the caller as locals so that it stays in registers: held in the pass,
/// whose address its out-of-line carry takes, the run's sum went through
/// the stack on every term (a store and a reload on the loop's critical
/// path).
#[derive(Clone, Copy)]
struct Hot<F: Field> {
    /// The current run's sum, unreduced: a run of the large layers has up
    /// to eight products by constants, reduced once at its end.
    run: F::Wide,
    /// The current run's wires; initially any pair in range, with an
    /// empty sum.
    cur: (u32, u32),
    /// Completed runs' level-0 products not yet in `acc[1]`, unreduced: a
    /// run that changed only the lowest digits (most of them) adds here
    /// without a call or a reduction.
    low: F::Wide,
}

impl<F: Field> Default for Hot<F> {
    fn default() -> Self {
        Self {
            run: F::Wide::default(),
            cur: (0, 0),
            low: F::Wide::default(),
        }
    }
}

/// The sum over a sequence of a layer's terms (all of them, or a span).
///
/// Circuit files order a layer's terms so that equal `(h0, h1)` are
/// adjacent and the high digits of the wires change rarely. The weights of
/// a run of equal `(h0, h1)` are summed first; when the wires change, the
/// partial sums of the levels whose digits changed are each multiplied by
/// that level's eq factor ([`PairEq`]) and moved one level up. Any order
/// gives the same sum; this one makes it cheap.
struct TermPass<'a, F, P> {
    /// The products' kernel, held for the pass.
    products: P,
    layer: usize,
    nv: usize,
    nw: usize,
    /// Output wires must be below this: `nv`, or 0 when there are no input
    /// wires (no term is then valid).
    g_bound: usize,
    beta: F,
    eh: &'a PairEq<F>,
    levels: usize,
    /// `acc[j]` sums the level-`j` factors of completed runs whose level
    /// `≥ j + 1` digits are the current ones (`acc[levels]`: the total),
    /// apart from [`Hot::low`].
    acc: [F; MAX_LEVELS + 1],
    /// Level 0, read at every change of wires.
    low: Level<'a, F>,
    /// The first out-of-range wire and the bound it broke.
    bad: Option<(u32, usize)>,
}

impl<'a, F: Field, P: WideProducts<F>> TermPass<'a, F, P> {
    fn new(layer: usize, nv: usize, nw: usize, beta: F, eh: &'a PairEq<F>, products: P) -> Self {
        Self {
            products,
            layer,
            nv,
            nw,
            g_bound: if nw == 0 { 0 } else { nv },
            beta,
            eh,
            levels: eh.levels(),
            acc: [F::ZERO; MAX_LEVELS + 1],
            low: eh.level(0),
            bad: None,
        }
    }

    /// Adds one term; `eg` gives the output-wire weight of a wire `< nv`.
    #[inline(always)]
    fn term(&mut self, t: Term<F>, hot: &mut Hot<F>, eg: impl FnOnce(usize) -> F) {
        let (g, h0, h1) = (t.g as usize, t.h0, t.h1);
        if g >= self.g_bound {
            // Past `nv`, or any input wire of a layer without input wires.
            let broken = if g >= self.nv {
                (t.g, self.nv)
            } else {
                (t.h0.max(t.h1), 0)
            };
            self.bad.get_or_insert(broken);
            return;
        }
        let (c0, c1) = hot.cur;
        if (c0, c1) != (h0, h1) {
            // The input wires need checking only when they change: a term
            // that repeats the current pair repeats checked wires (or the
            // initial pair, which is in range unless `nw` is 0, and then
            // `g_bound` refuses every term).
            if h0 as usize >= self.nw || h1 as usize >= self.nw {
                self.bad.get_or_insert((t.h0.max(t.h1), self.nw));
                return;
            }
            // Levels 0..=top have a changed digit (the first change of the
            // initial pair moves zeros). The run's product joins level 1; when higher digits changed
            // too (about one run in ten), levels 1..=top move up.
            let p = self.products;
            hot.low += p.mul_wide(p.narrow(hot.run), self.low.factor(c0, c1));
            let x = (c0 ^ h0) | (c1 ^ h1);
            if x >> PairEq::<F>::digit_bits() != 0 {
                let top = ((31 - x.leading_zeros()) / PairEq::<F>::digit_bits()) as usize;
                self.carry(p.narrow(hot.low), hot.cur, top.min(self.levels - 1));
                hot.low = F::Wide::default();
            }
            hot.run = F::Wide::default();
            hot.cur = (h0, h1);
        }
        let e = eg(g);
        hot.run += if t.k == F::ONE {
            F::widen(e)
        } else if t.k == F::ZERO {
            self.products.mul_wide(self.beta, e)
        } else {
            self.products.mul_wide(t.k, e)
        };
    }

    /// Moves the partial sums of levels `1..=top` (with `low`, the runs'
    /// level-0 products, in level 1), each multiplied by its level's factor
    /// of `cur`, into the level above. It takes values, not [`Hot`], so
    /// that the caller's state need not go through memory for the call.
    #[inline(never)]
    fn carry(&mut self, low: F, (c0, c1): (u32, u32), top: usize) {
        self.acc[1] += low;
        let mut carry = F::ZERO;
        for j in 1..=top {
            carry = (self.acc[j] + carry) * self.eh.factor(j, c0, c1);
            self.acc[j] = F::ZERO;
        }
        self.acc[top + 1] += carry;
    }

    /// The sum, or the first out-of-range wire.
    fn finish(mut self, mut hot: Hot<F>) -> Result<F, SumcheckError> {
        let (c0, c1) = hot.cur;
        let p = self.products;
        hot.low += p.mul_wide(p.narrow(hot.run), self.low.factor(c0, c1));
        self.carry(p.narrow(hot.low), hot.cur, self.levels - 1);
        match self.bad {
            Some((value, bound)) => Err(SumcheckError::BadCircuit {
                layer: self.layer,
                what: "term wire",
                value: value.into(),
                bound: bound as u64,
            }),
            None => Ok(self.acc[self.levels]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::{SimpleCircuit, SimpleLayer};
    use crate::eq::{eq2_table, eq_table};
    use longfellow_field::held::SelectedPerProduct;
    use longfellow_field::{Fp256, Gf2_128};
    use proptest::prelude::*;

    /// A splitmix-style stream for test data.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn elements<F: Field>(state: &mut u64, n: usize) -> Vec<F> {
        (0..n)
            .map(|_| F::from_u64(next(state)) * F::from_u64(next(state)) + F::from_u64(next(state)))
            .collect()
    }

    /// `bind_layer` against the sum over full eq tables, for terms in random
    /// order, in (h0, h1) order, and with a cache of one row.
    fn check<F: Field>(seed: u64, nv: usize, nw: usize, nterms: usize, extra: usize) {
        let mut st = seed;
        let (logv, logw) = (log2_ceil(nv) + extra, log2_ceil(nw) + extra);
        let (g0, g1) = (elements::<F>(&mut st, logv), elements::<F>(&mut st, logv));
        let (h0, h1) = (elements::<F>(&mut st, logw), elements::<F>(&mut st, logw));
        let [alpha, beta] = [0, 1].map(|_| elements::<F>(&mut st, 1)[0]);
        let consts = [F::ZERO, F::ONE, alpha * beta];
        let mut terms: Vec<Term<F>> = (0..nterms)
            .map(|_| Term {
                g: (next(&mut st) % nv as u64) as u32,
                h0: (next(&mut st) % nw as u64) as u32,
                h1: (next(&mut st) % nw as u64) as u32,
                k: consts[(next(&mut st) % 3) as usize],
            })
            .collect();
        let (mut eg, mut e0, mut e1) = (Vec::new(), Vec::new(), Vec::new());
        eq2_table(&g0, &g1, alpha, nv, &mut eg);
        eq_table(&h0, nw, &mut e0);
        eq_table(&h1, nw, &mut e1);
        let want = terms.iter().fold(F::ZERO, |acc, t| {
            let k = if t.k == F::ZERO { beta } else { t.k };
            acc + k * eg[t.g as usize] * e0[t.h0 as usize] * e1[t.h1 as usize]
        });
        let gw = SplitEq2::new(&g0, &g1, alpha, nv);
        let eh = PairEq::new(&h0, &h1, nw);
        for (order, cache_bytes) in [(0, MAX_G_CACHE_BYTES), (1, MAX_G_CACHE_BYTES), (1, 0)] {
            if order == 1 {
                terms.sort_by_key(|t| (t.h0 >> 5, t.h1 >> 5, t.h0, t.h1));
            }
            let c = SimpleCircuit {
                id: [0; 32],
                num_outputs: nv,
                num_inputs: nw,
                num_public_inputs: 0,
                subfield_boundary: 0,
                layers: vec![SimpleLayer {
                    logw,
                    nw,
                    terms: terms.clone(),
                }],
            };
            let mut cache = EqRowCache::new();
            cache.reset(&gw, cache_bytes);
            // The pass on the per-product kernel here, on the held one
            // through `bind_layer` below.
            let mut pass = TermPass::new(0, nv, nw, beta, &eh, SelectedPerProduct);
            let mut hot = Hot::default();
            for t in &c.layers[0].terms {
                pass.term(*t, &mut hot, |g| cache.at(&gw, g));
            }
            assert_eq!(
                pass.finish(hot).ok(),
                Some(want),
                "nv={nv} nw={nw} order={order}"
            );
            let got = bind_layer(&c, 0, nv, &gw, beta, &eh, nw, &mut cache);
            assert_eq!(got.ok(), Some(want), "nv={nv} nw={nw} order={order}");
        }
    }

    #[test]
    fn layer_sizes() {
        for (nv, nw) in [
            (1, 1),
            (1, 2),
            (3, 5),
            (33, 31),
            (1025, 3000),
            (5000, 40_000),
        ] {
            check::<Gf2_128>(nv as u64, nv, nw, 2000, 0);
            check::<Fp256>(nw as u64, nv, nw, 500, 2);
        }
    }

    #[test]
    fn wires_out_of_range_are_rejected() {
        let c = SimpleCircuit {
            id: [0; 32],
            num_outputs: 2,
            num_inputs: 4,
            num_public_inputs: 0,
            subfield_boundary: 0,
            layers: vec![SimpleLayer {
                logw: 2,
                nw: 4,
                terms: vec![Term {
                    g: 0,
                    h0: 4,
                    h1: 0,
                    k: Gf2_128::ONE,
                }],
            }],
        };
        let p = [Gf2_128::ONE; 2];
        let gw = SplitEq2::new(&p[..1], &p[..1], Gf2_128::ONE, 2);
        let eh = PairEq::new(&p, &p, 4);
        let mut cache = EqRowCache::new();
        let got = bind_layer(&c, 0, 2, &gw, Gf2_128::ONE, &eh, 4, &mut cache);
        assert!(matches!(got, Err(SumcheckError::BadCircuit { .. })));
        assert!(
            matches!(
                got,
                Err(SumcheckError::BadCircuit {
                    value: 4,
                    bound: 4,
                    ..
                })
            ),
            "{got:?}"
        );
    }

    /// Terms repeating the initial pair `(0, 0)` of a layer without input
    /// wires, and an out-of-range pair repeated, are refused (the pass
    /// checks input wires only when they change).
    #[test]
    fn unchecked_repeats_are_still_refused() {
        let term = |g, h0, h1| Term {
            g,
            h0,
            h1,
            k: Gf2_128::ONE,
        };
        let p = [Gf2_128::ONE; 2];
        // With the wire and the bound each error names.
        for (nw, terms, wire, bound) in [
            (0, vec![term(0, 0, 0), term(1, 0, 0)], 0, 0),
            (4, vec![term(0, 0, 0), term(0, 3, 5), term(1, 3, 5)], 5, 4),
            (4, vec![term(0, 1, 1), term(2, 1, 1)], 2, 2),
        ] {
            let c = SimpleCircuit {
                id: [0; 32],
                num_outputs: 2,
                num_inputs: nw,
                num_public_inputs: 0,
                subfield_boundary: 0,
                layers: vec![SimpleLayer { logw: 2, nw, terms }],
            };
            let gw = SplitEq2::new(&p[..1], &p[..1], Gf2_128::ONE, 2);
            let eh = PairEq::new(&p, &p, nw);
            let mut cache = EqRowCache::new();
            let got = bind_layer(&c, 0, 2, &gw, Gf2_128::ONE, &eh, nw, &mut cache);
            assert!(
                matches!(got, Err(SumcheckError::BadCircuit { .. })),
                "nw={nw}: {got:?}"
            );
            assert!(
                matches!(got, Err(SumcheckError::BadCircuit { value, bound: b, .. })
                    if value == wire && b == bound),
                "nw={nw}: {got:?}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_layers(seed in any::<u64>(), nv in 1usize..3000, nw in 1usize..3000, extra in 0usize..3) {
            check::<Gf2_128>(seed, nv, nw, 700, extra);
        }
    }
}
