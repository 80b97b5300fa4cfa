//! The Digital Credentials API session flow end to end on loopback: test
//! issuer (IACA root -> DS) -> `POST /sessions` -> `longfellow mdoc present
//! --session-request` (transcript from the request and the origin, proof,
//! HPKE seal to the session key) -> `POST /sessions/{id}/response`. Then
//! replay, expiry, a wrong origin, altered ciphertext, unknown ids, a full
//! store and malformed bodies, each with its status and reason; both
//! handovers (Annex C `dcapi`, OpenID4VP), OpenID4VP both encrypted (JWE,
//! `dc_api.jwt`, the default) and in the clear (`dc_api`).

use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use longfellow_dcapi::{
    jwe_encrypt, seal, ContentEncryption, EncryptParams, EncryptionInfo, Handover, JwePublicKey,
};
use longfellow_mdoc_issuer::pki::{document_signer, iaca_root};
use longfellow_mdoc_issuer::{DeviceKey, IssuerKey, MdocBuilder};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use serde_json::{json, Value};

mod support;
use support::{http, pem, profile, start, t, Scratch, Server};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const NOW: &str = "2026-06-01T12:00:00Z";
const ORIGIN: &str = "https://rp.example";
const EVIL: &str = "https://evil.example";
const AV: &str = "eu.europa.ec.av.1";

fn post(addr: SocketAddr, path: &str, body: &[u8]) -> (u16, Value) {
    let (status, bytes) = http(addr, "POST", path, body).expect("request");
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("JSON answer, got {:?}", String::from_utf8_lossy(&bytes)));
    (status, v)
}

fn error_of(answer: &(u16, Value), status: u16) -> String {
    assert_eq!(answer.0, status, "{}", answer.1);
    answer.1["error"].as_str().unwrap_or_default().to_owned()
}

/// A well-formed answer whose proof does not verify (HTTP 200, `Status`
/// false, the verifier's "verification failure").
fn assert_verification_failure((s, v): &(u16, Value)) {
    assert_eq!((*s, &v["Status"]), (200, &Value::Bool(false)), "{v}");
    assert!(
        v["Message"]
            .as_str()
            .unwrap_or_default()
            .contains("verification failure"),
        "{v}"
    );
}

fn new_session(addr: SocketAddr, body: &Value) -> Value {
    let (s, v) = post(addr, "/sessions", body.to_string().as_bytes());
    assert_eq!(s, 201, "{v}");
    v
}

fn respond(addr: SocketAddr, session: &Value, body: &[u8]) -> (u16, Value) {
    let id = session["id"].as_str().expect("id");
    post(addr, &format!("/sessions/{id}/response"), body)
}

/// The wallet's world: the issuer keys, the circuit and the test's scratch
/// directory (removed with the wallet when the test ends).
struct Wallet {
    rng: ChaCha20Rng,
    ds_key: IssuerKey,
    ds: Vec<u8>,
    scratch: Scratch,
}

impl Wallet {
    /// An mdoc whose device signature covers `transcript` (a real wallet
    /// signs at presentation time; the test issuer signs at issuance).
    fn mdoc_for(&mut self, transcript: &[u8]) -> Vec<u8> {
        let device = DeviceKey::random(&mut self.rng);
        let day = Duration::from_secs(86_400);
        MdocBuilder::age_verification()
            .valid_around(t(NOW), day, 30 * day)
            .expect("validity")
            .x5chain(self.ds.clone())
            .build(&self.ds_key, &device, transcript, &mut self.rng)
            .expect("mdoc")
            .device_response
    }

    /// `mdoc present --session-request` as the browser at `origin` would
    /// run it; returns the JSON the browser hands back.
    fn present(&mut self, name: &str, session: &Value, origin: &str) -> Vec<u8> {
        let transcript = transcript_of(session, origin);
        let mdoc = self.mdoc_for(&transcript);
        let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
        let out = self.scratch.path(&format!("{name}.json"));
        let run = Command::new(env!("CARGO_BIN_EXE_longfellow"))
            .args(["mdoc", "present", "--circuit"])
            .arg(&circuit)
            .arg("--mdoc")
            .arg(self.scratch.write(&format!("{name}-mdoc.cbor"), &mdoc))
            .arg("--session-request")
            .arg(self.scratch.write(
                &format!("{name}-request.json"),
                session.to_string().as_bytes(),
            ))
            .args(["--origin", origin, "--now", NOW, "--seed", "7", "--out"])
            .arg(&out)
            .output()
            .expect("present");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        std::fs::read(&out).expect("response")
    }
}

