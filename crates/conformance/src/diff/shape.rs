//! The geometry of a one-circuit ZK proof: what the byte layout depends on.
//!
//! Keeping only the layer sizes and the Ligero parameters (not the circuit)
//! lets a diff of an mdoc proof hold two small shapes instead of two large
//! circuits.

use longfellow_field::Field;
use longfellow_ligero::{LigeroError, LigeroParams};
use longfellow_sumcheck::{witness_len, LayeredCircuit, Term};
use longfellow_zk::ZkParams;

/// Proof geometry of one circuit under given Ligero parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkShape {
    /// Sumcheck rounds per hand, per layer (output layer first).
    pub layer_logw: Vec<usize>,
    /// Ligero parameters.
    pub ligero: LigeroParams,
    /// Full-field element size in bytes.
    pub elt_bytes: usize,
    /// Subfield element size in bytes (equal to `elt_bytes` for prime fields).
    pub subfield_bytes: usize,
}

impl ZkShape {
    /// The shape of `circuit`'s proofs under `params`.
    pub fn of<F: Field, C: LayeredCircuit<F> + ?Sized>(
        circuit: &C,
        params: ZkParams,
    ) -> Result<Self, LigeroError> {
        let ligero = LigeroParams::new(
            witness_len(circuit),
            circuit.num_layers(),
            params.rateinv,
            params.nreq,
            params.block_enc,
        )?;
        Ok(Self {
            layer_logw: (0..circuit.num_layers())
                .map(|l| circuit.layer_logw(l))
                .collect(),
            ligero,
            elt_bytes: F::BYTES,
            subfield_bytes: F::SUBFIELD_BYTES,
        })
    }

    /// The shape of a bare Ligero proof (no sumcheck layers).
    pub fn ligero_only<F: Field>(ligero: LigeroParams) -> Self {
        Self {
            layer_logw: Vec::new(),
            ligero,
            elt_bytes: F::BYTES,
            subfield_bytes: F::SUBFIELD_BYTES,
        }
    }

    /// Bytes of the sumcheck part.
    pub fn sumcheck_len(&self) -> usize {
        self.layer_logw
            .iter()
            .map(|l| (4 * l + 2) * self.elt_bytes)
            .sum()
    }

    /// A reader-only view of the layer sizes (see [`LayerShape`]).
    pub(crate) fn layers(&self) -> LayerShape<'_> {
        LayerShape(&self.layer_logw)
    }
}

/// Layer sizes presented as a [`LayeredCircuit`] so that the sumcheck
/// crate's proof reader (which only asks for the number of layers and their
/// `logw`) can parse a proof without the circuit. Every other query answers
/// zero or nothing; never hand this to a prover or verifier.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerShape<'a>(&'a [usize]);

impl<F: Field> LayeredCircuit<F> for LayerShape<'_> {
    fn id(&self) -> [u8; 32] {
        [0; 32]
    }
    fn num_outputs(&self) -> usize {
        0
    }
    fn num_inputs(&self) -> usize {
        0
    }
    fn num_public_inputs(&self) -> usize {
        0
    }
    fn subfield_boundary(&self) -> usize {
        0
    }
    fn num_layers(&self) -> usize {
        self.0.len()
    }
    fn layer_logw(&self, layer: usize) -> usize {
        self.0.get(layer).copied().unwrap_or(0)
    }
    fn layer_nw(&self, _layer: usize) -> usize {
        0
    }
    fn num_terms(&self) -> usize {
        0
    }
    fn layer_terms(&self, _layer: usize, out: &mut Vec<Term<F>>) {
        out.clear();
    }
}
