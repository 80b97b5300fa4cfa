//! A loaded circuit pair and the two operations on it.

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{MdocRequest, RequestedAttribute, Verifier, ZkSpec};
use longfellow_mdoc_prover::Prover;
use rand_core::CryptoRngCore;

use crate::error::{BindingError, ErrorCode};
use crate::parse::{parse_coordinate, parse_now, MAX_TRANSCRIPT_BYTES};
use crate::spec::SpecInfo;

/// One disclosed attribute: namespace, elementIdentifier and the expected
/// elementValue as CBOR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// e.g. `org.iso.18013.5.1` (at most 64 bytes).
    pub namespace: String,
    /// e.g. `family_name` (at most 32 bytes).
    pub identifier: String,
    /// The elementValue, CBOR-encoded (at most 64 bytes).
    pub value_cbor: Vec<u8>,
}

/// What a proof is about; prover and verifier must pass the same values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// Issuer public key x, `0x` hex.
    pub issuer_pkx: String,
    /// Issuer public key y, `0x` hex.
    pub issuer_pky: String,
    /// The SessionTranscript (CBOR bytes).
    pub transcript: Vec<u8>,
    /// The disclosed attributes, as many as the circuit's ZkSpec takes.
    pub attributes: Vec<Attribute>,
    /// Time of the presentation, `YYYY-MM-DDTHH:MM:SSZ`.
    pub now: String,
    /// docType of the credential, e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
}

impl Statement {
    fn to_request(&self) -> Result<MdocRequest, BindingError> {
        if self.transcript.len() > MAX_TRANSCRIPT_BYTES {
            return Err(BindingError::invalid(format!(
                "transcript: {} bytes, above the limit of {MAX_TRANSCRIPT_BYTES}",
                self.transcript.len()
            )));
        }
        Ok(MdocRequest {
            issuer_pk: (
                parse_coordinate("issuer pkx", &self.issuer_pkx)?,
                parse_coordinate("issuer pky", &self.issuer_pky)?,
            ),
            transcript: self.transcript.clone(),
            now: parse_now(&self.now)?,
            doc_type: self.doc_type.clone(),
            attributes: self
                .attributes
                .iter()
                .map(|a| RequestedAttribute {
                    namespace: a.namespace.clone(),
                    id: a.identifier.clone(),
                    value_cbor: a.value_cbor.clone(),
                })
                .collect(),
        })
    }
}

/// A circuit pair of a known ZkSpec, loaded once and used for any number
/// of proofs and verifications.
#[derive(Debug)]
pub struct Circuit {
    pair: CircuitPair,
    spec: ZkSpec,
}

impl Circuit {
    /// Loads a circuit pair in any published form (`<hash>`, `.lfa1`,
    /// `.lfa2`), refusing pairs that are not a known ZkSpec or whose shape
    /// disagrees with it.
    pub fn load(bytes: &[u8]) -> Result<Self, BindingError> {
        let pair = load_pair(bytes)?;
        // Verifier::new checks exactly what both sides rely on.
        let spec = *Verifier::new(&pair)?.spec();
        Ok(Self { pair, spec })
    }

    /// The pair's ZkSpec.
    pub fn spec(&self) -> SpecInfo {
        SpecInfo::of(&self.spec)
    }

    /// Proves `statement` from the DeviceResponse `device_response`
    /// (its `documents[0]`, which must carry `deviceSigned`). Production
    /// callers pass the operating system's generator.
    pub fn prove<R: CryptoRngCore + ?Sized>(
        &self,
        device_response: &[u8],
        statement: &Statement,
        rng: &mut R,
    ) -> Result<Vec<u8>, BindingError> {
        let request = statement.to_request()?;
        self.check_count(&request)?;
        // Preparing the two circuits costs a few milliseconds; doing it per
        // call keeps `Circuit` free of self-references.
        let prover = Prover::new(&self.pair)?;
        Ok(prover.prove(&request, device_response, rng)?)
    }

    /// Accepts `proof` for `statement`, or says why not.
    pub fn verify(&self, statement: &Statement, proof: &[u8]) -> Result<(), BindingError> {
        let request = statement.to_request()?;
        self.check_count(&request)?;
        Ok(Verifier::new(&self.pair)?.verify(&request, proof)?)
    }

    /// A wrong attribute count is the caller's mistake, reported before any
    /// work and alike for both sides.
    fn check_count(&self, request: &MdocRequest) -> Result<(), BindingError> {
        let expected = self.spec.info.num_attributes;
        if request.attributes.len() == expected {
            Ok(())
        } else {
            Err(BindingError::new(
                ErrorCode::InvalidArgument,
                format!(
                    "the circuit's ZkSpec discloses {expected} attribute(s), the statement has {}",
                    request.attributes.len()
                ),
            ))
        }
    }
}
