//! Binding a layer's output variables straight from the circuit's terms.
//!
//! Circuit files store each layer's terms already grouped by hand pair and
//! in the Morton order the rounds bind (the reference prover relies on it
//! too), so one pass over the terms, summing neighbours with the same pair,
//! yields the bound form `Q[h0, h1]` ready for the rounds: no per-proof
//! sort and no prepared copy of the layer. A layer stored in any other
//! order is still accepted; its entries are sorted and merged afterwards.

use longfellow_field::Field;

use crate::circuit::{LayeredCircuit, Term};
use crate::error::SumcheckError;
use crate::quad::{morton, HQuad};

/// Fills `quad` with `Σ_g (k = 0 ? β : k)·eqg[g]` per hand pair of layer
/// `layer`, entries in Morton order of the pair, checking every index
/// against the layer's sizes (`eqg` has one entry per output wire).
pub(crate) fn bind_g_streaming<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
    layer: usize,
    eqg: &[F],
    beta: F,
    quad: &mut HQuad<F>,
) -> Result<(), SumcheckError> {
    let nw = circuit.layer_nw(layer);
    let nv = eqg.len();
    let bad = |what, value: u32, bound: usize| SumcheckError::BadCircuit {
        layer,
        what,
        value: value.into(),
        bound: bound as u64,
    };
    let runs = circuit.layer_num_pair_runs(layer);
    quad.h.clear();
    quad.v.clear();
    quad.h.reserve_exact(runs);
    quad.v.reserve_exact(runs);
    let mut sorted = true;
    let mut err = None;
    circuit.for_each_term_block(layer, &mut |block: &[Term<F>]| {
        if err.is_some() {
            return;
        }
        for t in block {
            let Some(&e) = eqg.get(t.g as usize) else {
                err = Some(bad("g", t.g, nv));
                return;
            };
            if t.h0 as usize >= nw {
                err = Some(bad("h0", t.h0, nw));
                return;
            }
            if t.h1 as usize >= nw {
                err = Some(bad("h1", t.h1, nw));
                return;
            }
            // Constants are public: branching on them is fine, and most
            // are one.
            let c = if t.k == F::ONE {
                e
            } else if bool::from(t.k.is_zero()) {
                beta * e
            } else {
                t.k * e
            };
            let h = [t.h0, t.h1];
            match (quad.h.last(), quad.v.last_mut()) {
                (Some(&last), Some(v)) if last == h => *v += c,
                (last, _) => {
                    if let Some(&[a0, a1]) = last {
                        sorted &= morton(a0, a1) < morton(h[0], h[1]);
                    }
                    quad.h.push(h);
                    quad.v.push(c);
                }
            }
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    if !sorted {
        sort_and_merge(quad);
    }
    Ok(())
}

/// Puts the entries in Morton order of their pairs, summing equal pairs.
fn sort_and_merge<F: Field>(quad: &mut HQuad<F>) {
    let mut entries: Vec<(u64, [u32; 2], F)> = quad
        .h
        .iter()
        .zip(quad.v.iter())
        .map(|(&h, &v)| (morton(h[0], h[1]), h, v))
        .collect();
    entries.sort_unstable_by_key(|e| e.0);
    quad.h.clear();
    quad.v.clear();
    for (_, h, v) in entries {
        match (quad.h.last(), quad.v.last_mut()) {
            (Some(&last), Some(acc)) if last == h => *acc += v,
            _ => {
                quad.h.push(h);
                quad.v.push(v);
            }
        }
    }
}
