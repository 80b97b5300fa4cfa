//! The session flow of a website using the W3C Digital Credentials API
//! (docs/verifier-service.md, "Sessions"):
//!
//! 1. `POST /sessions` `{"origin", ?"handover", ?"docType", ?"attributes",
//!    ?"nonce", ?"responseMode"}` creates a session and returns the
//!    `navigator.credentials.get()` request: for `org-iso-mdoc` (ISO/IEC TS
//!    18013-7 Annex C) the DeviceRequest naming the accepted ZK systems and
//!    the EncryptionInfo with a fresh HPKE P-256 key; for OpenID4VP a DCQL
//!    query with `zk_system_type`, a nonce and, unless `responseMode` is
//!    `dc_api`, a fresh ECDH-ES P-256 key in `client_metadata.jwks` for an
//!    encrypted (`dc_api.jwt`) response.
//! 2. `POST /sessions/{id}/response` takes what the browser returned
//!    (`{"response"}`: the HPKE EncryptedResponse for Annex C, a compact
//!    JWE for encrypted OpenID4VP; `{"vp_token"}` for unencrypted
//!    OpenID4VP), decrypts it, rebuilds the SessionTranscript from the session's own origin and
//!    encryption info (never from the caller), and runs the `/zkverify`
//!    check with the session's requested document as an extra condition.
//!    A session is answered once.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::to_bytes;
use axum::extract::{Path, Request, State};
use axum::http::Method;
use axum::response::Response;
use base64::alphabet::URL_SAFE;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, URL_SAFE_NO_PAD};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use longfellow_dcapi::{
    ContentEncryption, DeviceRequest, EncryptedResponse, Handover, JweRecipientKey, RecipientKey,
    RequestedElement, ZkSystemSpec, PROTOCOL_OPENID4VP_UNSIGNED, PROTOCOL_ORG_ISO_MDOC,
    RESPONSE_MODE_DC_API, RESPONSE_MODE_DC_API_JWT,
};
use rand_core::{OsRng, RngCore};
use serde_json::{json, Map, Value};

use crate::http::{admit, json_response, run_with_permit, verdict_response, AppState};
use crate::sessions::{Session, SessionKey, TakeError};
use crate::verify::{verify_expected, Expected, Verdict};

/// Largest `POST /sessions` body.
const MAX_CREATE_BODY: usize = 16 << 10;
/// Longest origin accepted.
const MAX_ORIGIN: usize = 256;
/// Longest namespace and identifier (the C ABI's field sizes).
const MAX_NAMESPACE: usize = 64;
const MAX_IDENTIFIER: usize = 32;
/// Longest caller-chosen OpenID4VP nonce.
const MAX_NONCE: usize = 256;
/// Shortest caller-chosen OpenID4VP nonce (16 bytes of entropy or so).
const MIN_NONCE: usize = 16;

/// base64url, padded or not (browsers and wallets differ).
const B64URL: GeneralPurpose = GeneralPurpose::new(
    &URL_SAFE,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// HTTP 400 `{"error"}` (a small error value; turned into a response at
/// the handler's edge).
fn bad(reason: &'static str, message: impl Into<String>) -> Verdict {
    Verdict::bad_request(reason, message.into())
}

fn not_post() -> Response {
    json_response(405, &json!({"error": "expecting a json post"}), "method")
}

/// Which handover the session's transcript uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    DcApi,
    OpenId4Vp,
}

#[derive(Debug)]
struct Create {
    origin: String,
    kind: Kind,
    doc_type: String,
    elements: Vec<(String, String)>,
    nonce: Option<String>,
    /// OpenID4VP only: whether the response comes back as a JWE
    /// (`dc_api.jwt`, the default) or in the clear (`dc_api`).
    encrypted: bool,
}

/// The ASCII serialization of a web origin: `https://host[:port]`, or
/// `http://` for localhost only; no path, query, fragment or user info.
fn check_origin(origin: &str) -> Result<(), String> {
    if origin.is_empty() || origin.len() > MAX_ORIGIN {
        return Err(format!("`origin` must be 1 to {MAX_ORIGIN} characters"));
    }
    let host_port = if let Some(rest) = origin.strip_prefix("https://") {
        rest
    } else if let Some(rest) = origin.strip_prefix("http://") {
        let host = rest.rsplit_once(':').map_or(rest, |(h, _)| h);
        if !matches!(host, "localhost" | "127.0.0.1" | "[::1]") {
            return Err("`origin` must be https (http only for localhost)".into());
        }
        rest
    } else {
        return Err("`origin` must start with https://".into());
    };
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if host_port.is_empty() || !host_port.chars().all(ok_char) {
        return Err(
            "`origin` must be scheme://host[:port] (no path, query, user info or trailing slash)"
                .into(),
        );
    }
    Ok(())
}

