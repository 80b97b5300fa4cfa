//! `mdoc present --session-request`: the wallet's side of a Digital
//! Credentials API session, for tests and demos. Reads what
//! `POST /sessions` returned (or just its `request` member, the
//! `navigator.credentials.get()` request), builds the SessionTranscript
//! from the request and the caller's origin (which a real wallet gets from
//! the browser, never from the request), and wraps the ZK DeviceResponse
//! as the browser would hand it back: `{"response"}` (HPKE-sealed to the
//! session key) for `org-iso-mdoc`; for OpenID4VP `{"response": JWE}`
//! (ECDH-ES to the key in `client_metadata.jwks`) when the request's
//! `response_mode` is `dc_api.jwt`, `{"vp_token"}` when it is `dc_api`.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use longfellow_dcapi::{
    jwe_encrypt, seal, ContentEncryption, DeviceRequest, EncryptParams, EncryptionInfo, Handover,
    JwePublicKey, ZkSystemSpec, ALG_ECDH_ES, PROTOCOL_OPENID4VP_UNSIGNED, PROTOCOL_ORG_ISO_MDOC,
    RESPONSE_MODE_DC_API, RESPONSE_MODE_DC_API_JWT,
};
use longfellow_random::SeededOrOs;
use serde_json::{json, Value};

use super::present::{usage, PresentError};

/// What the wallet needs from a session request.
#[derive(Debug)]
pub struct SessionRequest {
    /// How the transcript is built (and whether to encrypt).
    pub handover: Handover,
    /// EncryptionInfo (Annex C only).
    pub encryption: Option<EncryptionInfo>,
    /// Requested docType.
    pub doc_type: String,
    /// Requested (namespace, identifier), in request order.
    pub elements: Vec<(String, String)>,
    /// Accepted ZK systems.
    pub specs: Vec<ZkSystemSpec>,
    /// The DCQL credential query id (OpenID4VP).
    pub query_id: Option<String>,
    /// The key and `enc` of an encrypted OpenID4VP response (`dc_api.jwt`).
    pub jwe: Option<(JwePublicKey, ContentEncryption)>,
}

/// The response encryption an OpenID4VP request asks for: the first
/// `ECDH-ES` P-256 encryption key of `client_metadata.jwks` and the first
/// supported `enc` it lists (`A128GCM` when it lists none, OpenID4VP 1.0
/// §8.3's default).
fn response_encryption(
    data: &Value,
) -> Result<Option<(JwePublicKey, ContentEncryption)>, PresentError> {
    match data.get("response_mode").and_then(Value::as_str) {
        None | Some(RESPONSE_MODE_DC_API) => return Ok(None),
        Some(RESPONSE_MODE_DC_API_JWT) => {}
        Some(other) => {
            return Err(usage(format!(
                "session request: response_mode `{other}` is not {RESPONSE_MODE_DC_API} or {RESPONSE_MODE_DC_API_JWT}"
            )))
        }
    }
    let meta = data
        .get("client_metadata")
        .ok_or_else(|| usage("session request: dc_api.jwt without client_metadata"))?;
    let key = meta
        .pointer("/jwks/keys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|k| {
            let is = |m: &str, v: &str| k.get(m).and_then(Value::as_str).is_none_or(|x| x == v);
            is("use", "enc") && is("alg", ALG_ECDH_ES) && is("kty", "EC") && is("crv", "P-256")
        })
        .ok_or_else(|| usage("session request: no ECDH-ES P-256 key in client_metadata.jwks"))?;
    let key = JwePublicKey::from_jwk(key).map_err(usage)?;
    let enc = match meta
        .get("encrypted_response_enc_values_supported")
        .and_then(Value::as_array)
    {
        None => ContentEncryption::A128Gcm,
        Some(list) => list
            .iter()
            .filter_map(Value::as_str)
            .find_map(ContentEncryption::from_name)
            .ok_or_else(|| usage("session request: no supported enc (A128GCM, A256GCM) offered"))?,
    };
    Ok(Some((key, enc)))
}

fn field<'a>(v: &'a Value, k: &str) -> Result<&'a str, PresentError> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| usage(format!("session request: missing string `{k}`")))
}

fn b64(what: &str, s: &str) -> Result<Vec<u8>, PresentError> {
    URL_SAFE_NO_PAD
        .decode(s.trim_end_matches('='))
        .map_err(|e| usage(format!("session request: `{what}` is not base64url: {e}")))
}

