//! The verifier's side: replay the transcript on a padded proof and turn
//! each check the plain sumcheck verifier would make into a constraint on
//! the committed pad, for Ligero to prove.
//!
//! Every transcript value `X̂ = X − dX` is public while the pad `dX` is
//! committed, so each unpadded quantity is tracked as an affine expression
//! `known + Σ sym[i]·dX[i]` over the layer's pad slots (the previous
//! layer's claim pad, this layer's round pads, this layer's claim pad).

use longfellow_field::Field;
use longfellow_transcript::Transcript;

use crate::circuit::LayeredCircuit;
use crate::eq::{eq2_table, log2_ceil};
use crate::eq_split::{SplitEq, SplitEq2};
use crate::error::SumcheckError;
use crate::ligero_types::LinearTerm;
use crate::pad::layer_pad_len;
use crate::poly::Lagrange;
use crate::proof::SumcheckProof;
use crate::shape::check_shape;
use crate::statement::begin_circuit;

/// Linear constraints `A·W = b` on the committed witness, `A` as a list of
/// entries in the reference's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraints<F> {
    /// Entries of `A`.
    pub linear: Vec<LinearTerm<F>>,
    /// Right-hand sides, one per constraint (layers, then the input binding).
    pub b: Vec<F>,
}

/// Offset of the previous layer's claim pad in a layer's expression.
const PREV_CLAIM: usize = 0;
/// Offset of the first round pad in a layer's expression.
const ROUNDS: usize = 3;

/// Replays the sumcheck on `proof` (the transcript must already hold the
/// statement) and returns the constraints on the committed witness
/// (private inputs, then pad). Draws the final input-binding challenge.
///
/// `bound_quads` (from the prover) skips re-deriving each layer's fully
/// bound quadratic form from the circuit terms; a verifier passes `None`.
pub fn constraints<F: Field, C: LayeredCircuit<F> + ?Sized>(
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
    let mut linear = Vec::new();
    let mut b = Vec::with_capacity(nl + 1);
    let (mut eqg, mut tmp) = (Vec::new(), Vec::new());

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
                let eh = [SplitEq::new(&hb[0], nw), SplitEq::new(&hb[1], nw)];
                if nv <= MAX_G_TABLE && circuit.layer_num_terms(l) >= nv {
                    gw.fill(&mut eqg);
                    let eqg = &eqg;
                    bind_all(circuit, l, nv, |g| eqg[g], beta, &eh)?
                } else {
                    bind_all(circuit, l, nv, |g| gw.at(g), beta, &eh)?
                }
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
    eq2_table(
        &bindings[0],
        &bindings[1],
        gamma,
        ninputs,
        &mut eqg,
        &mut tmp,
    );
    let mut public_part = F::ZERO;
    for (e, x) in eqg.iter().zip(public_inputs) {
        public_part += *e * *x;
    }
    for (i, e) in eqg.iter().enumerate().skip(npub) {
        linear.push(LinearTerm {
            c: nl,
            w: i - npub,
            k: *e,
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
    Ok(Constraints { linear, b })
}

/// Largest output count for which the output-wire weights are tabulated
/// (one lookup per term instead of two products): 4 MiB of `Fp256`.
const MAX_G_TABLE: usize = 1 << 17;

/// The fully bound quadratic form of layer `l`:
/// `Σ_t (k = 0 ? β : k)·EG(g)·eq(H0, h0)·eq(H1, h1)`, streaming over the
/// terms and rejecting any term whose wires are out of range.
///
/// Circuit files order a layer's terms so that equal `(h0, h1)` are
/// adjacent and the high halves of `h0`, `h1` change rarely, so the
/// weights of a run of equal `(h0, h1)` are summed before one product by
/// the two low-table entries, and the runs of one high-half block before
/// one product by the two high-table entries. Any order gives the same
/// sum; this one makes it cheap.
fn bind_all<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    l: usize,
    nv: usize,
    eg: impl Fn(usize) -> F,
    beta: F,
    eh: &[SplitEq<F>; 2],
) -> Result<F, SumcheckError> {
    let nw = eh[0].len();
    let shift = eh[0].shift();
    debug_assert_eq!(shift, eh[1].shift());
    let mask = (1u32 << shift) - 1;
    let (lo0, lo1, hi0, hi1) = (eh[0].lo(), eh[1].lo(), eh[0].hi(), eh[1].hi());
    let mut total = F::ZERO;
    let mut block = F::ZERO;
    let mut run = F::ZERO;
    // Sentinel keys no wire reaches (wires are below nw ≤ 2^32).
    let mut run_key = (u32::MAX, u32::MAX);
    let mut block_key = (u32::MAX, u32::MAX);
    let mut bad = None;
    circuit.for_each_term(l, &mut |t| {
        let (g, h0, h1) = (t.g as usize, t.h0, t.h1);
        if g >= nv || h0 as usize >= nw || h1 as usize >= nw {
            bad.get_or_insert(t.g.max(t.h0).max(t.h1));
            return;
        }
        if (h0, h1) != run_key {
            if run_key.0 != u32::MAX {
                let (a0, a1) = ((run_key.0 & mask) as usize, (run_key.1 & mask) as usize);
                block += run * (lo0[a0] * lo1[a1]);
                run = F::ZERO;
            }
            let key = (h0 >> shift, h1 >> shift);
            if key != block_key {
                if block_key.0 != u32::MAX {
                    total += block * (hi0[block_key.0 as usize] * hi1[block_key.1 as usize]);
                    block = F::ZERO;
                }
                block_key = key;
            }
            run_key = (h0, h1);
        }
        let e = eg(g);
        run += if t.k == F::ONE {
            e
        } else if t.k == F::ZERO {
            beta * e
        } else {
            t.k * e
        };
    });
    if run_key.0 != u32::MAX {
        let (a0, a1) = ((run_key.0 & mask) as usize, (run_key.1 & mask) as usize);
        block += run * (lo0[a0] * lo1[a1]);
        total += block * (hi0[block_key.0 as usize] * hi1[block_key.1 as usize]);
    }
    match bad {
        Some(value) => Err(SumcheckError::BadCircuit {
            layer: l,
            what: "term wire",
            value: value.into(),
            bound: nv.max(nw) as u64,
        }),
        None => Ok(total),
    }
}