fn default_namespace(doc_type: &str) -> Option<&'static str> {
    match doc_type {
        "org.iso.18013.5.1.mDL" => Some("org.iso.18013.5.1"),
        "eu.europa.ec.av.1" => Some("eu.europa.ec.av.1"),
        _ => None,
    }
}

fn parse_create(bytes: &[u8]) -> Result<Create, Verdict> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| bad("bad_json", format!("Error reading request body: {e}")))?;
    let Some(m) = v.as_object() else {
        return Err(bad(
            "bad_json",
            "Error reading request body: expected a JSON object",
        ));
    };
    let text = |k: &str| -> Result<Option<&str>, Verdict> {
        match m.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(bad("bad_json", format!("`{k}` must be a string"))),
        }
    };
    let origin = text("origin")?
        .ok_or_else(|| bad("bad_json", "missing `origin` (the website's origin)"))?;
    check_origin(origin).map_err(|e| bad("bad_origin", e))?;
    let kind = match text("handover")? {
        None | Some("dcapi") | Some("org-iso-mdoc") => Kind::DcApi,
        Some("openid4vp") | Some("OpenID4VPDCAPIHandover") => Kind::OpenId4Vp,
        Some(other) => {
            return Err(bad(
                "bad_json",
                format!("`handover` `{other}`: expected `dcapi` or `openid4vp`"),
            ))
        }
    };
    let doc_type = text("docType")?
        .unwrap_or("org.iso.18013.5.1.mDL")
        .to_owned();
    if doc_type.is_empty() || doc_type.len() > MAX_ORIGIN {
        return Err(bad("bad_json", "`docType` must be 1 to 256 characters"));
    }
    let mut elements = Vec::new();
    match m.get("attributes") {
        None | Some(Value::Null) => {
            let ns = default_namespace(&doc_type).ok_or_else(|| {
                bad(
                    "bad_json",
                    format!("`attributes` is required for docType `{doc_type}`"),
                )
            })?;
            elements.push((ns.to_owned(), "age_over_18".to_owned()));
        }
        Some(Value::Array(list)) => {
            if list.is_empty() || list.len() > 4 {
                return Err(bad(
                    "bad_json",
                    "`attributes` must list 1 to 4 `NAMESPACE/IDENTIFIER` strings",
                ));
            }
            for a in list {
                let Some((ns, id)) = a.as_str().and_then(|s| s.rsplit_once('/')) else {
                    return Err(bad(
                        "bad_json",
                        "each attribute must be a `NAMESPACE/IDENTIFIER` string",
                    ));
                };
                if ns.is_empty()
                    || id.is_empty()
                    || ns.len() > MAX_NAMESPACE
                    || id.len() > MAX_IDENTIFIER
                {
                    return Err(bad(
                        "bad_json",
                        format!("attribute `{ns}/{id}`: namespace 1 to {MAX_NAMESPACE} bytes, identifier 1 to {MAX_IDENTIFIER}"),
                    ));
                }
                let pair = (ns.to_owned(), id.to_owned());
                if elements.contains(&pair) {
                    return Err(bad("bad_json", format!("attribute `{ns}/{id}` twice")));
                }
                elements.push(pair);
            }
        }
        Some(_) => return Err(bad("bad_json", "`attributes` must be an array of strings")),
    }
    let nonce = text("nonce")?.map(str::to_owned);
    if let Some(n) = &nonce {
        if kind != Kind::OpenId4Vp {
            return Err(bad(
                "bad_json",
                "`nonce` is for OpenID4VP sessions; Annex C sessions draw their own",
            ));
        }
        if n.len() < MIN_NONCE || n.len() > MAX_NONCE || !n.bytes().all(|c| c.is_ascii_graphic()) {
            return Err(bad(
                "bad_json",
                format!("`nonce` must be {MIN_NONCE} to {MAX_NONCE} printable ASCII characters"),
            ));
        }
    }
    let encrypted = match text("responseMode")? {
        None => kind == Kind::OpenId4Vp,
        Some(mode) if kind != Kind::OpenId4Vp => {
            return Err(bad(
                "bad_json",
                format!("`responseMode` `{mode}` is for OpenID4VP sessions; Annex C responses are always HPKE-encrypted"),
            ))
        }
        Some(RESPONSE_MODE_DC_API_JWT) => true,
        Some(RESPONSE_MODE_DC_API) => false,
        Some(other) => {
            return Err(bad(
                "bad_json",
                format!("`responseMode` `{other}`: expected `{RESPONSE_MODE_DC_API_JWT}` (encrypted, the default) or `{RESPONSE_MODE_DC_API}`"),
            ))
        }
    };
    Ok(Create {
        origin: origin.to_owned(),
        kind,
        doc_type,
        elements,
        nonce,
        encrypted,
    })
}

fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    OsRng.fill_bytes(&mut b);
    b
}

/// `POST /sessions`.
pub(crate) async fn create(State(state): State<Arc<AppState>>, req: Request) -> Response {
    if req.method() != Method::POST {
        return not_post();
    }
    let Ok(bytes) = to_bytes(req.into_body(), MAX_CREATE_BODY).await else {
        return json_response(
            413,
            &json!({ "error": format!("Error reading request body: larger than {MAX_CREATE_BODY} bytes (or interrupted)") }),
            "body_too_large",
        );
    };
    let c = match parse_create(&bytes) {
        Ok(c) => c,
        Err(v) => return verdict_response(&v),
    };
    if let Err(v) = state.policy.check_names(&c.doc_type, &c.elements) {
        return verdict_response(&bad(v.code, v.message));
    }
    let n = c.elements.len();
    let specs: Vec<ZkSystemSpec> = state
        .circuits
        .specs()
        .iter()
        .filter(|s| s.info.num_attributes == n)
        .filter(|s| {
            state
                .policy
                .check_circuit(s.info.version, &s.circuit_hash_hex())
                .is_ok()
        })
        .map(ZkSystemSpec::from_spec)
        .collect();
    if specs.is_empty() {
        return verdict_response(&bad(
            "no_circuit",
            format!("no loaded, accepted circuit proves {n} attribute(s)"),
        ));
    }
    let device_request = DeviceRequest {
        doc_type: c.doc_type.clone(),
        elements: c
            .elements
            .iter()
            .map(|(ns, id)| RequestedElement {
                namespace: ns.clone(),
                id: id.clone(),
                intent_to_retain: false,
            })
            .collect(),
        zk_system_specs: specs.clone(),
        zk_required: true,
    };
    let device_request_b64 = URL_SAFE_NO_PAD.encode(device_request.encode());
    let id = hex_id(&random::<16>());
    let ttl = state.sessions.limits().ttl.as_secs();

    let mut body = Map::new();
    body.insert("id".into(), json!(id));
    body.insert("expiresIn".into(), json!(ttl));
    body.insert("origin".into(), json!(c.origin));
    body.insert("deviceRequest".into(), json!(device_request_b64));
    let (handover, key) = match c.kind {
        Kind::DcApi => {
            let key = RecipientKey::generate(&mut OsRng);
            let info_b64 = key.encryption_info(random::<16>().to_vec()).to_base64url();
            body.insert("handover".into(), json!("dcapi"));
            body.insert("encryptionInfo".into(), json!(info_b64));
            body.insert(
                "request".into(),
                json!({
                    "protocol": PROTOCOL_ORG_ISO_MDOC,
                    "data": {"deviceRequest": device_request_b64, "encryptionInfo": info_b64},
                }),
            );
            (
                Handover::DcApi {
                    encryption_info_b64: info_b64,
                    origin: c.origin.clone(),
                },
                SessionKey::Hpke(key),
            )
        }
        Kind::OpenId4Vp => {
            let nonce = c
                .nonce
                .clone()
                .unwrap_or_else(|| URL_SAFE_NO_PAD.encode(random::<32>()));
            // A fresh key per session, named by a random `kid` (the
            // thumbprint would do as well, but a random name says nothing
            // about the key).
            let key = c
                .encrypted
                .then(|| JweRecipientKey::generate(hex_id(&random::<8>()), &mut OsRng));
            body.insert("handover".into(), json!("openid4vp"));
            body.insert("nonce".into(), json!(nonce));
            body.insert(
                "request".into(),
                json!({
                    "protocol": PROTOCOL_OPENID4VP_UNSIGNED,
                    "data": openid4vp_request(&nonce, &c, &specs, key.as_ref()),
                }),
            );
            (
                Handover::OpenId4Vp {
                    origin: c.origin.clone(),
                    nonce,
                    jwk_thumbprint: key.as_ref().map(JweRecipientKey::thumbprint),
                },
                key.map_or(SessionKey::None, SessionKey::Jwe),
            )
        }
    };
    let session = Session {
        handover,
        key,
        expected: Expected {
            doc_type: c.doc_type,
            elements: c.elements,
        },
    };
    let stored = state.sessions.insert(id, session);
    state
        .metrics
        .sessions_held
        .store(state.sessions.len() as u64, Ordering::Relaxed);
    if stored.is_err() {
        return json_response(
            503,
            &json!({ "error": format!(
                "too many open sessions ({} held, --max-sessions); retry later",
                state.sessions.limits().max_sessions
            ) }),
            "sessions_full",
        );
    }
    json_response(201, &Value::Object(body), "session_created")
}

