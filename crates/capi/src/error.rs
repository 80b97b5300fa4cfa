//! Typed failures of the entry points, their ABI codes and the calling
//! thread's last message.
//!
//! The ABI's codes are coarse and partly named after Google's parser; every
//! failure here carries the full typed reason, is mapped to the closest code
//! (table in docs/bindings.md) and its message is kept per thread for
//! `longfellow_last_error()`.

use std::cell::RefCell;
use std::ffi::{c_char, CString};

use longfellow_circuit::CircuitError;
use longfellow_mdoc::{CircuitKind, ProofFormatError, PublicInputError, VerifyError};
use longfellow_mdoc_prover::{MdocError, ProveError};

use crate::abi::{CircuitGenerationErrorCode, MdocProverErrorCode, MdocVerifierErrorCode};

/// Why an argument was refused before any work.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArgError {
    /// A required pointer is null.
    #[error("argument `{0}` is a null pointer")]
    Null(&'static str),
    /// A required buffer has length zero.
    #[error("argument `{0}` is empty")]
    Empty(&'static str),
    /// A string is not valid UTF-8 or not what the ABI expects.
    #[error("argument `{name}`: {reason}")]
    Invalid {
        /// Which argument.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// An attribute's declared length exceeds its fixed buffer.
    #[error("attribute {index}: {field} length {len} exceeds its {capacity}-byte field")]
    AttributeTooLong {
        /// Position in the array.
        index: usize,
        /// Which field.
        field: &'static str,
        /// Declared length.
        len: usize,
        /// Field capacity.
        capacity: usize,
    },
    /// The spec names no row of `kZkSpecs`.
    #[error("the ZkSpec passed is not one of kZkSpecs (unknown circuit hash, version or attribute count)")]
    UnknownSpec,
    /// The circuit bytes are for another spec than the one passed.
    #[error("the circuit is ZkSpec {circuit}, but the spec passed is {spec}")]
    SpecMismatch {
        /// Hash of the loaded circuit pair.
        circuit: String,
        /// Hash of the spec passed.
        spec: String,
    },
    /// The number of attributes differs from the spec's.
    #[error("{got} attributes passed, the ZkSpec proves {expected}")]
    AttributeCount {
        /// The spec's count.
        expected: usize,
        /// The caller's count.
        got: usize,
    },
}

/// Every way an entry point can fail.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CapiError {
    /// Arguments refused up front.
    #[error(transparent)]
    Arg(#[from] ArgError),
    /// The circuit bytes do not load.
    #[error("circuit: {0}")]
    Circuit(#[from] CircuitError),
    /// The prover refused or failed.
    #[error("prover: {0}")]
    Prove(#[from] ProveError),
    /// The credential could not be read (before the prover ran).
    #[error("credential: {0}")]
    Credential(#[from] MdocError),
    /// The verifier rejected the proof or could not use the circuit.
    #[error("verifier: {0}")]
    Verify(#[from] VerifyError),
    /// `malloc` returned null.
    #[error("could not allocate {0} bytes for the output")]
    OutOfMemory(usize),
    /// Circuit generation is not part of this library.
    #[error("generate_circuit is not supported: this library has no circuit compiler; load the published circuit file for the ZkSpec instead")]
    GenerationUnsupported,
    /// A panic was caught at the boundary (a bug; reported, never unwound
    /// into the caller).
    #[error("internal error (caught panic): {0}")]
    Panic(String),
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as the calling thread's last error.
pub fn set_last_error(message: &str) {
    // Interior NULs would end the C string early; show them instead.
    let clean = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = clean);
}

/// Clears the calling thread's last error (on success).
pub fn clear_last_error() {
    LAST_ERROR.with(|e| *e.borrow_mut() = CString::default());
}

/// Pointer to the calling thread's last message; valid until the next entry
/// point call on this thread.
pub fn last_error_ptr() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

fn missing_code(what: &str) -> MdocProverErrorCode {
    use MdocProverErrorCode as P;
    match what {
        "documents" => P::DocumentsMissing,
        "documents[0]" | "document" => P::Document0Missing,
        "docType" => P::DoctypeMissing,
        "issuerSigned" => P::IssuerSignedMissing,
        "issuerAuth" => P::IssuerAuthMissing,
        "MSO" => P::MsoMissing,
        "nameSpaces" | "nameSpaces key" => P::NamespacesMissing,
        "deviceSigned" => P::DeviceSignedMissing,
        "deviceAuth" => P::DeviceAuthMissing,
        "deviceSignature" => P::DeviceSignatureMissing,
        "deviceKey" => P::DeviceKeyMissing,
        "validityInfo" | "validFrom" | "validUntil" => P::ValidityInfoMissing,
        "deviceKeyInfo" => P::DeviceKeyInfoMissing,
        "elementIdentifier" => P::AttributeEiMissing,
        "elementValue" => P::AttributeEvMissing,
        "digestID" | "DigestID" | "DigestIDs" | "valueDigests" | "valueDigests key" => {
            P::AttributeDidMissing
        }
        "random" => P::AttributeRandomMissing,
        "IssuerSignedItem key" | "IssuerSignedItems" => P::AttributeDecodeFailure,
        _ if what.starts_with("device") => P::DeviceKeyMissing,
        _ => P::MsoDecodingFailure,
    }
}

/// The closest prover code for a credential refusal.
pub fn mdoc_error_code(e: &MdocError) -> MdocProverErrorCode {
    use MdocProverErrorCode as P;
    let is_device = |who: &str| who.starts_with("device");
    match e {
        MdocError::Cbor { .. } => P::RootDecodingFailure,
        MdocError::TooLarge { .. } => P::InvalidInput,
        MdocError::Missing(what) => missing_code(what),
        MdocError::Unexpected(_) | MdocError::UnsupportedProtectedHeader(_) => {
            P::MsoDecodingFailure
        }
        MdocError::UnsupportedMsoEncoding | MdocError::MsoLayoutUnsupported(_) => {
            P::MsoDecodingFailure
        }
        MdocError::MsoTooLarge { .. } | MdocError::OffsetTooLarge { .. } => P::TaggedMsoTooBig,
        MdocError::AttributeTooLong { .. } => P::AttributeTooLong,
        MdocError::AttributeOrderUnsupported { .. } => P::VersionNotSupported,
        MdocError::RequestNotEncodable(p) => match p {
            PublicInputError::AttributeCount { .. } | PublicInputError::MixedNamespaces => {
                P::InvalidInput
            }
            _ => P::AttributeTooLong,
        },
        MdocError::AttributeNotFound(_) | MdocError::AttributeValueMismatch(_) => {
            P::AttributeNotFound
        }
        MdocError::DocTypeMismatch { .. } | MdocError::InvalidRequest(_) => P::InvalidInput,
        MdocError::NotValidAt { .. }
        | MdocError::DigestMismatch(_)
        | MdocError::DigestMissing(_) => P::WitnessCreationFailure,
        MdocError::UnsupportedSpec { .. } => P::InvalidZkSpecVersion,
        MdocError::InvalidPublicKey(who) if is_device(who) => P::DeviceKeyMissing,
        MdocError::InvalidPublicKey(_) => P::InvalidInput,
        MdocError::InvalidSignature(who)
        | MdocError::SignatureFailure(who)
        | MdocError::SignatureNotProvable(who)
            if is_device(who) =>
        {
            P::DeviceSignatureFailure
        }
        MdocError::InvalidSignature(_)
        | MdocError::SignatureFailure(_)
        | MdocError::SignatureNotProvable(_) => P::SignatureFailure,
        _ => P::GeneralFailure,
    }
}

fn arg_prover_code(e: &ArgError) -> MdocProverErrorCode {
    use MdocProverErrorCode as P;
    match e {
        ArgError::Null(_) => P::NullInput,
        ArgError::Empty(_) | ArgError::Invalid { .. } | ArgError::AttributeCount { .. } => {
            P::InvalidInput
        }
        ArgError::AttributeTooLong { .. } => P::AttributeTooLong,
        ArgError::UnknownSpec | ArgError::SpecMismatch { .. } => P::InvalidZkSpecVersion,
    }
}

fn arg_verifier_code(e: &ArgError) -> MdocVerifierErrorCode {
    use MdocVerifierErrorCode as V;
    match e {
        ArgError::Null(_) => V::NullInput,
        ArgError::Empty("zkproof") => V::ProofTooSmall,
        ArgError::Empty(_) | ArgError::Invalid { .. } | ArgError::AttributeTooLong { .. } => {
            V::InvalidInput
        }
        ArgError::AttributeCount { .. } => V::AttributeNumberMismatch,
        ArgError::UnknownSpec | ArgError::SpecMismatch { .. } => V::InvalidZkSpecVersion,
    }
}

fn verify_error_code(e: &VerifyError) -> MdocVerifierErrorCode {
    use MdocVerifierErrorCode as V;
    match e {
        VerifyError::UnknownZkSpec(_) => V::InvalidZkSpecVersion,
        VerifyError::WrongCircuit { .. } => V::CircuitParsingFailure,
        VerifyError::Request(PublicInputError::AttributeCount { .. }) => V::AttributeNumberMismatch,
        VerifyError::Request(_) => V::InvalidInput,
        // A proof made for another circuit gets the code of its decoding
        // failure, as the reference reports it.
        VerifyError::Malformed(detail) | VerifyError::ProofForOtherCircuit { detail, .. } => {
            match detail {
                ProofFormatError::TruncatedMacs(_) => V::ProofTooSmall,
                ProofFormatError::Circuit {
                    circuit: CircuitKind::Hash,
                    ..
                } => V::HashParsingFailure,
                _ => V::SignatureParsingFailure,
            }
        }
        _ => V::GeneralFailure,
    }
}

impl CapiError {
    /// The prover code closest to this failure.
    pub fn prover_code(&self) -> MdocProverErrorCode {
        use MdocProverErrorCode as P;
        match self {
            CapiError::Arg(a) => arg_prover_code(a),
            CapiError::Circuit(_) => P::CircuitParsingFailure,
            CapiError::Credential(m) => mdoc_error_code(m),
            CapiError::Prove(ProveError::Refused(m)) => mdoc_error_code(m),
            CapiError::Prove(ProveError::Circuit(VerifyError::UnknownZkSpec(_))) => {
                P::InvalidZkSpecVersion
            }
            CapiError::Prove(ProveError::Circuit(_)) => P::CircuitParsingFailure,
            CapiError::Prove(ProveError::Witness(_)) => P::WitnessCreationFailure,
            CapiError::OutOfMemory(_) => P::MemoryAllocationFailure,
            _ => P::GeneralFailure,
        }
    }

    /// The verifier code closest to this failure.
    pub fn verifier_code(&self) -> MdocVerifierErrorCode {
        use MdocVerifierErrorCode as V;
        match self {
            CapiError::Arg(a) => arg_verifier_code(a),
            CapiError::Circuit(_) => V::CircuitParsingFailure,
            CapiError::Verify(v) => verify_error_code(v),
            _ => V::GeneralFailure,
        }
    }

    /// The circuit generation code closest to this failure.
    pub fn generation_code(&self) -> CircuitGenerationErrorCode {
        match self {
            CapiError::Arg(ArgError::Null(_)) => CircuitGenerationErrorCode::NullInput,
            CapiError::Arg(ArgError::UnknownSpec) => {
                CircuitGenerationErrorCode::InvalidZkSpecVersion
            }
            _ => CircuitGenerationErrorCode::GeneralFailure,
        }
    }
}
