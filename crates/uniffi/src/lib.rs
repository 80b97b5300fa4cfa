//! UniFFI bindings of the Longfellow mdoc prover and verifier, for wallets
//! written in Kotlin or Swift and for Python.
//!
//! - `Circuit.load(bytes)` loads a circuit pair (`<hash>`, `.lfa1`,
//!   `.lfa2`); `circuit.spec()` is its ZkSpec.
//! - `circuit.prove(deviceResponse, statement)` returns the proof bytes;
//!   `circuit.verify(statement, proof)` returns normally or throws.
//! - `zkSpecs()` lists the ZkSpec table; `matchSpec(offered, n)` picks the
//!   spec for a request disclosing `n` attributes.
//!
//! Every failure is a [`LongfellowError`], one exception subclass per kind
//! (`LongfellowException.ProofRejected` in Kotlin, `LongfellowError.ProofRejected`
//! in Python and Swift), each with the full message. Proving draws from the
//! operating system's generator; there is no way to pass a seed.
#![forbid(unsafe_code)]

use std::sync::Arc;

use longfellow_bindings_core as core;

uniffi::setup_scaffolding!();

/// Why a call failed. The variants are the core's [`core::ErrorCode`]s.
#[derive(Debug, thiserror::Error, uniffi::Error)]
/// (The field is `detail`, not `message`: Kotlin exceptions already have a
/// `message`, and a second one does not compile.)
pub enum LongfellowError {
    /// An argument is malformed (hex key, time, sizes, attribute count).
    #[error("invalid argument: {detail}")]
    InvalidArgument { detail: String },
    /// The circuit bytes cannot be loaded or are not a known ZkSpec pair.
    #[error("circuit: {detail}")]
    Circuit { detail: String },
    /// The credential cannot be proven with this circuit; nothing was proven.
    #[error("prover refused: {detail}")]
    ProverRefused { detail: String },
    /// The bytes are not a proof for this circuit pair.
    #[error("malformed proof: {detail}")]
    MalformedProof { detail: String },
    /// The proof does not prove this statement.
    #[error("proof rejected: {detail}")]
    ProofRejected { detail: String },
    /// A failure that is not the input's fault.
    #[error("internal: {detail}")]
    Internal { detail: String },
}

impl From<core::BindingError> for LongfellowError {
    fn from(e: core::BindingError) -> Self {
        let detail = e.message;
        match e.code {
            core::ErrorCode::InvalidArgument => Self::InvalidArgument { detail },
            core::ErrorCode::Circuit => Self::Circuit { detail },
            core::ErrorCode::ProverRefused => Self::ProverRefused { detail },
            core::ErrorCode::MalformedProof => Self::MalformedProof { detail },
            core::ErrorCode::ProofRejected => Self::ProofRejected { detail },
            core::ErrorCode::Internal => Self::Internal { detail },
        }
    }
}

/// One ZkSpec: a published circuit pair and its proof parameters (the
/// fields of the C ABI's `ZkSpecStruct`).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct ZkSpec {
    /// `longfellow-libzk-v1`.
    pub system: String,
    /// Lower-case hex circuit hash (the published file's name).
    pub circuit_hash: String,
    /// ZkSpec version.
    pub version: u32,
    /// Attributes a proof discloses.
    pub num_attributes: u32,
    /// Encoded row length of the hash circuit's tableau.
    pub block_enc_hash: u32,
    /// Encoded row length of the signature circuit's tableau.
    pub block_enc_sig: u32,
}

impl From<core::SpecInfo> for ZkSpec {
    fn from(s: core::SpecInfo) -> Self {
        Self {
            system: s.system,
            circuit_hash: s.circuit_hash,
            version: s.version,
            num_attributes: s.num_attributes,
            block_enc_hash: s.block_enc_hash,
            block_enc_sig: s.block_enc_sig,
        }
    }
}

impl From<ZkSpec> for core::SpecInfo {
    fn from(s: ZkSpec) -> Self {
        Self {
            system: s.system,
            circuit_hash: s.circuit_hash,
            version: s.version,
            num_attributes: s.num_attributes,
            block_enc_hash: s.block_enc_hash,
            block_enc_sig: s.block_enc_sig,
        }
    }
}

/// One disclosed attribute.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Attribute {
    /// e.g. `org.iso.18013.5.1`.
    pub namespace: String,
    /// elementIdentifier, e.g. `family_name`.
    pub identifier: String,
    /// The elementValue, CBOR-encoded.
    pub value_cbor: Vec<u8>,
}

/// What a proof is about; prover and verifier pass the same values.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Statement {
    /// Issuer public key x, `0x` hex (leading zeros optional).
    pub issuer_pkx: String,
    /// Issuer public key y, `0x` hex.
    pub issuer_pky: String,
    /// SessionTranscript bytes (CBOR).
    pub transcript: Vec<u8>,
    /// The disclosed attributes (as many as the ZkSpec's count).
    pub attributes: Vec<Attribute>,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub now: String,
    /// e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
}

impl From<Statement> for core::Statement {
    fn from(s: Statement) -> Self {
        Self {
            issuer_pkx: s.issuer_pkx,
            issuer_pky: s.issuer_pky,
            transcript: s.transcript,
            attributes: s
                .attributes
                .into_iter()
                .map(|a| core::Attribute {
                    namespace: a.namespace,
                    identifier: a.identifier,
                    value_cbor: a.value_cbor,
                })
                .collect(),
            now: s.now,
            doc_type: s.doc_type,
        }
    }
}

/// A loaded circuit pair; thread-safe, reuse it for many calls.
#[derive(Debug, uniffi::Object)]
pub struct Circuit {
    inner: core::Circuit,
}

#[uniffi::export]
impl Circuit {
    /// Loads a circuit pair in any published form.
    #[uniffi::constructor]
    pub fn load(bytes: Vec<u8>) -> Result<Arc<Self>, LongfellowError> {
        Ok(Arc::new(Self {
            inner: core::Circuit::load(&bytes)?,
        }))
    }

    /// The pair's ZkSpec.
    pub fn spec(&self) -> ZkSpec {
        self.inner.spec().into()
    }

    /// Proves `statement` from a DeviceResponse; returns the proof bytes.
    pub fn prove(
        &self,
        device_response: Vec<u8>,
        statement: Statement,
    ) -> Result<Vec<u8>, LongfellowError> {
        Ok(self.inner.prove(
            &device_response,
            &statement.into(),
            &mut longfellow_random::OsRng,
        )?)
    }

    /// Returns normally if `proof` proves `statement`, throws otherwise.
    pub fn verify(&self, statement: Statement, proof: Vec<u8>) -> Result<(), LongfellowError> {
        Ok(self.inner.verify(&statement.into(), &proof)?)
    }
}

/// Every ZkSpec this library proves and verifies, newest version first.
#[uniffi::export]
pub fn zk_specs() -> Vec<ZkSpec> {
    core::zk_specs().into_iter().map(ZkSpec::from).collect()
}

/// Among `offered`, the newest known spec disclosing exactly
/// `num_attributes` attributes.
#[uniffi::export]
pub fn match_spec(offered: Vec<ZkSpec>, num_attributes: u32) -> Option<ZkSpec> {
    let offered: Vec<core::SpecInfo> = offered.into_iter().map(Into::into).collect();
    core::match_spec(&offered, num_attributes).map(ZkSpec::from)
}
