//! The one-circuit verifier.

use longfellow_circuit::Circuit;
use longfellow_ligero::{LigeroParams, QuadraticConstraint};
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{constraints, quadratic_constraints, write_statement};
use longfellow_transcript::Transcript;

use crate::error::ZkError;
use crate::proof::ZkProof;
use crate::ZkParams;

/// A circuit prepared for verification with fixed Ligero parameters.
#[derive(Debug)]
pub struct ZkVerifier<'a, F> {
    circuit: &'a Circuit<F>,
    params: LigeroParams,
    quad: Vec<QuadraticConstraint>,
}

impl<'a, F: RsField> ZkVerifier<'a, F> {
    /// Prepares verification of proofs for `circuit`.
    pub fn new(circuit: &'a Circuit<F>, params: ZkParams) -> Result<Self, ZkError> {
        Ok(Self {
            circuit,
            params: params.ligero(circuit)?,
            quad: quadratic_constraints(circuit),
        })
    }

    /// The Ligero parameters in use.
    pub fn ligero_params(&self) -> &LigeroParams {
        &self.params
    }

    /// Decodes a proof for this circuit.
    pub fn read_proof(&self, bytes: &[u8]) -> Result<ZkProof<F>, ZkError> {
        ZkProof::from_bytes(self.circuit, &self.params, bytes)
    }

    /// Verifies `proof`, continuing `transcript`, which must already hold
    /// the commitment root (see [`longfellow_ligero::LigeroCommitment::absorb`]).
    pub fn verify(
        &self,
        proof: &ZkProof<F>,
        public_inputs: &[F],
        transcript: &mut Transcript,
    ) -> Result<(), ZkError> {
        let c = self.circuit;
        let npub = c.num_public_inputs();
        if public_inputs.len() != npub {
            return Err(ZkError::Count {
                what: "public inputs",
                expected: npub,
                found: public_inputs.len(),
            });
        }
        write_statement(transcript, c, public_inputs);
        let cons = constraints(c, public_inputs, &proof.sumcheck, transcript)?;
        longfellow_ligero::verify(
            &self.params,
            &proof.commitment,
            &proof.ligero,
            transcript,
            &cons.linear,
            &cons.b,
            &self.quad,
        )?;
        Ok(())
    }
}

/// Verifies serialized `proof` for `circuit` in a fresh transcript
/// initialised with `label`.
pub fn verify<F: RsField>(
    circuit: &Circuit<F>,
    params: ZkParams,
    public_inputs: &[F],
    proof: &[u8],
    label: &[u8],
) -> Result<(), ZkError> {
    let v = ZkVerifier::new(circuit, params)?;
    let proof = v.read_proof(proof)?;
    let mut t = Transcript::new(label);
    proof.commitment.absorb(&mut t);
    v.verify(&proof, public_inputs, &mut t)
}
