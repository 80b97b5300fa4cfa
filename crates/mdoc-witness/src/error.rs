//! Errors of mdoc parsing and witness generation.

use thiserror::Error;

/// Why a DeviceResponse could not be parsed, or could not be proven with the
/// requested circuit.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MdocError {
    /// The CBOR itself is malformed or uses a form this parser refuses.
    #[error("malformed CBOR at byte {offset}: {reason}")]
    Cbor { offset: usize, reason: &'static str },
    /// The input exceeds a size limit before any parsing.
    #[error("{what} is {len} bytes, above the limit of {max}")]
    TooLarge {
        what: &'static str,
        len: usize,
        max: usize,
    },
    /// A required field is absent.
    #[error("missing {0}")]
    Missing(&'static str),
    /// A field is present with the wrong CBOR type or shape.
    #[error("{0} has an unexpected type or shape")]
    Unexpected(&'static str),
    /// The COSE protected header is not exactly `{1: -7}` (ES256), which the
    /// circuits hard-code into the signed Sig_structure.
    #[error("{0} protected header is not the ES256-only header the circuit expects")]
    UnsupportedProtectedHeader(&'static str),
    /// The tag-24 MSO must be `D8 18 59 hi lo <map>`: the circuits assume a
    /// two-byte length and measure offsets from the map's first byte.
    #[error("MSO is not encoded as tag 24 over a byte string with a two-byte length")]
    UnsupportedMsoEncoding,
    /// The Sig_structure over the MSO needs more SHA-256 blocks than the
    /// circuit version holds.
    #[error("MSO of {len} bytes needs {blocks} SHA-256 blocks; the version {version} circuit holds {max_blocks}")]
    MsoTooLarge {
        len: usize,
        blocks: usize,
        max_blocks: usize,
        version: u32,
    },
    /// An MSO field offset does not fit the circuit's 12-bit index.
    #[error("{what} sits at MSO offset {offset}, beyond the circuit's 12-bit index")]
    OffsetTooLarge { what: &'static str, offset: usize },
    /// An IssuerSignedItemBytes does not fit the two SHA-256 blocks the
    /// circuit hashes.
    #[error("IssuerSignedItemBytes of attribute `{id}` is {len} bytes; at most 119 fit two SHA-256 blocks")]
    AttributeTooLong { id: String, len: usize },
    /// Version 5/6 circuits read `elementIdentifier … elementValue` as one
    /// contiguous string, so elementValue must directly follow
    /// elementIdentifier in the IssuerSignedItem.
    #[error("attribute `{id}`: elementValue does not directly follow elementIdentifier, which circuit versions 5 and 6 require")]
    AttributeOrderUnsupported { id: String },
    /// The request cannot be encoded as the circuit's public inputs (for
    /// example an identifier of 24 bytes or more with a version 7 circuit);
    /// caught before any proving work.
    #[error("request not provable with this circuit: {0}")]
    RequestNotEncodable(#[from] crate::public::PublicInputError),
    /// A requested attribute is not in the DeviceResponse.
    #[error("attribute `{0}` not found in the DeviceResponse")]
    AttributeNotFound(String),
    /// The attribute is there, but under another namespace than requested.
    /// The version 5 to 7 circuits do not bind the namespace (Google's
    /// prover proves such a request); this prover refuses it, so that a
    /// proof never claims a namespace the credential does not state.
    #[error(
        "attribute `{id}` is not in namespace `{requested}`: the DeviceResponse holds it under \
         `{found}` (the version 5 to 7 circuits do not bind the namespace, but this prover only \
         proves what the credential states: request it under `{found}`)"
    )]
    AttributeInOtherNamespace {
        /// elementIdentifier.
        id: String,
        /// The namespace requested.
        requested: String,
        /// A namespace the DeviceResponse holds it in.
        found: String,
    },
    /// The request's docType differs from the document's (the device signs
    /// the request's, so the device signature could not verify).
    #[error("requested docType `{requested}` differs from the document's `{found}`")]
    DocTypeMismatch { requested: String, found: String },
    /// The requested value differs from the one the mdoc holds.
    #[error("attribute `{0}`: requested value differs from the mdoc's elementValue")]
    AttributeValueMismatch(String),
    /// The MSO is valid CBOR but not in the exact form the circuit's fixed
    /// byte patterns expect.
    #[error("MSO layout not provable: {0}")]
    MsoLayoutUnsupported(&'static str),
    /// `now` lies outside [validFrom, validUntil].
    #[error("credential not valid at {now} (valid from {valid_from} until {valid_until})")]
    NotValidAt {
        now: String,
        valid_from: String,
        valid_until: String,
    },
    /// The MSO's digest for an attribute is not SHA-256 of its
    /// IssuerSignedItemBytes (or not a 32-byte string).
    #[error("attribute `{0}`: MSO digest does not match the IssuerSignedItemBytes")]
    DigestMismatch(String),
    /// The attribute's digest is not in the MSO's valueDigests.
    #[error("attribute `{0}`: no digest with its digestID in the MSO")]
    DigestMissing(String),
    /// A requested attribute is malformed (sizes and namespaces per the
    /// reference: namespace ≤ 64 bytes, identifier ≤ 32, value ≤ 64).
    #[error("invalid request: {0}")]
    InvalidRequest(&'static str),
    /// The request names another number of attributes than the circuit
    /// proves (each circuit proves exactly its own count).
    #[error(
        "invalid request: it names {requested} attribute(s) but this circuit proves exactly \
         {circuit}; use the {requested}-attribute circuit of the same version"
    )]
    AttributeCount {
        /// Attributes in the request.
        requested: usize,
        /// Attributes the circuit proves.
        circuit: usize,
    },
    /// The request is invalid whatever the credential: issuer key not a
    /// canonical P-256 point, `now` not a real time, a field over its bound.
    #[error("invalid request: {0}")]
    Request(#[from] longfellow_mdoc::RequestError),
    /// The circuit set (version, number of attributes) is not supported.
    #[error("ZkSpec version {version} with {num_attributes} attributes is not supported")]
    UnsupportedSpec { version: u32, num_attributes: usize },
    /// A public key is not a valid P-256 point.
    #[error("{0} public key is not a valid P-256 point")]
    InvalidPublicKey(&'static str),
    /// A signature is not a valid (r, s) pair.
    #[error("{0} signature is malformed")]
    InvalidSignature(&'static str),
    /// ECDSA verification failed.
    #[error("{0} signature does not verify")]
    SignatureFailure(&'static str),
    /// The signature verifies, but not in the form the circuit checks (R.x ≠ r
    /// as integers, or a point sum hits the identity).
    #[error("{0} signature verifies but the circuit cannot prove it")]
    SignatureNotProvable(&'static str),
}

impl MdocError {
    /// Whether the caller's statement is at fault (the request's shape, its
    /// time, its attribute count, the issuer key it names) rather than the
    /// credential: bindings and ABIs report the first as an argument error
    /// and the second as a refusal to prove.
    pub fn is_in_the_request(&self) -> bool {
        matches!(
            self,
            MdocError::Request(_)
                | MdocError::InvalidRequest(_)
                | MdocError::AttributeCount { .. }
                | MdocError::InvalidPublicKey("issuer")
        )
    }

    pub(crate) fn cbor(offset: usize, reason: &'static str) -> Self {
        MdocError::Cbor { offset, reason }
    }
}
