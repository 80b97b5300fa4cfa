//! The C types of the ABI, laid out as `mdoc_zk.h` declares them.
//!
//! Every struct is `#[repr(C)]` and every error enum `#[repr(C)]` with
//! explicit discriminants, so the header (written by hand) and these
//! declarations can be compared field by field; `tests/header.rs` compiles
//! the header and checks sizes, offsets and values against this file.

use std::ffi::c_char;

/// Bytes of [`RequestedAttribute::namespace_id`].
pub const NAMESPACE_CAPACITY: usize = 64;
/// Bytes of [`RequestedAttribute::id`].
pub const ID_CAPACITY: usize = 32;
/// Bytes of [`RequestedAttribute::cbor_value`].
pub const VALUE_CAPACITY: usize = 64;
/// Characters of the hex circuit hash, without its terminating NUL.
pub const CIRCUIT_HASH_HEX_LEN: usize = 64;

/// One claim the proof discloses: namespace, elementIdentifier and the CBOR
/// encoding of the elementValue, each in a fixed buffer with its length.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RequestedAttribute {
    /// Namespace bytes (the first `namespace_len` count).
    pub namespace_id: [u8; NAMESPACE_CAPACITY],
    /// elementIdentifier bytes (the first `id_len` count).
    pub id: [u8; ID_CAPACITY],
    /// CBOR of the elementValue (the first `cbor_value_len` count).
    pub cbor_value: [u8; VALUE_CAPACITY],
    /// Used bytes of `namespace_id`; more than its capacity is refused.
    pub namespace_len: usize,
    /// Used bytes of `id`; more than its capacity is refused.
    pub id_len: usize,
    /// Used bytes of `cbor_value`; more than its capacity is refused.
    pub cbor_value_len: usize,
}

/// One ZkSpec: proof system name, circuit hash (lower-case hex, NUL
/// terminated) and the parameters both sides must agree on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ZkSpecStruct {
    /// NUL-terminated system name, `longfellow-libzk-v1`.
    pub system: *const c_char,
    /// 64 hex characters and a NUL.
    pub circuit_hash: [c_char; CIRCUIT_HASH_HEX_LEN + 1],
    /// Attributes the circuit pair discloses (1–4).
    pub num_attributes: usize,
    /// ZkSpec version (5–7).
    pub version: usize,
    /// Encoded row length of the hash circuit's Ligero tableau.
    pub block_enc_hash: usize,
    /// Encoded row length of the signature circuit's Ligero tableau.
    pub block_enc_sig: usize,
}

// SAFETY: the only pointer field is read-only (`const char*`); the table
// this crate exports points at a `'static` string, and sharing a read-only
// pointer between threads cannot race.
#[allow(unsafe_code)]
unsafe impl Sync for ZkSpecStruct {}

/// Result of `run_mdoc_prover`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MdocProverErrorCode {
    Success = 0,
    NullInput = 1,
    InvalidInput = 2,
    CircuitParsingFailure = 3,
    HashParsingFailure = 4,
    WitnessCreationFailure = 5,
    GeneralFailure = 6,
    MemoryAllocationFailure = 7,
    InvalidZkSpecVersion = 8,
    RootDecodingFailure = 9,
    DocumentsMissing = 10,
    Document0Missing = 11,
    DoctypeMissing = 12,
    IssuerSignedMissing = 13,
    IssuerAuthMissing = 14,
    MsoMissing = 15,
    NsigMissing = 16,
    NamespacesMissing = 17,
    DeviceSignedMissing = 18,
    DeviceAuthMissing = 19,
    DeviceSignatureMissing = 20,
    DeviceKeyMissing = 21,
    MsoDecodingFailure = 22,
    ValidityInfoMissing = 23,
    DeviceKeyInfoMissing = 24,
    AttributeDecodeFailure = 25,
    AttributeEiMissing = 26,
    AttributeEvMissing = 27,
    AttributeDidMissing = 28,
    SignatureFailure = 29,
    DeviceSignatureFailure = 30,
    AttributeNotFound = 31,
    AttributeTooLong = 32,
    TaggedMsoTooBig = 33,
    VersionNotSupported = 34,
    AttributeRandomMissing = 35,
}

/// Result of `run_mdoc_verifier`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MdocVerifierErrorCode {
    Success = 0,
    CircuitParsingFailure = 1,
    ProofTooSmall = 2,
    HashParsingFailure = 3,
    SignatureParsingFailure = 4,
    GeneralFailure = 5,
    NullInput = 6,
    InvalidInput = 7,
    ArgumentsTooSmall = 8,
    AttributeNumberMismatch = 9,
    InvalidZkSpecVersion = 10,
    InvalidCbor = 11,
}

/// Result of `generate_circuit`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CircuitGenerationErrorCode {
    Success = 0,
    NullInput = 1,
    ZlibFailure = 2,
    GeneralFailure = 3,
    InvalidZkSpecVersion = 4,
}
