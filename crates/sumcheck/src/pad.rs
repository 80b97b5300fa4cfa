//! The one-time pad that hides the sumcheck transcript, and where it sits
//! in the committed witness.
//!
//! Committed witness = the private inputs, then per layer
//! `[per round: hand0 (p0, p2), hand1 (p0, p2)], c0, c1, c0·c1`. The
//! prover (`longfellow-sumcheck-prover`'s `sample_pad`) draws the pad from
//! its generator in exactly that order (the product is computed, not
//! drawn), which is what makes proofs reproducible from a seeded generator.

use longfellow_field::Field;

use crate::circuit::LayeredCircuit;
use crate::proof::SumcheckProof;
use longfellow_constraints::QuadraticConstraint;

/// Witness slots a layer with `logw` rounds per hand occupies.
pub fn layer_pad_len(logw: usize) -> usize {
    4 * logw + 3
}

/// Total pad slots of a circuit.
pub fn pad_len<F: Field, C: LayeredCircuit<F> + ?Sized>(circuit: &C) -> usize {
    (0..circuit.num_layers())
        .map(|l| layer_pad_len(circuit.layer_logw(l)))
        .sum()
}

/// Size of the committed witness: private inputs plus pad.
pub fn witness_len<F: Field, C: LayeredCircuit<F> + ?Sized>(circuit: &C) -> usize {
    circuit.num_inputs() - circuit.num_public_inputs().min(circuit.num_inputs()) + pad_len(circuit)
}

/// The pad: a proof-shaped value subtracted from every transcript message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pad<F>(pub SumcheckProof<F>);

impl<F: Field> Pad<F> {
    /// The all-zero pad (an unpadded, non-hiding proof).
    pub fn zero<C: LayeredCircuit<F> + ?Sized>(circuit: &C) -> Self {
        Self(SumcheckProof::zero(circuit))
    }

    /// Appends the pad's witness slots (including each `c0·c1`) to `out`.
    pub fn append_witness(&self, out: &mut Vec<F>) {
        for layer in &self.0.layers {
            for hands in &layer.rounds {
                for h in hands {
                    out.push(h.p0);
                    out.push(h.p2);
                }
            }
            out.push(layer.claims[0]);
            out.push(layer.claims[1]);
            out.push(layer.claims[0] * layer.claims[1]);
        }
    }
}

/// The committed witness: private inputs followed by the pad slots.
pub fn committed_witness<F: Field>(private_inputs: &[F], pad: &Pad<F>) -> Vec<F> {
    let mut w = Vec::with_capacity(private_inputs.len());
    w.extend_from_slice(private_inputs);
    pad.append_witness(&mut w);
    w
}

/// One quadratic constraint per layer, `c0·c1 = (c0c1)` on the pad slots.
pub fn quadratic_constraints<F: Field, C: LayeredCircuit<F> + ?Sized>(
    circuit: &C,
) -> Vec<QuadraticConstraint> {
    let mut pi = circuit.num_inputs() - circuit.num_public_inputs().min(circuit.num_inputs());
    (0..circuit.num_layers())
        .map(|l| {
            let logw = circuit.layer_logw(l);
            let x = pi + 4 * logw;
            pi += layer_pad_len(logw);
            QuadraticConstraint {
                x,
                y: x + 1,
                z: x + 2,
            }
        })
        .collect()
}
