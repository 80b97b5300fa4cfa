//! One `/zkverify` request, from decoded JSON fields to a verdict.
//!
//! Order of checks (Google's, with the stricter ones inserted where their
//! inputs are first known): decode the ZK DeviceResponse; exactly one
//! document; envelope; issuer chain at the server clock; exactly one
//! namespace (Claims); policy on timestamp, docType, namespace and
//! attributes; zkSystemId to a loaded, accepted circuit; attribute count;
//! the proof check itself, with the issuer key from the DS certificate and
//! the document timestamp as the circuit's "now".

use base64::Engine;
use longfellow_mdoc::{MdocRequest, RequestedAttribute};
use longfellow_mdoc_response::{decode, ZkDocumentData};
use longfellow_trust::{TrustError, TrustStore};
use serde_json::{json, Map, Value};

use crate::circuits::Circuits;
use crate::policy::Policy;

/// The answer to one request: HTTP status, JSON body, reason code.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// HTTP status.
    pub status: u16,
    /// JSON body.
    pub body: Value,
    /// Short stable reason code (`verified`, `bad_cbor`, …) for metrics and
    /// logs.
    pub reason: &'static str,
}

impl Verdict {
    /// HTTP 400 `{"error": message}`.
    pub fn bad_request(reason: &'static str, message: String) -> Self {
        Self {
            status: 400,
            body: json!({ "error": message }),
            reason,
        }
    }

    fn checked(ok: bool, claims: &Value, message: Option<String>, reason: &'static str) -> Self {
        let mut body = Map::new();
        body.insert("Status".into(), Value::Bool(ok));
        if claims.as_object().is_some_and(|m| !m.is_empty()) {
            body.insert("Claims".into(), claims.clone());
        }
        if let Some(m) = message {
            body.insert("Message".into(), Value::String(m));
        }
        Self {
            status: 200,
            body: Value::Object(body),
            reason,
        }
    }
}

fn cbor_error(reason: &'static str, detail: impl std::fmt::Display) -> Verdict {
    Verdict::bad_request(reason, format!("Error processing cbor request: {detail}"))
}

fn trust_reason(e: &TrustError) -> &'static str {
    match e {
        TrustError::UnknownIssuer { .. } => "unknown_issuer",
        TrustError::Expired { .. } => "certificate_expired",
        TrustError::BadSignature { .. } => "certificate_bad_signature",
        TrustError::NotP256 { .. } => "issuer_key_not_p256",
        TrustError::KeyUsage { .. } | TrustError::UnhandledCritical { .. } => "certificate_usage",
        _ => "bad_certificate",
    }
}

/// Claims as Google returns them: `{ns: [{ElementIdentifier, ElementValue}]}`
/// with the raw CBOR value in standard base64, never truncated.
fn claims(data: &ZkDocumentData) -> Value {
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut m = Map::new();
    for ns in &data.issuer_signed {
        let elements = ns
            .elements
            .iter()
            .map(
                |e| json!({ "ElementIdentifier": e.id, "ElementValue": b64.encode(&e.value_cbor) }),
            )
            .collect();
        m.insert(ns.name.clone(), Value::Array(elements));
    }
    Value::Object(m)
}

/// What a session asked for: the disclosed document must be exactly this
/// (a wallet answering with other attributes, or a subset, is refused even
/// when its proof is valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The requested docType.
    pub doc_type: String,
    /// The requested (namespace, identifier) pairs.
    pub elements: Vec<(String, String)>,
}

/// Verifies one request at `now_unix` (the server clock or
/// `--verify-time`).
pub fn verify_request(
    circuits: &Circuits,
    trust: &TrustStore,
    policy: &Policy,
    now_unix: i64,
    transcript: &[u8],
    response_cbor: &[u8],
) -> Verdict {
    verify_expected(
        circuits,
        trust,
        policy,
        now_unix,
        transcript,
        response_cbor,
        None,
    )
}

