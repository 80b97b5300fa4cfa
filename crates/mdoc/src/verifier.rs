//! The relying party's verifier (flow of Google's `run_mdoc_verifier`).
//!
//! 1. Decode the whole proof (MACs, hash proof, signature proof).
//! 2. One transcript, initialised with the SessionTranscript, receives the
//!    hash commitment, then the signature commitment.
//! 3. a_v = the next 16 transcript bytes (little-endian u128).
//! 4. Verify the hash proof against the hash public inputs (attributes,
//!    now, MACs, a_v), then the signature proof against the signature
//!    public inputs (issuer key, device-authentication hash e2, MACs, a_v),
//!    continuing the same transcript.

use longfellow_circuit::CircuitPair;
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_ligero::{LigeroError, LigeroParams};
use longfellow_transcript::Transcript;
use longfellow_zk::{ZkError, ZkVerifier};

use crate::proof::{CircuitKind, MdocProof, ProofFormatError};
use crate::public::{self, PublicInputError};
use crate::request::{MdocRequest, RequestError};
use crate::spec::{ZkSpec, SIG_PRIVATE_LEN, SIG_PUBLIC_LEN};

/// The check of the padded sumcheck + Ligero argument that failed.
///
/// The sumcheck messages are padded, so their consistency is checked inside
/// Ligero's linear constraints; and every challenge (including which columns
/// are opened) depends on the whole statement. A proof for a different
/// statement (other issuer key, transcript, attribute, time or MACs)
/// therefore usually fails at the first check that uses a challenge: the
/// Merkle opening of the columns the verifier now asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailedCheck {
    /// The opened columns do not hash to the committed root (or the opening
    /// is for other columns than the transcript selects).
    MerkleRoot,
    /// Low-degree test at an opened column.
    LowDegree,
    /// Linear (dot-product) test at an opened column.
    Dot,
    /// The claimed inner product differs from the sumcheck's constraint
    /// right-hand sides: the committed witness does not satisfy the
    /// circuit for these public inputs.
    Linear,
    /// Quadratic test at an opened column.
    Quadratic,
}

impl std::fmt::Display for FailedCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::MerkleRoot => {
                "opened columns do not match the commitment root \
                 (proof altered, or made for another request)"
            }
            Self::LowDegree => "Ligero low-degree check failed",
            Self::Dot => "Ligero dot-product check failed",
            Self::Linear => "Ligero linear check failed (sumcheck claims not satisfied)",
            Self::Quadratic => "Ligero quadratic check failed",
        })
    }
}

/// Why a circuit pair cannot be used, or a proof was not accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The pair's circuit hash is not a version 5–7 ZkSpec.
    #[error("circuit pair {0} is not a known ZkSpec")]
    UnknownZkSpec(String),
    /// The pair's shape disagrees with its ZkSpec's input layout.
    #[error("{circuit} has {found} {what}, its ZkSpec expects {expected}")]
    WrongCircuit {
        /// Which circuit.
        circuit: CircuitKind,
        /// What was counted.
        what: &'static str,
        /// The ZkSpec's value.
        expected: usize,
        /// The circuit's value.
        found: usize,
    },
    /// The request cannot be encoded for this circuit (attribute count,
    /// sizes, namespaces).
    #[error("request: {0}")]
    Request(#[from] PublicInputError),
    /// The request itself is invalid whatever the circuit: the issuer key
    /// is not a canonical P-256 point, `now` is not a real time, or a
    /// field exceeds its bound ([`MdocRequest::validate`]).
    #[error("{0}")]
    InvalidRequest(#[from] RequestError),
    /// The proof bytes are not a proof for this circuit pair (truncated,
    /// trailing bytes, non-canonical elements, or made for a circuit this
    /// library does not know the shape of).
    #[error("malformed proof (it does not decode for this circuit pair): {0}")]
    Malformed(#[from] ProofFormatError),
    /// The proof does not decode for this circuit pair but fits the shape
    /// of another published circuit exactly: it was made for that one
    /// ([`crate::proof_shape`]).
    #[error(
        "the proof does not match this circuit (ZkSpec v{version}, {attributes} attribute(s)): \
         it was made for {}",
        circuit_list(made_for)
    )]
    ProofForOtherCircuit {
        /// This pair's ZkSpec version.
        version: u32,
        /// This pair's attribute count.
        attributes: usize,
        /// (version, attributes) of the circuits the proof fits.
        made_for: Vec<(u32, usize)>,
        /// How decoding for this pair failed.
        detail: ProofFormatError,
    },
    /// One circuit's proof was decoded but rejected.
    #[error("{circuit} proof rejected: {check}")]
    Rejected {
        /// Which circuit.
        circuit: CircuitKind,
        /// Which check failed.
        check: FailedCheck,
    },
    /// A failure that is not the proof's fault (parameters the lower layers
    /// refuse); reported rather than hidden.
    #[error("{circuit}: {source}")]
    Internal {
        /// Which circuit.
        circuit: CircuitKind,
        /// The lower layer's error.
        source: ZkError,
    },
}

