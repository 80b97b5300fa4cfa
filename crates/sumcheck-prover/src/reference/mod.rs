//! The prepared prover: a second, independent way to bind each layer's
//! output variables, kept for tests and conformance checks (feature
//! `reference`, off by default; no production path uses it).
//!
//! [`Prover::new`] sorts every layer's terms once into a [`PreparedLayer`]
//! (grouped by hand pair, coefficients interned), which suits proving one
//! circuit many times but holds the whole circuit expanded in memory. The
//! production prover ([`crate::prove_streaming`]) instead binds each layer
//! straight from the compact circuit when its turn comes. Both run the same
//! protocol loop, so agreement between them checks the streaming binder.

mod prepared;
pub mod textbook;

pub use prepared::PreparedLayer;

use longfellow_field::Field;
use longfellow_par::Scatter;
use longfellow_sumcheck::{
    check_shape, write_statement, LayeredCircuit, Pad, SimpleCircuit, SimpleLayer, SumcheckError,
    Term,
};
use longfellow_transcript::Transcript;

use crate::evaluate::Evaluation;
use crate::prover::{prove_layers, EvalSource, ProverOutput};
use crate::wires::{Tuning, WireArray};

/// A circuit prepared for proving (see [`PreparedLayer`]); reusable across
/// proofs.
#[derive(Clone, Debug)]
pub struct Prover<F> {
    /// The circuit as given (its header and term lists), which is what
    /// the statement and the constraints are computed from.
    circuit: SimpleCircuit<F>,
    layers: Vec<PreparedLayer<F>>,
}

impl<F: Field> Prover<F> {
    /// Validates and prepares `circuit`.
    pub fn new<C: LayeredCircuit<F> + ?Sized>(circuit: &C) -> Result<Self, SumcheckError> {
        let nl = circuit.num_layers();
        check_shape(circuit)?;
        let mut layers = Vec::with_capacity(nl);
        let mut simple = Vec::with_capacity(nl);
        for l in 0..nl {
            let mut terms: Vec<Term<F>> = Vec::new();
            circuit.layer_terms(l, &mut terms);
            simple.push(SimpleLayer {
                logw: circuit.layer_logw(l),
                nw: circuit.layer_nw(l),
                terms: terms.clone(),
            });
            layers.push(PreparedLayer::new(
                l,
                circuit.layer_logw(l),
                circuit.layer_nw(l),
                circuit.layer_nv(l),
                &mut terms,
            )?);
        }
        Ok(Self {
            circuit: SimpleCircuit {
                id: circuit.id(),
                num_outputs: circuit.num_outputs(),
                num_inputs: circuit.num_inputs(),
                num_public_inputs: circuit.num_public_inputs(),
                subfield_boundary: circuit.subfield_boundary(),
                layers: simple,
            },
            layers,
        })
    }

    /// The circuit this prover was prepared from.
    pub fn circuit(&self) -> &SimpleCircuit<F> {
        &self.circuit
    }

    /// Number of layers.
    pub fn num_layers(&self) -> usize {
        self.layers.len()
    }

    /// Computes every wire value from the circuit inputs.
    pub fn evaluate(&self, inputs: &[F]) -> Result<Evaluation<F>, SumcheckError> {
        let num_inputs = self.circuit.num_inputs;
        if inputs.len() != num_inputs {
            return Err(SumcheckError::Count {
                what: "inputs",
                expected: num_inputs,
                found: inputs.len(),
            });
        }
        let nl = self.layers.len();
        let mut wires: Vec<WireArray<F>> = vec![WireArray::Dense(Vec::new()); nl];
        let mut scatter = Scatter::new();
        let mut current = inputs.to_vec();
        for l in (0..nl).rev() {
            let mut out = Vec::new();
            self.layers[l].evaluate(l, &current, &mut out, &mut scatter)?;
            wires[l] = WireArray::compress(core::mem::replace(&mut current, out));
        }
        Ok(Evaluation {
            wires,
            outputs: current,
        })
    }

    /// Writes the statement (see [`write_statement`]) for this circuit.
    pub fn write_statement(&self, transcript: &mut Transcript, public_inputs: &[F]) {
        write_statement(transcript, &self.circuit, public_inputs);
    }

    /// Runs the padded sumcheck on `eval` (whose outputs must all be zero),
    /// continuing `transcript` after the statement.
    pub fn prove(
        &self,
        eval: &Evaluation<F>,
        pad: &Pad<F>,
        transcript: &mut Transcript,
    ) -> Result<ProverOutput<F>, SumcheckError> {
        prove_layers(
            &self.circuit,
            |l, weights, beta, quad| {
                self.layers[l].bind_g(&weights.to_dense(), beta, quad);
                Ok(())
            },
            EvalSource::Borrowed(eval),
            pad,
            transcript,
            &Tuning::default(),
            &mut |_| {},
        )
    }
}
