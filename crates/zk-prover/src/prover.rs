//! The one-circuit prover.

use longfellow_circuit::Circuit;
use longfellow_field::Field;
use longfellow_ligero::{LigeroCommitment, LigeroParams, QuadraticConstraint};
use longfellow_ligero_prover::LigeroProver;
use longfellow_par as par;
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{
    check_shape, committed_witness, constraints_with_bound_quads, quadratic_constraints,
    write_statement, Pad,
};
use longfellow_sumcheck_prover::sample_pad;
use longfellow_sumcheck_prover::{
    evaluate_streaming_observed, prove_streaming_observed, LayerStep,
};
use longfellow_transcript::Transcript;
use rand_core::RngCore;

use longfellow_zk::{ZkError, ZkParams, ZkProof};

/// A step of [`ZkProver::prove_observed`], reported as it begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProvePhase {
    /// Statement, circuit evaluation and the padded sumcheck.
    Sumcheck,
    /// Deriving the constraints from the sumcheck transcript and the
    /// Ligero proof.
    Ligero,
    /// Within [`ProvePhase::Sumcheck`]: a step on one layer (or the end of
    /// the evaluation), for timing the layers. The statement is hashed
    /// beside the evaluation on several threads, and on one between
    /// [`LayerStep::Evaluated`] and the first layer's binding.
    Layer(LayerStep),
}

/// A circuit checked for proving with fixed Ligero parameters.
///
/// Holds nothing per term: each proof streams the terms from the compact
/// circuit, preparing one layer at a time, which keeps the prover's peak
/// memory near the size of its largest layer rather than of all layers.
#[derive(Debug)]
pub struct ZkProver<'a, F> {
    circuit: &'a Circuit<F>,
    params: LigeroParams,
    quad: Vec<QuadraticConstraint>,
}

/// The committed state between [`ZkProver::commit`] and [`ZkProver::prove`].
#[derive(Debug)]
pub struct ZkCommitment<F> {
    /// The commitment (its root goes into the transcript).
    pub commitment: LigeroCommitment,
    pad: Pad<F>,
    ligero: LigeroProver<F>,
}

impl<'a, F: RsField> ZkProver<'a, F> {
    /// Validates `circuit`'s shape.
    pub fn new(circuit: &'a Circuit<F>, params: ZkParams) -> Result<Self, ZkError> {
        check_shape(circuit)?;
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

    /// Draws the pad, then commits to private inputs and pad (the pad is
    /// drawn first, then Ligero's randomness, from the same generator).
    /// The caller writes the returned root into the transcript.
    pub fn commit<R: RngCore + ?Sized>(
        &self,
        inputs: &[F],
        rng: &mut R,
    ) -> Result<ZkCommitment<F>, ZkError> {
        let c = self.circuit;
        if inputs.len() != c.num_inputs() {
            return Err(ZkError::Count {
                what: "inputs",
                expected: c.num_inputs(),
                found: inputs.len(),
            });
        }
        let pad = sample_pad(c, rng);
        let witness = committed_witness(&inputs[c.num_public_inputs()..], &pad);
        let (ligero, commitment) = LigeroProver::commit(
            &self.params,
            &witness,
            witness_subfield_boundary(c),
            &self.quad,
            rng,
        )?;
        Ok(ZkCommitment {
            commitment,
            pad,
            ligero,
        })
    }

    /// Proves, continuing `transcript` (which already holds the root):
    /// statement, padded sumcheck (on a copy of the transcript), the
    /// verifier's constraint derivation (on the transcript itself, which
    /// replays the same messages), then Ligero.
    pub fn prove(
        &self,
        commit: ZkCommitment<F>,
        inputs: &[F],
        transcript: &mut Transcript,
    ) -> Result<ZkProof<F>, ZkError> {
        self.prove_observed(commit, inputs, transcript, &mut |_| {})
    }

    /// [`prove`](Self::prove), calling `on_phase` as each step begins so a
    /// caller can time the steps; the proof is the same bytes.
    pub fn prove_observed(
        &self,
        commit: ZkCommitment<F>,
        inputs: &[F],
        transcript: &mut Transcript,
        on_phase: &mut (dyn FnMut(ProvePhase) + Send),
    ) -> Result<ZkProof<F>, ZkError> {
        self.prove_owned_observed(commit, inputs.to_vec(), transcript, on_phase)
    }

    /// [`prove_observed`](Self::prove_observed) taking the inputs by value:
    /// they become the evaluation's input layer (no copy), and only the
    /// public ones outlive the evaluation.
    pub fn prove_owned_observed(
        &self,
        commit: ZkCommitment<F>,
        inputs: Vec<F>,
        transcript: &mut Transcript,
        on_phase: &mut (dyn FnMut(ProvePhase) + Send),
    ) -> Result<ZkProof<F>, ZkError> {
        on_phase(ProvePhase::Sumcheck);
        let c = self.circuit;
        let npub = c.num_public_inputs();
        if inputs.len() != c.num_inputs() {
            return Err(ZkError::Count {
                what: "inputs",
                expected: c.num_inputs(),
                found: inputs.len(),
            });
        }
        let public = inputs[..npub].to_vec();
        // The statement hashes one zero byte per term (7.8 MB for the mdoc
        // hash circuit, ≈ 4 ms of SHA-256 that no other step can share),
        // and evaluation does not read the transcript: a second thread
        // hashes while the first evaluates. Evaluation stays on the
        // calling thread, whose malloc arena then keeps the wires.
        let mut on_step = |s| on_phase(ProvePhase::Layer(s));
        let (eval, ()) = par::join(
            || evaluate_streaming_observed(c, inputs, &mut on_step),
            || write_statement(transcript, c, &public),
        );
        let eval = eval?;
        let mut ts = transcript.clone();
        let out = prove_streaming_observed(c, eval, &commit.pad, &mut ts, &mut on_step)?;
        on_phase(ProvePhase::Ligero);
        let cons =
            constraints_with_bound_quads(c, &public, &out.proof, &out.bound_quads, transcript)?;
        let ligero = commit
            .ligero
            .prove(transcript, &cons.linear, &cons.b, &self.quad)?;
        Ok(ZkProof {
            commitment: commit.commitment,
            sumcheck: out.proof,
            ligero,
        })
    }
}

/// Proves `circuit` on `inputs` in a fresh transcript initialised with
/// `label`, drawing all prover randomness from `rng`.
pub fn prove<F: RsField, R: RngCore + ?Sized>(
    circuit: &Circuit<F>,
    params: ZkParams,
    inputs: &[F],
    rng: &mut R,
    label: &[u8],
) -> Result<ZkProof<F>, ZkError> {
    let prover = ZkProver::new(circuit, params)?;
    let commit = prover.commit(inputs, rng)?;
    let mut t = Transcript::new(label);
    commit.commitment.absorb(&mut t);
    prover.prove(commit, inputs, &mut t)
}

/// The circuit's subfield boundary rebased to the committed witness
/// (which starts at the first private input).
fn witness_subfield_boundary<F: Field>(circuit: &Circuit<F>) -> usize {
    circuit
        .subfield_boundary()
        .saturating_sub(circuit.num_public_inputs())
}