/// The transcript as the wallet builds it, for the issuer's device
/// signature.
fn transcript_of(session: &Value, origin: &str) -> Vec<u8> {
    match session["handover"].as_str() {
        Some("dcapi") => Handover::DcApi {
            encryption_info_b64: session["encryptionInfo"].as_str().expect("info").into(),
            origin: origin.into(),
        },
        _ => Handover::OpenId4Vp {
            origin: origin.into(),
            nonce: session["nonce"].as_str().expect("nonce").into(),
            jwk_thumbprint: jwe_key(session).map(|k| k.thumbprint()),
        },
    }
    .session_transcript()
}

/// The response encryption key an OpenID4VP session published, if any.
fn jwe_key(session: &Value) -> Option<JwePublicKey> {
    let jwk = session.pointer("/request/data/client_metadata/jwks/keys/0")?;
    Some(JwePublicKey::from_jwk(jwk).expect("a P-256 JWK"))
}

/// A JWE of `{"vp_token": …}` to the key of `session`, as a wallet would
/// send it; `tamper` edits the five compact parts first.
fn jwe_body(session: &Value, token: &[u8], tamper: impl FnOnce(&mut Vec<Vec<u8>>)) -> Vec<u8> {
    let plain = json!({"vp_token": {"zk": [URL_SAFE_NO_PAD.encode(token)]}}).to_string();
    let compact = jwe_encrypt(
        &jwe_key(session).expect("an encrypted session"),
        ContentEncryption::A128Gcm,
        &EncryptParams::default(),
        plain.as_bytes(),
        &mut ChaCha20Rng::seed_from_u64(11),
    )
    .expect("encrypt");
    let mut parts: Vec<Vec<u8>> = compact
        .split('.')
        .map(|p| URL_SAFE_NO_PAD.decode(p).expect("b64url"))
        .collect();
    tamper(&mut parts);
    let compact: Vec<String> = parts.iter().map(|p| URL_SAFE_NO_PAD.encode(p)).collect();
    json!({"response": compact.join(".")})
        .to_string()
        .into_bytes()
}