/// "v7 with 1 attribute(s)" or several such joined by "or".
fn circuit_list(circuits: &[(u32, usize)]) -> String {
    circuits
        .iter()
        .map(|(v, n)| format!("ZkSpec v{v} with {n} attribute(s)"))
        .collect::<Vec<_>>()
        .join(" or ")
}

impl VerifyError {
    /// Maps a zk-layer error of proof verification to its typed reason.
    fn from_zk(circuit: CircuitKind, e: ZkError) -> Self {
        let rejected = |check| VerifyError::Rejected { circuit, check };
        match e {
            ZkError::Ligero(LigeroError::Merkle(_)) => rejected(FailedCheck::MerkleRoot),
            ZkError::Ligero(LigeroError::LowDegreeCheck) => rejected(FailedCheck::LowDegree),
            ZkError::Ligero(LigeroError::DotCheck) => rejected(FailedCheck::Dot),
            ZkError::Ligero(LigeroError::LinearCheck) => rejected(FailedCheck::Linear),
            ZkError::Ligero(LigeroError::QuadraticCheck) => rejected(FailedCheck::Quadratic),
            e @ (ZkError::Sumcheck(_)
            | ZkError::Truncated
            | ZkError::TrailingBytes(_)
            | ZkError::Ligero(
                LigeroError::Malformed { .. }
                | LigeroError::Truncated { .. }
                | LigeroError::TrailingBytes(_),
            )) => VerifyError::Malformed(ProofFormatError::Circuit { circuit, source: e }),
            source => VerifyError::Internal { circuit, source },
        }
    }
}

/// Checks that `pair` has the input layout of `spec`.
pub(crate) fn check_shape(pair: &CircuitPair, spec: &ZkSpec) -> Result<(), VerifyError> {
    let info = spec.info;
    let checks = [
        (
            CircuitKind::Hash,
            "public inputs",
            info.hash_public_len(),
            pair.hash.num_public_inputs(),
        ),
        (
            CircuitKind::Hash,
            "inputs",
            info.hash_public_len() + info.hash_private_len(),
            pair.hash.num_inputs(),
        ),
        (
            CircuitKind::Signature,
            "public inputs",
            SIG_PUBLIC_LEN,
            pair.sig.num_public_inputs(),
        ),
        (
            CircuitKind::Signature,
            "inputs",
            SIG_PUBLIC_LEN + SIG_PRIVATE_LEN,
            pair.sig.num_inputs(),
        ),
    ];
    for (circuit, what, expected, found) in checks {
        if expected != found {
            return Err(VerifyError::WrongCircuit {
                circuit,
                what,
                expected,
                found,
            });
        }
    }
    Ok(())
}

/// The ZkSpec of `pair`, checked against the pair's shape.
pub(crate) fn spec_of(pair: &CircuitPair) -> Result<ZkSpec, VerifyError> {
    let spec = ZkSpec::for_pair(pair).ok_or_else(|| {
        VerifyError::UnknownZkSpec(
            pair.zkspec_hash
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        )
    })?;
    check_shape(pair, &spec)?;
    Ok(spec)
}

/// Hash-circuit public inputs as field elements.
pub fn hash_public_elements(
    spec: &ZkSpec,
    request: &MdocRequest,
    macs: &[u128; 6],
    verifier_key: u128,
) -> Result<Vec<Gf2_128>, PublicInputError> {
    let v = public::hash_public_inputs(
        &spec.info,
        &request.attributes,
        &request.now,
        macs,
        verifier_key,
    )?;
    Ok(v.iter().map(|x| gf2(*x)).collect())
}