fn hex_id(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The unsigned OpenID4VP request: DCQL for one `mso_mdoc_zk` credential
/// whose `meta.zk_system_type` lists the accepted systems (the flat
/// `{system, id, params…}` objects Google's protocols page and Multipaz
/// use). With `key`, the response comes back encrypted to it (`response_mode`
/// `dc_api.jwt`, OpenID4VP 1.0 §8.3: the key in `client_metadata.jwks`, the
/// content encryption algorithms in
/// `encrypted_response_enc_values_supported`); without, in the clear
/// (`dc_api`).
fn openid4vp_request(
    nonce: &str,
    c: &Create,
    specs: &[ZkSystemSpec],
    key: Option<&JweRecipientKey>,
) -> Value {
    let zk: Vec<Value> = specs
        .iter()
        .map(|s| {
            json!({
                "system": s.system,
                "id": s.zk_system_id,
                "version": s.version,
                "circuit_hash": s.circuit_hash,
                "num_attributes": s.num_attributes,
                "block_enc_hash": s.block_enc_hash,
                "block_enc_sig": s.block_enc_sig,
            })
        })
        .collect();
    let claims: Vec<Value> = c
        .elements
        .iter()
        .map(|(ns, id)| json!({ "path": [ns, id], "intent_to_retain": false }))
        .collect();
    let mut request = json!({
        "response_type": "vp_token",
        "response_mode": RESPONSE_MODE_DC_API,
        "nonce": nonce,
        "dcql_query": {
            "credentials": [{
                "id": "zk",
                "format": "mso_mdoc_zk",
                "meta": {"doctype_value": c.doc_type, "zk_system_type": zk},
                "claims": claims,
            }]
        }
    });
    if let Some(key) = key {
        let encs: Vec<&str> = ContentEncryption::ALL.iter().map(|e| e.name()).collect();
        request["response_mode"] = json!(RESPONSE_MODE_DC_API_JWT);
        request["client_metadata"] = json!({
            "jwks": {"keys": [key.public_jwk()]},
            "encrypted_response_enc_values_supported": encs,
        });
    }
    request
}

/// What the browser handed back.
#[derive(Debug)]
enum Payload {
    /// Annex C: the CBOR EncryptedResponse.
    Encrypted(Vec<u8>),
    /// Encrypted OpenID4VP: the compact JWE whose plaintext is
    /// `{"vp_token": …}`.
    Jwe(String),
    /// OpenID4VP: the (ZK) DeviceResponse CBOR.
    VpToken(Vec<u8>),
}

fn b64url(field: &str, s: &str) -> Result<Vec<u8>, Verdict> {
    B64URL.decode(s).map_err(|e| {
        bad(
            "bad_base64",
            format!("Error reading request body: `{field}` is not base64url: {e}"),
        )
    })
}

fn parse_payload(bytes: &[u8]) -> Result<Payload, Verdict> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| bad("bad_json", format!("Error reading request body: {e}")))?;
    let m = v.as_object();
    if let Some(r) = m.and_then(|m| m.get("response")) {
        let Some(s) = r.as_str() else {
            return Err(bad(
                "bad_json",
                "`response` must be a base64url string or a JWE",
            ));
        };
        // A compact JWE is base64url parts joined by `.`, which is not in
        // the base64url alphabet: the two forms cannot be confused.
        if s.contains('.') {
            return Ok(Payload::Jwe(s.to_owned()));
        }
        return Ok(Payload::Encrypted(b64url("response", s)?));
    }
    match vp_token_of(m)? {
        Some(token) => Ok(Payload::VpToken(token)),
        None => Err(bad(
            "bad_json",
            "Error reading request body: expected `response` (org-iso-mdoc, or encrypted OpenID4VP) or `vp_token` (OpenID4VP)",
        )),
    }
}

