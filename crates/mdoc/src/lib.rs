//! Longfellow's mdoc age proof, relying-party side: everything needed to
//! check a proof, and nothing that parses a credential.
//!
//! - [`spec`]: the ZkSpec table (versions 5–7): circuit hashes, Ligero
//!   parameters, input layouts.
//! - [`MdocRequest`]: issuer key, SessionTranscript, time, docType and the
//!   disclosed attributes.
//! - [`public`]: the public inputs of both circuits, computed from the
//!   request (shared with the prover, so both encode a request alike).
//! - [`MdocProof`]: `6 MAC tags ‖ hash proof ‖ signature proof`.
//! - [`Verifier`]: `Verifier::new(&pair)?.verify(&request, &proof_bytes)`,
//!   with a typed [`VerifyError`].
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let (request, proof_bytes): (longfellow_mdoc::MdocRequest, Vec<u8>) = todo!();
//! // Load once (any published form: `<hash>`, `.lfa1`, `.lfa2`) ...
//! let pair = longfellow_circuit::load_pair(&std::fs::read("circuits/8d07….lfa2")?)?;
//! let verifier = longfellow_mdoc::Verifier::new(&pair)?;
//! // ... verify many.
//! verifier.verify(&request, &proof_bytes)?;
//! # Ok(()) }
//! ```
//!
//! The prover lives in `longfellow-mdoc-prover`, which adds credential
//! parsing (`longfellow-mdoc-witness`) on top of this crate.
//!
//! # The MAC link
//! Both circuits see the credential hash e and the device key; they are
//! tied together by six MAC tags (a_v + a_p)·m over the 128-bit halves m of
//! those values, a_p committed by the prover and a_v drawn from the
//! transcript after both commitments. The tags and a_v are public inputs
//! of both circuits.
#![forbid(unsafe_code)]

pub mod json;
pub mod proof;
pub mod proof_shape;
pub mod public;
mod request;
pub mod spec;
mod time;
mod verifier;

pub use proof::{CircuitKind, MdocProof, ProofFormatError, MAC_BYTES};
pub use public::{PublicInputError, RequestedAttribute};
pub use request::{
    check_issuer_key, Coordinate, MdocRequest, RequestError, MAX_ATTRIBUTES, MAX_DOC_TYPE_BYTES,
    MAX_TRANSCRIPT_BYTES,
};
pub use spec::{ZkSpec, ZkSpecInfo};
pub use time::{check_time, TimeError};
pub use verifier::{
    draw_verifier_key, hash_public_elements, sig_public_elements, FailedCheck, Verifier,
    VerifyError,
};
