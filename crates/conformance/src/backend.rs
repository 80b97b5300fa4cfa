//! The two-circuit mdoc prover and verifier under test, behind a trait.
//!
//! The conformance runner does not depend on the mdoc prover crate: the
//! command-line tool plugs its implementation in through [`MdocBackend`], and
//! [`crate::PeerCli`] implements the same trait by running another
//! implementation's command line.

use std::fmt;
use std::path::Path;

/// One disclosed attribute, as in the contract's `REQ.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Namespace, e.g. `org.iso.18013.5.1`.
    pub namespace: String,
    /// Element identifier, e.g. `age_over_18`.
    pub id: String,
    /// CBOR encoding of the element value.
    pub value_cbor: Vec<u8>,
}

/// Everything but the mdoc (and the proof): the contract's `REQ.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocRequest {
    /// Issuer key x (0x-hex big-endian, or decimal).
    pub pkx: String,
    /// Issuer key y.
    pub pky: String,
    /// SessionTranscript bytes.
    pub transcript: Vec<u8>,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub now: String,
    /// docType, e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
    /// Attributes to disclose, in circuit order.
    pub attributes: Vec<Attribute>,
}

impl MdocRequest {
    /// The `REQ.json` object of the command-line contract.
    pub fn to_json(&self) -> serde_json::Value {
        let attrs: Vec<_> = self
            .attributes
            .iter()
            .map(|a| {
                serde_json::json!({
                    "namespace": a.namespace,
                    "id": a.id,
                    "value_cbor_hex": hex::encode(&a.value_cbor),
                })
            })
            .collect();
        serde_json::json!({
            "pkx": self.pkx,
            "pky": self.pky,
            "transcript_hex": hex::encode(&self.transcript),
            "now": self.now,
            "doc_type": self.doc_type,
            "attributes": attrs,
        })
    }
}

/// Why a backend call did not succeed.
#[derive(Clone, Debug, PartialEq)]
pub enum BackendError {
    /// The prover refused the request (contract exit status 1).
    Refused(String),
    /// The verifier rejected the proof (contract exit status 1).
    Rejected(String),
    /// Bad usage or unreadable input (exit status 2).
    Usage(String),
    /// A crash, a signal, an unexpected exit status or missing output.
    Crashed(String),
    /// The command ran longer than allowed (seconds).
    TimedOut(f64),
    /// The backend cannot do this at all (e.g. no prover linked).
    Unavailable(String),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Refused(m) => write!(f, "refused: {m}"),
            Self::Rejected(m) => write!(f, "rejected: {m}"),
            Self::Usage(m) => write!(f, "usage error: {m}"),
            Self::Crashed(m) => write!(f, "crashed: {m}"),
            Self::TimedOut(s) => write!(f, "timed out after {s:.0} s"),
            Self::Unavailable(m) => write!(f, "unavailable: {m}"),
        }
    }
}

impl std::error::Error for BackendError {}

/// A two-circuit mdoc prover and verifier.
///
/// [`crate::Linked`] implements it over the in-process prover and
/// verifier; [`crate::PeerCli`] over another implementation's command line.
///
/// `circuit` is a circuit-pair file in any published form (extensionless
/// zstd LFC1 pair, `.lfa1`, `.lfa2`); the implementation identifies the
/// ZkSpec from it. `seed`: the reference's deterministic generator
/// (`s = s·6364136223846793005 + 1`, byte = `s >> 56`) instead of OS
/// randomness; with seed 42 and a stored proof's inputs the output must
/// equal the stored proof byte for byte.
pub trait MdocBackend: Send + Sync {
    /// Short name for reports ("longfellow-rs", "peer `cmd`").
    fn name(&self) -> String;

    /// Whether [`Self::prove`] can succeed at all; a verify-only backend
    /// answers false so that proving checks are skipped up front.
    fn can_prove(&self) -> bool {
        true
    }

    /// Proves; returns the mdoc proof bytes.
    fn prove(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        mdoc: &[u8],
        seed: Option<u64>,
    ) -> Result<Vec<u8>, BackendError>;

    /// Verifies; `Ok(())` means the proof is accepted.
    fn verify(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        proof: &[u8],
    ) -> Result<(), BackendError>;
}
