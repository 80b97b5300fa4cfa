//! Longfellow's zero-knowledge argument for one circuit: the verifier
//! ([`ZkVerifier`], [`verify`]), the proof format ([`ZkProof`]) and the
//! Ligero parameters ([`ZkParams`]). The prover (`ZkProver`, `prove`) is in
//! `longfellow-zk-prover`, which depends on this crate.
//!
//! The prover commits (Ligero) to the private inputs followed by a random
//! sumcheck pad, runs the padded sumcheck on the circuit evaluation, and
//! proves with Ligero that the committed values satisfy the linear and
//! quadratic constraints the sumcheck verifier's checks induce on them.
//!
//! Proof bytes (G `lib/zk/zk_proof.h`): `root (32) ‖ sumcheck ‖ Ligero`.
//!
//! Transcript order, per circuit: the commitment root (written when the
//! commitment is made or received), then the statement (circuit ID, public
//! inputs, a zero element, one zero byte per term), the sumcheck messages,
//! the input-binding challenge, and Ligero's messages. Several circuits can
//! share one transcript: commit all of them first, then prove each in turn
//! (`ZkProver::commit` / `ZkProver::prove` expose the two steps).
#![forbid(unsafe_code)]

mod error;
mod proof;
mod verifier;

pub use error::ZkError;
pub use proof::ZkProof;
pub use verifier::{verify, ZkVerifier};

use longfellow_circuit::Circuit;
use longfellow_field::Field;
use longfellow_ligero::LigeroParams;
use longfellow_sumcheck::{witness_len, LayeredCircuit};

/// Ligero parameters chosen by the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZkParams {
    /// Inverse code rate.
    pub rateinv: usize,
    /// Number of opened columns.
    pub nreq: usize,
    /// Encoded row length.
    pub block_enc: usize,
}

impl ZkParams {
    /// The Ligero parameters for `circuit`: witness = private inputs + pad,
    /// one quadratic constraint per layer.
    pub fn ligero<F: Field>(&self, circuit: &Circuit<F>) -> Result<LigeroParams, ZkError> {
        Ok(LigeroParams::new(
            witness_len(circuit),
            circuit.num_layers(),
            self.rateinv,
            self.nreq,
            self.block_enc,
        )?)
    }
}