/// [`verify_request`], and when `expected` is given (a session's answer)
/// the disclosed docType and attributes must be the requested ones. The one
/// verification path of `/zkverify` and of session responses.
pub(crate) fn verify_expected(
    circuits: &Circuits,
    trust: &TrustStore,
    policy: &Policy,
    now_unix: i64,
    transcript: &[u8],
    response_cbor: &[u8],
    expected: Option<&Expected>,
) -> Verdict {
    let response = match decode(response_cbor) {
        Ok(r) => r,
        Err(e) => return cbor_error("bad_cbor", e),
    };
    if response.documents.len() != 1 {
        return cbor_error(
            "document_count",
            format!("expected 1 zkdocument, got {}", response.documents.len()),
        );
    }
    if let Err(v) = policy.check_envelope(&response.version, response.status) {
        return Verdict::checked(false, &Value::Null, Some(v.message), v.code);
    }
    let doc = &response.documents[0];
    let data = &doc.data;
    if data.zk_system_id.as_str().is_empty() {
        return cbor_error("bad_cbor", "Missing ZkSystemId");
    }
    if data.doc_type.is_empty() || doc.proof.is_empty() {
        return cbor_error("bad_cbor", "empty docType or proof");
    }

    let chain = data.mso_x5chain.certificates();
    let issuer = match trust.verify_document_signer(&chain, now_unix) {
        Ok(i) => i,
        Err(e) => {
            return cbor_error(
                trust_reason(&e),
                format!("failed to verify certificate chain: {e}"),
            )
        }
    };

    if data.issuer_signed.len() != 1 {
        return cbor_error(
            "namespace_count",
            format!("expected 1 namespace, got {}", data.issuer_signed.len()),
        );
    }
    let claims = claims(data);
    let ns = &data.issuer_signed[0];
    let pairs: Vec<(String, String)> = ns
        .elements
        .iter()
        .map(|e| (ns.name.clone(), e.id.clone()))
        .collect();
    if let Some(e) = expected {
        if let Err(message) = matches_request(e, &data.doc_type, &pairs) {
            return Verdict::checked(false, &claims, Some(message), "not_requested");
        }
    }
    if let Err(v) = policy.check_document(&data.doc_type, data.timestamp.unix(), now_unix, &pairs) {
        return Verdict::checked(false, &claims, Some(v.message), v.code);
    }

    let spec = match data.zk_system_id.resolve() {
        Ok(s) => s,
        Err(e) => {
            return Verdict::checked(
                false,
                &claims,
                Some(format!("invalid circuit id: {e}")),
                "unknown_circuit",
            )
        }
    };
    let Some(verifier) = circuits.get(&spec.circuit_hash) else {
        return Verdict::checked(
            false,
            &claims,
            Some(format!(
                "invalid circuit id: {} is not loaded",
                spec.circuit_hash_hex()
            )),
            "unknown_circuit",
        );
    };
    if let Err(v) = policy.check_circuit(spec.info.version, &spec.circuit_hash_hex()) {
        return Verdict::checked(false, &claims, Some(v.message), v.code);
    }
    let n = ns.elements.len();
    if !(1..=4).contains(&n) {
        return Verdict::checked(
            false,
            &claims,
            Some(format!("invalid number of attributes: {n}")),
            "attribute_count",
        );
    }
    if n != spec.info.num_attributes {
        return Verdict::checked(
            false,
            &claims,
            Some(format!(
                "mismatch in number of attributes: circuit has {}, request {n}",
                spec.info.num_attributes
            )),
            "attribute_count",
        );
    }

    let request = MdocRequest {
        issuer_pk: issuer.public_key,
        transcript: transcript.to_vec(),
        now: *data.timestamp.as_bytes(),
        doc_type: data.doc_type.clone(),
        attributes: ns
            .elements
            .iter()
            .map(|e| RequestedAttribute {
                namespace: ns.name.clone(),
                id: e.id.clone(),
                value_cbor: e.value_cbor.clone(),
            })
            .collect(),
    };
    match verifier.verify(&request, &doc.proof) {
        Ok(()) => Verdict::checked(true, &claims, None, "verified"),
        Err(e) => {
            let reason = match e {
                longfellow_mdoc::VerifyError::Malformed(_)
                | longfellow_mdoc::VerifyError::ProofForOtherCircuit { .. } => "malformed_proof",
                longfellow_mdoc::VerifyError::Request(_) => "attribute_not_provable",
                _ => "proof_rejected",
            };
            Verdict::checked(
                false,
                &claims,
                Some(format!("verification failure: {e}")),
                reason,
            )
        }
    }
}

/// The disclosed document against the session's request (order-insensitive,
/// no duplicates).
fn matches_request(
    e: &Expected,
    doc_type: &str,
    disclosed: &[(String, String)],
) -> Result<(), String> {
    if doc_type != e.doc_type {
        return Err(format!(
            "session: docType `{doc_type}` was not requested (requested `{}`)",
            e.doc_type
        ));
    }
    let mut got: Vec<&(String, String)> = disclosed.iter().collect();
    let mut want: Vec<&(String, String)> = e.elements.iter().collect();
    got.sort();
    want.sort();
    let has_duplicates = got.windows(2).any(|w| w[0] == w[1]);
    if got != want || has_duplicates {
        let show = |v: &[&(String, String)]| {
            v.iter()
                .map(|(ns, id)| format!("{ns}/{id}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(format!(
            "session: disclosed attributes [{}] are not the requested [{}]",
            show(&got),
            show(&want)
        ));
    }
    Ok(())
}
