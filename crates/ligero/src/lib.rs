//! Ligero's verifier for Longfellow: check a proof that a committed witness
//! vector satisfies linear constraints `A·W = b` and quadratic constraints
//! `W[x]·W[y] = W[z]`, byte-for-byte compatible with Google's longfellow-zk.
//! The prover (`LigeroProver`) lives in `longfellow-ligero-prover`, which
//! depends on this crate; nothing here draws randomness.
//!
//! # Flow and transcript ownership
//!
//! ```text
//! prover                                   verifier
//! (prover, com) = LigeroProver::commit(..)
//! com.absorb(&mut ts)                      com.absorb(&mut ts)
//! … outer protocol (sumcheck) on ts …      … same …
//! proof = prover.prove(&mut ts, ..)        verify(.., &com, &proof, &mut ts, ..)
//! ```
//!
//! The caller writes the commitment root into the transcript (the reference
//! does it right after committing); `prove`/`verify` then write the
//! statement hash ([`STATEMENT_HASH`]), draw the challenges, absorb the
//! responses and choose the opened columns. [`LigeroProof::write`] encodes
//! everything after the root, as it appears at the end of a Longfellow proof.
//!
//! # Conventions
//!
//! * Linear constraints read `Σ_terms k·W[w] = b[c]` (the C++ reference's
//!   `A·W = b`; Google's Rust port writes `A·W + b = 0`, which only negates
//!   `b`).
//! * `subfield_boundary`: witnesses `W[0..boundary)` are declared to lie in
//!   the subfield (GF(2^16) inside GF(2^128)); a witness row entirely below
//!   the boundary gets subfield blinding, which makes its opened values
//!   subfield elements and shortens the proof. For Longfellow's zk layer the
//!   boundary is the circuit's `subfield_boundary − npub`. The proof
//!   encoding does not look at the boundary: opened values are written in
//!   full-field or subfield runs according to their actual value.
//!
//! # Compatibility notes
//!
//! * Byte-exact with the C++ prover on Google's `ligero_test_vector.bin`,
//!   the Ligero parts of the specification's `sha256`/`ecdsa2` proofs and
//!   ISRG's one-circuit proofs (see `tests/`).
//! * [`LigeroProof::read`] accepts exactly the canonical encoding: no empty
//!   run except the first (or after a run of [`MAX_RUN`]), no subfield value
//!   inside a full-field run, canonical elements, and the reference reader's
//!   digest-count range `nreq ≤ count ≤ nreq·pathlen`. The C++ reader is
//!   laxer about runs; no honest prover produces the difference.
//! * The verifier evaluates the linear-test coefficient rows only at the
//!   opened columns (Lagrange basis values) instead of Reed–Solomon
//!   encoding each row as the reference does; exact arithmetic, same
//!   accept/reject decision.

#![forbid(unsafe_code)]

mod challenges;
mod constraints;
mod error;
mod lagrange;
mod params;
mod proof;
mod verifier;

pub use challenges::STATEMENT_HASH;
pub use error::LigeroError;
pub use longfellow_constraints::{LinearTerm, QuadraticConstraint};
pub use params::{LigeroParams, IDOT, ILDT, IQUAD, IW, MAX_SIZE};
pub use proof::{LigeroProof, MAX_RUN};
pub use verifier::{verify, verify_with_statement};

/// The steps prover and verifier take identically: statement checks, the
/// challenge schedule and the combined linear functional. Public so that
/// `longfellow-ligero-prover` follows the verifier's rules by calling them,
/// rather than by keeping a copy that could drift.
pub mod protocol {
    pub use crate::challenges::{absorb_responses_and_choose, draw_challenges, Challenges};
    pub use crate::constraints::{check_linear, check_quadratic, inner_product_vector};
}

use longfellow_transcript::Transcript;

/// The Merkle root over the tableau's committed columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LigeroCommitment {
    /// Root digest.
    pub root: [u8; 32],
}

impl LigeroCommitment {
    /// Writes the root into the transcript as a bytes message, as the
    /// reference's prover does at commit time and its verifier on receipt.
    pub fn absorb(&self, transcript: &mut Transcript) {
        transcript.write_bytes(&self.root);
    }
}
