//! What a relying party asks for, and what both sides must agree on.

use crate::public::RequestedAttribute;

/// A presentation request: the statement the proof is about. The prover
/// additionally holds the credential; the verifier has only this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocRequest {
    /// Issuer public key (x, y), big-endian affine coordinates.
    pub issuer_pk: ([u8; 32], [u8; 32]),
    /// The SessionTranscript bytes (CBOR); also the Fiat–Shamir init.
    pub transcript: Vec<u8>,
    /// Current time, `YYYY-MM-DDTHH:MM:SSZ`.
    pub now: [u8; 20],
    /// The docType the device signed over, e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
    /// The attributes to disclose, in circuit order.
    pub attributes: Vec<RequestedAttribute>,
}