/// Parses the session request JSON for `origin`.
pub fn parse(json_bytes: &[u8], origin: &str) -> Result<SessionRequest, PresentError> {
    let v: Value =
        serde_json::from_slice(json_bytes).map_err(|e| usage(format!("session request: {e}")))?;
    let request = v.get("request").unwrap_or(&v);
    let data = request
        .get("data")
        .ok_or_else(|| usage("session request: missing `data`"))?;
    match field(request, "protocol")? {
        PROTOCOL_ORG_ISO_MDOC => {
            let dr = DeviceRequest::decode(&b64("deviceRequest", field(data, "deviceRequest")?)?)
                .map_err(usage)?;
            // The handover hashes the text exactly as received.
            let info_b64 = field(data, "encryptionInfo")?.to_owned();
            let info = EncryptionInfo::decode(&b64("encryptionInfo", &info_b64)?).map_err(usage)?;
            Ok(SessionRequest {
                handover: Handover::DcApi {
                    encryption_info_b64: info_b64,
                    origin: origin.to_owned(),
                },
                encryption: Some(info),
                doc_type: dr.doc_type,
                elements: dr
                    .elements
                    .into_iter()
                    .map(|e| (e.namespace, e.id))
                    .collect(),
                specs: dr.zk_system_specs,
                query_id: None,
                jwe: None,
            })
        }
        PROTOCOL_OPENID4VP_UNSIGNED => {
            let nonce = field(data, "nonce")?.to_owned();
            let cred = data
                .pointer("/dcql_query/credentials/0")
                .ok_or_else(|| usage("session request: no DCQL credential query"))?;
            let doc_type = cred
                .pointer("/meta/doctype_value")
                .and_then(Value::as_str)
                .ok_or_else(|| usage("session request: no meta.doctype_value"))?
                .to_owned();
            let mut elements = Vec::new();
            for c in cred
                .get("claims")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match c.get("path").and_then(Value::as_array).map(Vec::as_slice) {
                    Some([Value::String(ns), Value::String(id)]) => {
                        elements.push((ns.clone(), id.clone()))
                    }
                    _ => return Err(usage("session request: a claim path is not [ns, id]")),
                }
            }
            let mut specs = Vec::new();
            for z in cred
                .pointer("/meta/zk_system_type")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let n = |k: &str| z.get(k).and_then(Value::as_u64).unwrap_or(0);
                specs.push(ZkSystemSpec {
                    zk_system_id: field(z, "id")?.to_owned(),
                    system: field(z, "system")?.to_owned(),
                    version: n("version"),
                    circuit_hash: field(z, "circuit_hash")?.to_owned(),
                    num_attributes: n("num_attributes"),
                    block_enc_hash: n("block_enc_hash"),
                    block_enc_sig: n("block_enc_sig"),
                });
            }
            let jwe = response_encryption(data)?;
            Ok(SessionRequest {
                handover: Handover::OpenId4Vp {
                    origin: origin.to_owned(),
                    nonce,
                    // The transcript binds the key the response is
                    // encrypted to (OpenID4VP 1.0 Appendix B.2.6.2).
                    jwk_thumbprint: jwe.as_ref().map(|(k, _)| k.thumbprint()),
                },
                encryption: None,
                doc_type,
                elements,
                specs,
                query_id: Some(field(cred, "id")?.to_owned()),
                jwe,
            })
        }
        other => Err(usage(format!(
            "session request: protocol `{other}` is not {PROTOCOL_ORG_ISO_MDOC} or {PROTOCOL_OPENID4VP_UNSIGNED}"
        ))),
    }
}

impl SessionRequest {
    /// The offered spec for a circuit hash (lower-case hex).
    pub fn offered(&self, circuit_hash_hex: &str) -> Option<&ZkSystemSpec> {
        self.specs
            .iter()
            .find(|s| s.circuit_hash.eq_ignore_ascii_case(circuit_hash_hex))
    }

    /// What the browser hands back to the website, as JSON text.
    pub fn wrap(&self, zk_device_response: &[u8]) -> Result<String, PresentError> {
        let body = match (&self.encryption, &self.jwe) {
            (Some(info), _) => {
                // Fresh OS randomness for the ephemeral HPKE key, always.
                let sealed = seal(
                    info,
                    &self.handover.session_transcript(),
                    zk_device_response,
                    &mut SeededOrOs::new(None),
                )
                .map_err(usage)?;
                json!({ "response": URL_SAFE_NO_PAD.encode(sealed.encode()) })
            }
            (None, jwe) => {
                let id = self.query_id.clone().unwrap_or_else(|| "zk".into());
                let vp =
                    json!({ "vp_token": { id: [URL_SAFE_NO_PAD.encode(zk_device_response)] } });
                match jwe {
                    None => vp,
                    Some((key, enc)) => {
                        // Fresh OS randomness for the ephemeral key and IV.
                        let compact = jwe_encrypt(
                            key,
                            *enc,
                            &EncryptParams::default(),
                            vp.to_string().as_bytes(),
                            &mut SeededOrOs::new(None),
                        )
                        .map_err(usage)?;
                        json!({ "response": compact })
                    }
                }
            }
        };
        Ok(body.to_string())
    }
}