/// Signature-circuit public inputs as field elements.
pub fn sig_public_elements(
    request: &MdocRequest,
    macs: &[u128; 6],
    verifier_key: u128,
) -> Vec<Fp256> {
    let e2 = public::device_authentication_hash(&request.transcript, &request.doc_type);
    public::sig_public_inputs(
        (&request.issuer_pk.0, &request.issuer_pk.1),
        &e2,
        macs,
        verifier_key,
    )
    .iter()
    // Every value is reduced below p by construction.
    .filter_map(|b| Fp256::from_bytes(b))
    .collect()
}

fn gf2(x: u128) -> Gf2_128 {
    // Every 16-byte string is an element of GF(2^128).
    Gf2_128::from_bytes(&x.to_le_bytes()).unwrap_or(Gf2_128::ZERO)
}

/// Reads the verifier MAC key a_v: the 16 transcript bytes after both
/// commitments, as a little-endian integer.
pub fn draw_verifier_key(transcript: &mut Transcript) -> u128 {
    let mut b = [0u8; 16];
    transcript.challenge_bytes(&mut b);
    u128::from_le_bytes(b)
}

/// A circuit pair prepared for verifying mdoc proofs.
#[derive(Debug)]
pub struct Verifier<'a> {
    pair: &'a CircuitPair,
    spec: ZkSpec,
    hash: ZkVerifier<'a, Gf2_128>,
    sig: ZkVerifier<'a, Fp256>,
}

impl<'a> Verifier<'a> {
    /// Finds the pair's ZkSpec, checks its shape and prepares both circuits.
    pub fn new(pair: &'a CircuitPair) -> Result<Self, VerifyError> {
        let spec = spec_of(pair)?;
        let hash = ZkVerifier::new(&pair.hash, spec.hash_params()).map_err(|source| {
            VerifyError::Internal {
                circuit: CircuitKind::Hash,
                source,
            }
        })?;
        let sig = ZkVerifier::new(&pair.sig, spec.sig_params()).map_err(|source| {
            VerifyError::Internal {
                circuit: CircuitKind::Signature,
                source,
            }
        })?;
        Ok(Self {
            pair,
            spec,
            hash,
            sig,
        })
    }

    /// The pair's ZkSpec.
    pub fn spec(&self) -> &ZkSpec {
        &self.spec
    }

    /// The hash circuit's Ligero parameters.
    pub fn hash_ligero_params(&self) -> &LigeroParams {
        self.hash.ligero_params()
    }

    /// The signature circuit's Ligero parameters.
    pub fn sig_ligero_params(&self) -> &LigeroParams {
        self.sig.ligero_params()
    }

    /// Decodes proof bytes for this pair. Bytes that do not decode but fit
    /// another published circuit's proof shape are reported as
    /// [`VerifyError::ProofForOtherCircuit`].
    pub fn read_proof(&self, proof: &[u8]) -> Result<MdocProof, VerifyError> {
        MdocProof::read(
            self.pair,
            self.hash.ligero_params(),
            self.sig.ligero_params(),
            proof,
        )
        .map_err(|detail| {
            let this = (self.spec.info.version, self.spec.info.num_attributes);
            let made_for: Vec<_> = crate::proof_shape::circuits_fitting(proof)
                .into_iter()
                .filter(|c| *c != this)
                .collect();
            if made_for.is_empty() {
                VerifyError::Malformed(detail)
            } else {
                VerifyError::ProofForOtherCircuit {
                    version: this.0,
                    attributes: this.1,
                    made_for,
                    detail,
                }
            }
        })
    }

    /// Accepts `proof` for `request`, or says why not.
    pub fn verify(&self, request: &MdocRequest, proof: &[u8]) -> Result<(), VerifyError> {
        request.validate()?;
        public::validate_attributes(&request.attributes, self.spec.info.num_attributes)?;
        let proof = self.read_proof(proof)?;

        let mut t = Transcript::new(&request.transcript);
        proof.hash.commitment.absorb(&mut t);
        proof.sig.commitment.absorb(&mut t);
        let av = draw_verifier_key(&mut t);

        let hash_pub = hash_public_elements(&self.spec, request, &proof.macs, av)?;
        self.hash
            .verify(&proof.hash, &hash_pub, &mut t)
            .map_err(|e| VerifyError::from_zk(CircuitKind::Hash, e))?;

        let sig_pub = sig_public_elements(request, &proof.macs, av);
        self.sig
            .verify(&proof.sig, &sig_pub, &mut t)
            .map_err(|e| VerifyError::from_zk(CircuitKind::Signature, e))?;
        Ok(())
    }
}