/// The presentation in `vp_token`, in either form; `None` if absent.
fn vp_token_of(m: Option<&Map<String, Value>>) -> Result<Option<Vec<u8>>, Verdict> {
    match m.and_then(|m| m.get("vp_token")) {
        Some(Value::String(s)) => Ok(Some(b64url("vp_token", s)?)),
        // DCQL form: {"<credential query id>": ["<b64url>"]}, one entry.
        Some(Value::Object(q)) if q.len() == 1 => {
            let token = q.values().next().and_then(|v| match v {
                Value::String(s) => Some(s.as_str()),
                Value::Array(a) if a.len() == 1 => a[0].as_str(),
                _ => None,
            });
            match token {
                Some(s) => Ok(Some(b64url("vp_token", s)?)),
                None => Err(bad(
                    "bad_json",
                    "`vp_token` must map one credential query id to one presentation",
                )),
            }
        }
        Some(_) => Err(bad(
            "bad_json",
            "`vp_token` must be a string or a one-entry DCQL object",
        )),
        None => Ok(None),
    }
}

/// Opens an encrypted OpenID4VP response: the JWE (at most `cap` bytes)
/// with the session's key, then the `vp_token` of its JSON plaintext. Any
/// failure to decrypt is `decrypt_failed`, as for Annex C; the key is
/// consumed either way.
fn open_jwe(key: JweRecipientKey, compact: &str, cap: usize) -> Result<Vec<u8>, Verdict> {
    let plain = key
        .decrypt(compact, cap, &ContentEncryption::ALL)
        .map_err(|e| {
            bad(
                "decrypt_failed",
                format!("session: cannot decrypt the response: {e}"),
            )
        })?;
    let v: Value = serde_json::from_slice(&plain).map_err(|e| {
        bad(
            "bad_json",
            format!("session: the decrypted response is not JSON: {e}"),
        )
    })?;
    vp_token_of(v.as_object())?.ok_or_else(|| {
        bad(
            "bad_json",
            "session: the decrypted response has no `vp_token`",
        )
    })
}

/// `POST /sessions/{id}/response`.
pub(crate) async fn respond(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    if req.method() != Method::POST {
        return not_post();
    }
    let cap = state.limits.max_body_bytes;
    let Ok(bytes) = to_bytes(req.into_body(), cap).await else {
        return json_response(
            413,
            &json!({ "error": format!("Error reading request body: larger than {cap} bytes (or interrupted)") }),
            "body_too_large",
        );
    };
    // Nothing that fails before this point uses up the session.
    let payload = match parse_payload(&bytes) {
        Ok(p) => p,
        Err(v) => return verdict_response(&v),
    };
    let admitted = match admit(&state) {
        Ok(a) => a,
        Err(v) => return verdict_response(&v),
    };
    let taken = state.sessions.take(&id);
    state
        .metrics
        .sessions_held
        .store(state.sessions.len() as u64, Ordering::Relaxed);
    let session = match taken {
        Ok(s) => s,
        Err(TakeError::Unknown) => {
            return json_response(404, &json!({"error": "unknown session"}), "unknown_session")
        }
        Err(TakeError::Expired) => {
            return json_response(410, &json!({"error": "session expired"}), "session_expired")
        }
        Err(TakeError::Answered) => {
            return json_response(
                409,
                &json!({"error": "session already answered (a session takes one response)"}),
                "session_replayed",
            )
        }
    };
    let st = Arc::clone(&state);
    match run_with_permit(&state, admitted, move || answer(&st, session, payload)).await {
        Ok(v) | Err(v) => verdict_response(&v),
    }
}

