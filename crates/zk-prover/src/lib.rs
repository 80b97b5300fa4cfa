//! The prover of Longfellow's one-circuit zero-knowledge argument.
//!
//! [`ZkProver`] commits (Ligero) to the private inputs followed by a random
//! sumcheck pad, runs the padded sumcheck on the circuit evaluation, and
//! proves with Ligero that the committed values satisfy the linear and
//! quadratic constraints the sumcheck verifier's checks induce on them.
//! The proof format, parameters and verifier are `longfellow-zk`'s.
//!
//! Several circuits can share one transcript: commit all of them first,
//! then prove each in turn ([`ZkProver::commit`] / [`ZkProver::prove`]
//! expose the two steps).
#![forbid(unsafe_code)]

mod prover;

pub use longfellow_sumcheck_prover::LayerStep;
pub use prover::{prove, ProvePhase, ZkCommitment, ZkProver};
