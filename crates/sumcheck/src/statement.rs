//! The Fiat–Shamir messages that frame the sumcheck.

use longfellow_field::Field;
use longfellow_transcript::Transcript;

use crate::circuit::LayeredCircuit;

/// Length of the challenge arrays the reference draws at the start of the
/// sumcheck (its fixed binding capacity). The first array (copy variables,
/// unused here) is discarded; the output bindings are a prefix of the
/// second.
pub const BINDING_CAPACITY: usize = 40;

/// Writes the statement: circuit ID, each public input as a single
/// element, one zero element standing for the outputs, and one zero byte
/// per circuit term.
pub fn write_statement<F: Field, C: LayeredCircuit<F> + ?Sized>(
    transcript: &mut Transcript,
    circuit: &C,
    public_inputs: &[F],
) {
    transcript.write_bytes(&circuit.id());
    for x in public_inputs {
        transcript.write_element(x);
    }
    transcript.write_element(&F::ZERO);
    transcript.write_zeros(circuit.num_terms());
}

/// Starts a circuit's sumcheck, on both sides: draws the discarded copy
/// bindings and the output bindings; returns the
/// first `logv` output bindings.
pub fn begin_circuit<F: Field>(transcript: &mut Transcript, logv: usize) -> Vec<F> {
    let _copies: Vec<F> = transcript.challenge_elements(BINDING_CAPACITY);
    let mut g: Vec<F> = transcript.challenge_elements(BINDING_CAPACITY);
    g.truncate(logv);
    g
}
