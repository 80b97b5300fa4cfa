//! The padded sumcheck proof and its wire encoding.
//!
//! Encoding (G `lib/zk/zk_proof.h`): per layer, per round
//! `hand0.p0 ‖ hand1.p0 ‖ hand0.p2 ‖ hand1.p2`, then the two padded claims
//! `c0′ ‖ c1′`; every element in its full canonical encoding. The layout
//! is fixed by the circuit, so nothing carries a length.

use longfellow_field::Field;

use crate::circuit::LayeredCircuit;
use crate::error::SumcheckError;
use crate::poly::RoundPoly;

/// One layer of a padded proof (or of a pad: same shape).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerProof<F> {
    /// Per round, the polynomials of hand 0 and hand 1.
    pub rounds: Vec<[RoundPoly<F>; 2]>,
    /// The two claims on the layer's input wires, `[W(R0), W(R1)]`.
    pub claims: [F; 2],
}

/// A padded sumcheck proof: one [`LayerProof`] per circuit layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumcheckProof<F> {
    /// Layers, output layer first.
    pub layers: Vec<LayerProof<F>>,
}

impl<F: Field> SumcheckProof<F> {
    /// All-zero proof with the circuit's shape.
    pub fn zero<C: LayeredCircuit<F> + ?Sized>(circuit: &C) -> Self {
        Self {
            layers: (0..circuit.num_layers())
                .map(|l| LayerProof {
                    rounds: vec![[RoundPoly::default(); 2]; circuit.layer_logw(l)],
                    claims: [F::ZERO; 2],
                })
                .collect(),
        }
    }

    /// Whether the proof has the circuit's shape.
    pub fn matches<C: LayeredCircuit<F> + ?Sized>(&self, circuit: &C) -> bool {
        self.layers.len() == circuit.num_layers()
            && self
                .layers
                .iter()
                .enumerate()
                .all(|(l, lp)| lp.rounds.len() == circuit.layer_logw(l))
    }

    /// Encoded length in bytes.
    pub fn encoded_len(&self) -> usize {
        self.layers
            .iter()
            .map(|l| (4 * l.rounds.len() + 2) * F::BYTES)
            .sum()
    }

    /// Appends the encoding to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.reserve(self.encoded_len());
        let mut put = |e: &F| out.extend_from_slice(e.to_repr().as_ref());
        for layer in &self.layers {
            for [h0, h1] in &layer.rounds {
                put(&h0.p0);
                put(&h1.p0);
                put(&h0.p2);
                put(&h1.p2);
            }
            put(&layer.claims[0]);
            put(&layer.claims[1]);
        }
    }

    /// Decodes a proof for `circuit` from the front of `bytes`, advancing it.
    ///
    /// The input is untrusted: each layer's byte count (fixed by the
    /// circuit) is checked before anything is allocated for it, and every
    /// element must be canonical.
    pub fn read<C: LayeredCircuit<F> + ?Sized>(
        circuit: &C,
        bytes: &mut &[u8],
    ) -> Result<Self, SumcheckError> {
        let nl = circuit.num_layers();
        let mut layers = Vec::with_capacity(nl);
        for l in 0..nl {
            let logw = circuit.layer_logw(l);
            let n_elts = 4 * logw + 2;
            let needed = n_elts * F::BYTES;
            if bytes.len() < needed {
                return Err(SumcheckError::Truncated {
                    layer: l,
                    needed,
                    available: bytes.len(),
                });
            }
            let (mine, rest) = bytes.split_at(needed);
            let mut elts = Vec::with_capacity(n_elts);
            for (index, chunk) in mine.chunks_exact(F::BYTES).enumerate() {
                let e =
                    F::from_bytes(chunk).ok_or(SumcheckError::NonCanonical { layer: l, index })?;
                elts.push(e);
            }
            let (poly, claims) = elts.split_at(4 * logw);
            let rounds = poly
                .chunks_exact(4)
                .map(|c| {
                    [
                        RoundPoly { p0: c[0], p2: c[2] },
                        RoundPoly { p0: c[1], p2: c[3] },
                    ]
                })
                .collect();
            layers.push(LayerProof {
                rounds,
                claims: [claims[0], claims[1]],
            });
            *bytes = rest;
        }
        Ok(Self { layers })
    }
}
