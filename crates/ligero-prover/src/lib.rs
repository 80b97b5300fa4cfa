//! Ligero's prover for Longfellow: lay the witness out in a tableau,
//! commit to its Reed–Solomon-extended columns, and answer the verifier's
//! challenges ([`LigeroProver`]).
//!
//! Every rule the verifier checks (statement checks, challenge schedule,
//! combined linear functional) is called from `longfellow_ligero::protocol`
//! rather than restated here, so the two sides cannot drift; see
//! `longfellow-ligero` for the flow, the transcript order and the proof
//! encoding.
#![forbid(unsafe_code)]

mod prover;

pub use prover::LigeroProver;
