//! The in-process mdoc verifier (longfellow-mdoc) and prover
//! (longfellow-mdoc-prover) as [`MdocBackend`]s.
//!
//! [`LinkedVerifier`] verifies but does not prove; [`Linked`] does both.
//! [`crate::Options::new`] uses [`Linked`]; a caller that wants to test only
//! the verifier (or a peer prover against our verifier without spending
//! time on our own proofs) sets [`LinkedVerifier`].

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::public::parse_coordinate;
use longfellow_mdoc::{MdocRequest as RpRequest, RequestedAttribute, Verifier, VerifyError};
use longfellow_mdoc_prover::{ProveError, Prover};
use longfellow_random::SeededOrOs;

use crate::backend::{BackendError, MdocBackend, MdocRequest};

/// Reason given for every proving request.
pub const NOT_LINKED: &str = "mdoc prover not linked";

/// Verify-only backend over `longfellow_mdoc::Verifier`.
#[derive(Debug, Default)]
pub struct LinkedVerifier {
    /// The last pair loaded (checks run circuit by circuit, and one decoded
    /// pair is large, so only one is kept).
    last: Mutex<Option<(PathBuf, Arc<CircuitPair>)>>,
}

impl LinkedVerifier {
    /// A verifier with an empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    fn pair(&self, circuit: &Path) -> Result<Arc<CircuitPair>, BackendError> {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((p, pair)) = last.as_ref() {
            if p == circuit {
                return Ok(Arc::clone(pair));
            }
        }
        *last = None;
        let bytes = std::fs::read(circuit)
            .map_err(|e| BackendError::Usage(format!("{}: {e}", circuit.display())))?;
        let pair = Arc::new(
            load_pair(&bytes)
                .map_err(|e| BackendError::Usage(format!("{}: {e}", circuit.display())))?,
        );
        *last = Some((circuit.to_path_buf(), Arc::clone(&pair)));
        Ok(pair)
    }
}

/// The relying party's request from the contract's REQ fields.
pub fn rp_request(r: &MdocRequest) -> Result<RpRequest, BackendError> {
    let bad = |what: &str| BackendError::Usage(format!("request: bad {what}"));
    Ok(RpRequest {
        issuer_pk: (
            parse_coordinate(&r.pkx).ok_or_else(|| bad("pkx"))?,
            parse_coordinate(&r.pky).ok_or_else(|| bad("pky"))?,
        ),
        transcript: r.transcript.clone(),
        now: r.now.as_bytes().try_into().map_err(|_| bad("now"))?,
        doc_type: r.doc_type.clone(),
        attributes: r
            .attributes
            .iter()
            .map(|a| RequestedAttribute {
                namespace: a.namespace.clone(),
                id: a.id.clone(),
                value_cbor: a.value_cbor.clone(),
            })
            .collect(),
    })
}

impl MdocBackend for LinkedVerifier {
    fn name(&self) -> String {
        "longfellow-rs verifier".into()
    }

    fn can_prove(&self) -> bool {
        false
    }

    fn prove(
        &self,
        _circuit: &Path,
        _request: &MdocRequest,
        _mdoc: &[u8],
        _seed: Option<u64>,
    ) -> Result<Vec<u8>, BackendError> {
        Err(BackendError::Unavailable(NOT_LINKED.into()))
    }

    fn verify(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        proof: &[u8],
    ) -> Result<(), BackendError> {
        let pair = self.pair(circuit)?;
        let verifier = Verifier::new(&pair).map_err(|e| BackendError::Usage(e.to_string()))?;
        match verifier.verify(&rp_request(request)?, proof) {
            Ok(()) => Ok(()),
            Err(e @ VerifyError::Internal { .. }) => Err(BackendError::Crashed(e.to_string())),
            Err(e) => Err(BackendError::Rejected(e.to_string())),
        }
    }
}

/// Prover and verifier linked in process.
#[derive(Debug, Default)]
pub struct Linked {
    verifier: LinkedVerifier,
}

impl Linked {
    /// Prover and verifier with an empty circuit cache.
    pub fn new() -> Self {
        Self::default()
    }
}

impl MdocBackend for Linked {
    fn name(&self) -> String {
        "longfellow-rs".into()
    }

    fn prove(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        mdoc: &[u8],
        seed: Option<u64>,
    ) -> Result<Vec<u8>, BackendError> {
        let pair = self.verifier.pair(circuit)?;
        let prover = Prover::new(&pair).map_err(|e| BackendError::Usage(e.to_string()))?;
        let request = rp_request(request)?;
        prover
            .prove(&request, mdoc, &mut SeededOrOs::new(seed))
            .map_err(|e| match e {
                ProveError::Refused(m) => BackendError::Refused(m.to_string()),
                ProveError::Circuit(c) => BackendError::Usage(c.to_string()),
                other => BackendError::Crashed(other.to_string()),
            })
    }

    fn verify(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        proof: &[u8],
    ) -> Result<(), BackendError> {
        self.verifier.verify(circuit, request, proof)
    }
}