fn serve(circuit_dir: &std::path::Path, roots: &std::path::Path, extra: &[&str]) -> Server {
    let mut args: Vec<String> = vec![
        "--circuit-dir".into(),
        circuit_dir.display().to_string(),
        "--cacerts".into(),
        roots.display().to_string(),
        "--verify-time".into(),
        NOW.into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    start(&args)
}

#[test]
fn website_session_to_wallet_to_service() {
    longfellow_testvectors::require!();
    let mut rng = ChaCha20Rng::seed_from_u64(187);
    let root_key = IssuerKey::random(&mut rng);
    let root = iaca_root(
        &root_key,
        &profile(
            "Session IACA",
            "2026-01-01T00:00:00Z",
            "2036-01-01T00:00:00Z",
        ),
        &mut rng,
    );
    let ds_key = IssuerKey::random(&mut rng);
    let ds = document_signer(
        &ds_key,
        &profile("Session DS", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &root_key,
        "Session IACA",
        &mut rng,
    );
    let mut wallet = Wallet {
        rng,
        ds_key,
        ds,
        scratch: Scratch::new("session-e2e"),
    };
    let roots = wallet
        .scratch
        .write("session-roots.pem", pem(&root).as_bytes());
    let circuit_dir = wallet.scratch.path("session-circuits");
    std::fs::create_dir_all(&circuit_dir).expect("dir");
    let link = circuit_dir.join(format!("{V7_1}.lfa2"));
    if !link.exists() {
        std::fs::copy(
            longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2")),
            &link,
        )
        .expect("copy circuit");
    }
    let server = serve(&circuit_dir, &roots, &[]);
    let addr = server.addr;
    let ask = json!({"origin": ORIGIN, "docType": AV, "attributes": [format!("{AV}/age_over_18")]});

    // --- Annex C (org-iso-mdoc): accepted once. ---
    let s1 = new_session(addr, &ask);
    assert_eq!(s1["request"]["protocol"], "org-iso-mdoc");
    assert_eq!(
        s1["request"]["data"]["encryptionInfo"], s1["encryptionInfo"],
        "{s1}"
    );
    let info = URL_SAFE_NO_PAD
        .decode(s1["encryptionInfo"].as_str().expect("info"))
        .expect("b64url");
    EncryptionInfo::decode(&info).expect("an EncryptionInfo");
    let r1 = wallet.present("s1", &s1, ORIGIN);
    // A malformed body does not use the session up.
    assert!(error_of(&respond(addr, &s1, b"{\"response\": "), 400)
        .contains("Error reading request body"));
    assert!(
        error_of(&respond(addr, &s1, b"{\"response\": \"***\"}"), 400).contains("not base64url")
    );
    assert!(error_of(&respond(addr, &s1, b"{}"), 400).contains("expected `response`"));
    let (s, v) = respond(addr, &s1, &r1);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["Status"], Value::Bool(true), "{v}");
    assert_eq!(v["Claims"][AV][0]["ElementIdentifier"], "age_over_18");
    assert_eq!(v["Claims"][AV][0]["ElementValue"], "9Q==");
    // Replay of the same response.
    assert!(error_of(&respond(addr, &s1, &r1), 409).contains("already answered"));

    // --- A phishing site's origin: the wallet binds evil.example; the
    // relying party rebuilds the transcript with its own origin, so the
    // HPKE `info` differs and nothing opens. ---
    let s2 = new_session(addr, &ask);
    let r2 = wallet.present("s2", &s2, EVIL);
    let answer = respond(addr, &s2, &r2);
    assert!(
        error_of(&answer, 400).contains("cannot decrypt"),
        "{}",
        answer.1
    );

    // --- Altered ciphertext: sealed correctly, one bit flipped. ---
    let s3 = new_session(addr, &ask);
    let info3 = EncryptionInfo::decode(
        &URL_SAFE_NO_PAD
            .decode(s3["encryptionInfo"].as_str().expect("info"))
            .expect("b64url"),
    )
    .expect("info");
    let mut sealed = seal(
        &info3,
        &transcript_of(&s3, ORIGIN),
        b"not a DeviceResponse",
        &mut ChaCha20Rng::seed_from_u64(3),
    )
    .expect("seal");
    sealed.cipher_text[3] ^= 0x01;
    let body = json!({"response": URL_SAFE_NO_PAD.encode(sealed.encode())}).to_string();
    let answer = respond(addr, &s3, body.as_bytes());
    assert!(
        error_of(&answer, 400).contains("HPKE decryption failed"),
        "{}",
        answer.1
    );
    // Sealed correctly but not a ZK DeviceResponse (fresh session).
    let s4 = new_session(addr, &ask);
    let info4 = EncryptionInfo::decode(
        &URL_SAFE_NO_PAD
            .decode(s4["encryptionInfo"].as_str().expect("info"))
            .expect("b64url"),
    )
    .expect("info");
    let sealed = seal(
        &info4,
        &transcript_of(&s4, ORIGIN),
        &[0xa1, 0x01],
        &mut ChaCha20Rng::seed_from_u64(4),
    )
    .expect("seal");
    let body = json!({"response": URL_SAFE_NO_PAD.encode(sealed.encode())}).to_string();
    assert!(error_of(&respond(addr, &s4, body.as_bytes()), 400)
        .contains("Error processing cbor request"));
    // Not an EncryptedResponse at all; the wrong payload kind.
    let s5 = new_session(addr, &ask);
    let body = json!({"response": URL_SAFE_NO_PAD.encode([0x82, 0x01])}).to_string();
    assert!(error_of(&respond(addr, &s5, body.as_bytes()), 400).contains("EncryptedResponse"));
    let s6 = new_session(addr, &ask);
    let body = json!({"vp_token": "AA"}).to_string();
    assert!(error_of(&respond(addr, &s6, body.as_bytes()), 400).contains("takes `response`"));

    // --- Encrypted OpenID4VP over the DC API (the default): the request
    // publishes a per-session ECDH-ES key, the wallet answers with a JWE,
    // the transcript binds the key's thumbprint. ---
    let mut ask_vp = ask.clone();
    ask_vp["handover"] = json!("openid4vp");
    let e1 = new_session(addr, &ask_vp);
    let data = &e1["request"]["data"];
    assert_eq!(data["response_mode"], "dc_api.jwt", "{e1}");
    let jwk = &data["client_metadata"]["jwks"]["keys"][0];
    assert_eq!(
        (&jwk["use"], &jwk["alg"]),
        (&json!("enc"), &json!("ECDH-ES"))
    );
    assert!(jwk["kid"].is_string() && jwk.get("d").is_none(), "{jwk}");
    assert_eq!(
        data["client_metadata"]["encrypted_response_enc_values_supported"][0],
        "A128GCM"
    );
    let r_e1 = wallet.present("e1", &e1, ORIGIN);
    let sent: Value = serde_json::from_slice(&r_e1).expect("json");
    assert_eq!(
        sent["response"].as_str().map(|s| s.split('.').count()),
        Some(5),
        "{sent}"
    );
    assert!(sent.get("vp_token").is_none(), "{sent}");
    let (s, v) = respond(addr, &e1, &r_e1);
    assert_eq!((s, &v["Status"]), (200, &Value::Bool(true)), "{v}");
    assert_eq!(v["Claims"][AV][0]["ElementValue"], "9Q==");
    assert!(error_of(&respond(addr, &e1, &r_e1), 409).contains("already answered"));
    // The same JWE sent to another session: another key, refused, and that
    // session is used up.
    let e2 = new_session(addr, &ask_vp);
    let answer = respond(addr, &e2, &r_e1);
    assert!(
        error_of(&answer, 400).contains("cannot decrypt"),
        "{}",
        answer.1
    );
    assert!(error_of(&respond(addr, &e2, &r_e1), 409).contains("already answered"));
    // A JWE to another session's key under this session's kid: only the
    // tag can tell.
    let e3 = new_session(addr, &ask_vp);
    let e3b = new_session(addr, &ask_vp);
    let mut forged = e3b.clone();
    forged["request"]["data"]["client_metadata"]["jwks"]["keys"][0]["kid"] =
        e3["request"]["data"]["client_metadata"]["jwks"]["keys"][0]["kid"].clone();
    let answer = respond(addr, &e3, &jwe_body(&forged, b"x", |_| {}));
    assert!(
        error_of(&answer, 400).contains("JWE decryption failed"),
        "{}",
        answer.1
    );
    // One ciphertext byte flipped.
    let e4 = new_session(addr, &ask_vp);
    let answer = respond(addr, &e4, &jwe_body(&e4, b"x", |p| p[3][0] ^= 0x01));
    assert!(
        error_of(&answer, 400).contains("JWE decryption failed"),
        "{}",
        answer.1
    );
    // Decrypts, but the plaintext is no ZK DeviceResponse.
    let answer = respond(addr, &e3b, &jwe_body(&e3b, &[0xa1, 0x01], |_| {}));
    assert!(error_of(&answer, 400).contains("cbor"), "{}", answer.1);
    // The unencrypted form sent to an encrypted session.
    let e5 = new_session(addr, &ask_vp);
    let body = json!({"vp_token": "AA"}).to_string();
    assert!(error_of(&respond(addr, &e5, body.as_bytes()), 400).contains("a JWE"));
    // A wallet phished by another origin: the JWE opens (same key), the
    // transcript the proof was made for does not match the service's.
    let e6 = new_session(addr, &ask_vp);
    let r = wallet.present("e6", &e6, EVIL);
    assert_verification_failure(&respond(addr, &e6, &r));

    // --- OpenID4VP in the clear (`responseMode: dc_api`, compatibility):
    // accepted, and a wrong origin fails the proof (no encryption: the
    // transcript binding is the proof's). ---
    ask_vp["responseMode"] = json!("dc_api");
    let v1 = new_session(addr, &ask_vp);
    assert_eq!(v1["request"]["protocol"], "openid4vp-v1-unsigned");
    assert_eq!(v1["request"]["data"]["response_mode"], "dc_api");
    assert!(v1["request"]["data"].get("client_metadata").is_none());
    assert_eq!(
        v1["request"]["data"]["dcql_query"]["credentials"][0]["meta"]["zk_system_type"][0]
            ["circuit_hash"],
        V7_1
    );
    let r = wallet.present("v1", &v1, ORIGIN);
    let (s, v) = respond(addr, &v1, &r);
    assert_eq!((s, &v["Status"]), (200, &Value::Bool(true)), "{v}");
    assert!(error_of(&respond(addr, &v1, &r), 409).contains("already answered"));
    let v2 = new_session(addr, &ask_vp);
    let r = wallet.present("v2", &v2, EVIL);
    assert_verification_failure(&respond(addr, &v2, &r));

    // --- Unknown ids, bad session requests, wrong methods. ---
    assert!(error_of(
        &post(
            addr,
            "/sessions/00000000000000000000000000000000/response",
            b"{\"response\":\"AA\"}"
        ),
        404
    )
    .contains("unknown session"));
    for (body, needle) in [
        (json!({}), "missing `origin`"),
        (json!({"origin": "https://rp.example/path"}), "origin"),
        (json!({"origin": "http://rp.example"}), "https"),
        (
            json!({"origin": ORIGIN, "handover": "bluetooth"}),
            "handover",
        ),
        (json!({"origin": ORIGIN, "attributes": []}), "1 to 4"),
        (
            json!({"origin": ORIGIN, "docType": AV, "attributes": [format!("{AV}/family_name")]}),
            "not accepted",
        ),
        (
            json!({"origin": ORIGIN, "docType": AV, "attributes": [format!("{AV}/age_over_18"), format!("{AV}/age_over_21")]}),
            "no loaded, accepted circuit proves 2",
        ),
        (
            json!({"origin": ORIGIN, "nonce": "0123456789abcdef"}),
            "OpenID4VP",
        ),
        (
            json!({"origin": ORIGIN, "responseMode": "dc_api"}),
            "OpenID4VP",
        ),
        (
            json!({"origin": ORIGIN, "handover": "openid4vp", "responseMode": "fragment"}),
            "dc_api.jwt",
        ),
    ] {
        let answer = post(addr, "/sessions", body.to_string().as_bytes());
        assert!(
            error_of(&answer, 400).contains(needle),
            "{body}: {}",
            answer.1
        );
    }
    assert!(error_of(&post(addr, "/sessions", b"not json"), 400).contains("Error reading"));
    let (s, _) = http(addr, "GET", "/sessions", b"").expect("get");
    assert_eq!(s, 405);

    let (s, metrics) = http(addr, "GET", "/metrics", b"").expect("metrics");
    assert_eq!(s, 200);
    let metrics = String::from_utf8_lossy(&metrics).into_owned();
    for reason in [
        "session_created",
        "verified",
        "session_replayed",
        "decrypt_failed",
        "unknown_session",
        "wrong_payload",
        "bad_origin",
    ] {
        assert!(
            metrics.contains(&format!("reason=\"{reason}\"")),
            "{reason} missing in {metrics}"
        );
    }
    assert!(
        metrics.contains("route=\"/sessions/{id}/response\""),
        "{metrics}"
    );
    drop(server);

    // --- Expiry and a bounded store: TTL 1 s, at most 2 sessions. ---
    let small = serve(
        &circuit_dir,
        &roots,
        &["--session-ttl-secs", "1", "--max-sessions", "2"],
    );
    let a = new_session(small.addr, &ask);
    new_session(small.addr, &ask);
    let full = post(small.addr, "/sessions", ask.to_string().as_bytes());
    assert!(error_of(&full, 503).contains("too many open sessions"));
    std::thread::sleep(Duration::from_millis(1500));
    let body = json!({"response": "AA"}).to_string();
    assert!(error_of(&respond(small.addr, &a, body.as_bytes()), 410).contains("expired"));
    // Expired sessions are swept when the store is full.
    new_session(small.addr, &ask);
    new_session(small.addr, &ask);
}
