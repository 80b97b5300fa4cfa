//! Drawing the one-time pad (its layout is `longfellow_sumcheck::Pad`'s).

use longfellow_field::Field;
use longfellow_random::random_element;
use longfellow_sumcheck::{LayerProof, LayeredCircuit, Pad, RoundPoly, SumcheckProof};
use rand_core::RngCore;

/// Draws a pad for `circuit` from `rng`, in witness order: per layer, per
/// round, hand 0's `(p0, p2)` then hand 1's, then the layer's two claims
/// (their product is computed, not drawn). The order is what makes a proof
/// reproducible from a seeded generator.
pub fn sample_pad<F: Field, C: LayeredCircuit<F> + ?Sized, R: RngCore + ?Sized>(
    circuit: &C,
    rng: &mut R,
) -> Pad<F> {
    let layers = (0..circuit.num_layers())
        .map(|l| {
            let rounds = (0..circuit.layer_logw(l))
                .map(|_| {
                    let mut hands = [RoundPoly::default(); 2];
                    for h in &mut hands {
                        h.p0 = random_element(rng);
                        h.p2 = random_element(rng);
                    }
                    hands
                })
                .collect();
            let c0 = random_element(rng);
            let c1 = random_element(rng);
            LayerProof {
                rounds,
                claims: [c0, c1],
            }
        })
        .collect();
    Pad(SumcheckProof { layers })
}