/// Decrypts (Annex C HPKE or OpenID4VP JWE), rebuilds the transcript and
/// verifies; the session's
/// key is consumed here.
fn answer(state: &AppState, session: Session, payload: Payload) -> Verdict {
    let Session {
        handover,
        key,
        expected,
    } = session;
    let transcript = handover.session_transcript();
    let device_response = match (key, payload) {
        (SessionKey::Hpke(key), Payload::Encrypted(bytes)) => {
            let sealed = match EncryptedResponse::decode(&bytes, state.limits.max_body_bytes) {
                Ok(s) => s,
                Err(e) => {
                    return Verdict::bad_request(
                        "bad_cbor",
                        format!("Error processing cbor request: {e}"),
                    )
                }
            };
            match key.open(&sealed, &transcript) {
                Ok(plain) => plain,
                Err(e) => {
                    return Verdict::bad_request(
                        "decrypt_failed",
                        format!("session: cannot decrypt the response: {e}"),
                    )
                }
            }
        }
        (SessionKey::Jwe(key), Payload::Jwe(compact)) => {
            match open_jwe(key, &compact, state.limits.max_body_bytes) {
                Ok(token) => token,
                Err(v) => return v,
            }
        }
        (SessionKey::None, Payload::VpToken(bytes)) => bytes,
        (SessionKey::Hpke(_), _) => {
            return Verdict::bad_request(
                "wrong_payload",
                "session: an org-iso-mdoc session takes `response` (the HPKE EncryptedResponse, base64url), not `vp_token` or a JWE".into(),
            )
        }
        (SessionKey::Jwe(_), _) => {
            return Verdict::bad_request(
                "wrong_payload",
                "session: an encrypted OpenID4VP session takes `response` (a JWE), not `vp_token` or an EncryptedResponse".into(),
            )
        }
        (SessionKey::None, _) => {
            return Verdict::bad_request(
                "wrong_payload",
                "session: an unencrypted OpenID4VP session takes `vp_token`, not `response`".into(),
            )
        }
    };
    verify_expected(
        &state.circuits,
        &state.trust,
        &state.policy,
        state.now(),
        &transcript,
        &device_response,
        Some(&expected),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use longfellow_dcapi::{jwe_encrypt, EncryptParams, JwePublicKey};

    fn create(body: Value) -> Result<Create, Verdict> {
        parse_create(body.to_string().as_bytes())
    }

    #[test]
    fn openid4vp_sessions_are_encrypted_unless_asked_not_to_be() {
        let vp = |extra: Value| {
            let mut b = json!({"origin": "https://rp.example", "handover": "openid4vp"});
            if let (Some(b), Some(e)) = (b.as_object_mut(), extra.as_object()) {
                b.extend(e.clone());
            }
            create(b)
        };
        assert!(vp(json!({})).expect("well-formed test input").encrypted);
        assert!(
            vp(json!({"responseMode": "dc_api.jwt"}))
                .expect("well-formed test input")
                .encrypted
        );
        assert!(
            !vp(json!({"responseMode": "dc_api"}))
                .expect("well-formed test input")
                .encrypted
        );
        let e = vp(json!({"responseMode": "direct_post"})).expect_err("must be refused");
        assert_eq!(e.reason, "bad_json");
        assert!(e.body["error"]
            .as_str()
            .expect("well-formed test input")
            .contains("dc_api.jwt"));
        // Annex C has its own encryption; the option is refused there.
        assert!(
            !create(json!({"origin": "https://rp.example"}))
                .expect("well-formed test input")
                .encrypted
        );
        let e = create(json!({"origin": "https://rp.example", "responseMode": "dc_api"}))
            .expect_err("must be refused");
        assert!(e.body["error"]
            .as_str()
            .expect("well-formed test input")
            .contains("OpenID4VP"));
    }

    #[test]
    fn encrypted_request_publishes_the_key_and_mode() {
        let c = create(json!({"origin": "https://rp.example", "handover": "openid4vp"}))
            .expect("well-formed test input");
        let key = JweRecipientKey::generate("kid-1".into(), &mut OsRng);
        let r = openid4vp_request("n", &c, &[], Some(&key));
        assert_eq!(r["response_mode"], "dc_api.jwt");
        let jwk = &r["client_metadata"]["jwks"]["keys"][0];
        assert_eq!(
            r["client_metadata"]["jwks"]["keys"]
                .as_array()
                .expect("well-formed test input")
                .len(),
            1
        );
        assert_eq!(
            (
                &jwk["kty"],
                &jwk["crv"],
                &jwk["kid"],
                &jwk["use"],
                &jwk["alg"]
            ),
            (
                &json!("EC"),
                &json!("P-256"),
                &json!("kid-1"),
                &json!("enc"),
                &json!("ECDH-ES")
            )
        );
        assert!(jwk.get("d").is_none(), "{jwk}");
        assert_eq!(
            r["client_metadata"]["encrypted_response_enc_values_supported"],
            json!(["A128GCM", "A256GCM"])
        );
        let plain = openid4vp_request("n", &c, &[], None);
        assert_eq!(plain["response_mode"], "dc_api");
        assert!(plain.get("client_metadata").is_none());
    }

    #[test]
    fn a_jwe_is_told_from_an_encrypted_response() {
        assert!(matches!(
            parse_payload(br#"{"response": "eyJh.."}"#),
            Ok(Payload::Jwe(s)) if s == "eyJh.."
        ));
        assert!(matches!(
            parse_payload(br#"{"response": "oQE"}"#),
            Ok(Payload::Encrypted(b)) if b == [0xa1, 0x01]
        ));
        assert_eq!(
            parse_payload(br#"{"response": "***"}"#)
                .expect_err("must be refused")
                .reason,
            "bad_base64"
        );
    }

    fn sealed_to(key: &JweRecipientKey, plaintext: &[u8]) -> String {
        let public = JwePublicKey::from_jwk(&key.public_jwk()).expect("well-formed test input");
        jwe_encrypt(
            &public,
            ContentEncryption::A128Gcm,
            &EncryptParams::default(),
            plaintext,
            &mut OsRng,
        )
        .expect("well-formed test input")
    }

    #[test]
    fn open_jwe_reads_the_vp_token_and_refuses_what_does_not_decrypt() {
        let body = br#"{"vp_token": {"zk": ["oQE"]}}"#;
        let key = JweRecipientKey::generate("k".into(), &mut OsRng);
        let jwe = sealed_to(&key, body);
        assert_eq!(
            open_jwe(key, &jwe, 1 << 20).expect("well-formed test input"),
            [0xa1, 0x01]
        );

        // One ciphertext bit flipped.
        let key = JweRecipientKey::generate("k".into(), &mut OsRng);
        let mut parts: Vec<String> = sealed_to(&key, body).split('.').map(Into::into).collect();
        let mut ct = URL_SAFE_NO_PAD
            .decode(&parts[3])
            .expect("well-formed test input");
        ct[0] ^= 1;
        parts[3] = URL_SAFE_NO_PAD.encode(ct);
        let e = open_jwe(key, &parts.join("."), 1 << 20).expect_err("must be refused");
        assert_eq!((e.status, e.reason), (400, "decrypt_failed"));
        assert!(e.body["error"]
            .as_str()
            .expect("well-formed test input")
            .contains("JWE decryption failed"));

        // Another session's key (same kid, so only the tag tells).
        let other = JweRecipientKey::generate("k".into(), &mut OsRng);
        let jwe = sealed_to(&other, body);
        let key = JweRecipientKey::generate("k".into(), &mut OsRng);
        assert_eq!(
            open_jwe(key, &jwe, 1 << 20)
                .expect_err("must be refused")
                .reason,
            "decrypt_failed"
        );

        // Over the cap; not JSON inside; no vp_token inside.
        let refusal = |plain: &[u8], cap: usize| {
            let key = JweRecipientKey::generate("k".into(), &mut OsRng);
            let jwe = sealed_to(&key, plain);
            open_jwe(key, &jwe, cap)
                .expect_err("must be refused")
                .reason
        };
        assert_eq!(refusal(body, 64), "decrypt_failed");
        assert_eq!(refusal(b"\xa1\x01", 1 << 20), "bad_json");
        assert_eq!(refusal(br#"{"id_token": "x"}"#, 1 << 20), "bad_json");
    }

    #[test]
    fn origins() {
        for ok in [
            "https://rp.example",
            "https://rp.example:8443",
            "http://localhost:3000",
            "http://127.0.0.1",
        ] {
            assert_eq!(check_origin(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "rp.example",
            "http://rp.example",
            "https://rp.example/",
            "https://rp.example/path",
            "https://user@rp.example",
            "https://rp.example?q",
            "https://",
            "ftp://rp.example",
        ] {
            assert!(check_origin(bad).is_err(), "{bad}");
        }
    }
}
