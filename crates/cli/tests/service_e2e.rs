//! End to end on loopback: the test issuer (IACA root -> DS certificate in
//! the mdoc's x5chain) -> `longfellow mdoc present` -> `longfellow serve`
//! (trusting the root through a signed VICAL) accepts; then every class of
//! bad input gets the right HTTP status and a specific reason.

use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

use base64::Engine;
use longfellow_mdoc_issuer::pki::{document_signer, iaca_root, vical};
use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder};
use longfellow_mdoc_response::{decode, encode, X5Chain, ZkSystemId};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use serde_json::Value;

mod support;
use support::{http, pem, profile, start, t, Scratch};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const V7_2: &str = "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad";
const NOW: &str = "2026-06-01T12:00:00Z";
const MAX_BODY: usize = 1 << 20;

fn zkverify(addr: SocketAddr, transcript: &[u8], response: &[u8]) -> (u16, Value) {
    let b64 = base64::engine::general_purpose::STANDARD;
    let body = serde_json::json!({
        "Transcript": b64.encode(transcript),
        "ZKDeviceResponseCBOR": b64.encode(response),
    });
    raw(addr, body.to_string().as_bytes())
}

fn raw(addr: SocketAddr, body: &[u8]) -> (u16, Value) {
    let (status, bytes) = http(addr, "POST", "/zkverify", body).expect("request");
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("JSON answer, got {:?}", String::from_utf8_lossy(&bytes)));
    (status, v)
}

fn assert_rejected(answer: &(u16, Value), status: u16, needle: &str) {
    let (s, v) = answer;
    assert_eq!(*s, status, "{v}");
    let text = if status == 200 {
        assert_eq!(v["Status"], Value::Bool(false), "{v}");
        v["Message"].as_str().unwrap_or_default().to_owned()
    } else {
        v["error"].as_str().unwrap_or_default().to_owned()
    };
    assert!(text.contains(needle), "expected `{needle}` in `{text}`");
}

#[test]
fn issuer_to_wallet_to_service() {
    longfellow_testvectors::require!();
    let mut rng = ChaCha20Rng::seed_from_u64(15);
    let root_key = IssuerKey::random(&mut rng);
    let root = iaca_root(
        &root_key,
        &profile("E2E IACA", "2026-01-01T00:00:00Z", "2036-01-01T00:00:00Z"),
        &mut rng,
    );
    let ds_key = IssuerKey::random(&mut rng);
    let ds = document_signer(
        &ds_key,
        &profile("E2E DS", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &root_key,
        "E2E IACA",
        &mut rng,
    );
    let expired_ds = document_signer(
        &ds_key,
        &profile("E2E DS", "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z"),
        &root_key,
        "E2E IACA",
        &mut rng,
    );
    let other_key = IssuerKey::random(&mut rng);
    let other_root_cn = "Unknown IACA";
    let unknown_ds = document_signer(
        &ds_key,
        &profile("E2E DS", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &other_key,
        other_root_cn,
        &mut rng,
    );
    let signer_key = IssuerKey::random(&mut rng);
    let signer = iaca_root(
        &signer_key,
        &profile(
            "E2E VICAL signer",
            "2026-01-01T00:00:00Z",
            "2030-01-01T00:00:00Z",
        ),
        &mut rng,
    );
    let list = vical(
        &signer_key,
        &signer,
        "E2E provider",
        &t("2026-05-01T00:00:00Z"),
        std::slice::from_ref(&root),
    )
    .expect("vical");

    // Issue an EU age attestation whose IssuerAuth x5chain is the DS.
    let device = DeviceKey::random(&mut rng);
    let transcript =
        dc_api_session_transcript("https://rp.example", "nonce-15").expect("transcript");
    let day = Duration::from_secs(86_400);
    let mdoc = MdocBuilder::age_verification()
        .valid_around(t(NOW), day, 30 * day)
        .expect("validity")
        .x5chain(ds.clone())
        .build(&ds_key, &device, &transcript, &mut rng)
        .expect("mdoc");

    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let dir = Scratch::new("service-e2e");
    let circuit_dir = dir.path("circuits");
    std::fs::create_dir_all(&circuit_dir).expect("dir");
    let link = circuit_dir.join(format!("{V7_1}.lfa2"));
    if !link.exists() {
        std::fs::copy(&circuit, &link).expect("copy circuit");
    }

    // Wallet: mdoc present.
    let out = dir.path("zkresponse.cbor");
    let status = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["mdoc", "present", "--circuit"])
        .arg(&circuit)
        .arg("--mdoc")
        .arg(dir.write("mdoc.cbor", &mdoc.device_response))
        .arg("--transcript")
        .arg(dir.write("transcript.cbor", &transcript))
        .args([
            "--attribute",
            "eu.europa.ec.av.1/age_over_18",
            "--now",
            NOW,
            "--seed",
            "7",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("present");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let response = std::fs::read(&out).expect("response");
    let decoded = decode(&response).expect("our own response decodes");
    assert_eq!(
        decoded.documents[0].data.mso_x5chain,
        X5Chain::Single(ds.clone())
    );
    assert_eq!(decoded.documents[0].data.zk_system_id.as_str(), V7_1);

    // A bad VICAL signature stops the service at start, with the reason.
    let mut bad_list = list.clone();
    let n = bad_list.len();
    bad_list[n - 1] ^= 1;
    let bad = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["serve", "--port", "0", "--circuit-dir"])
        .arg(&circuit_dir)
        .arg("--vical")
        .arg(dir.write("bad-vical.cbor", &bad_list))
        .arg("--vical-signer")
        .arg(dir.write("signer.pem", pem(&signer).as_bytes()))
        .args(["--verify-time", NOW])
        .output()
        .expect("serve");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("VICAL signature"), "{err}");

    // The service, trusting the IACA root only through the VICAL.
    let server = start(&[
        "--circuit-dir".into(),
        circuit_dir.display().to_string(),
        "--vical".into(),
        dir.write("vical.cbor", &list).display().to_string(),
        "--vical-signer".into(),
        dir.write("signer.pem", pem(&signer).as_bytes())
            .display()
            .to_string(),
        "--verify-time".into(),
        NOW.into(),
        "--max-body-bytes".into(),
        MAX_BODY.to_string(),
    ]);
    let addr = server.addr;

    // Accepted, with the claim echoed as raw CBOR (true = 0xf5).
    let (s, v) = zkverify(addr, &transcript, &response);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["Status"], Value::Bool(true), "{v}");
    assert_eq!(
        v["Claims"]["eu.europa.ec.av.1"][0]["ElementIdentifier"],
        "age_over_18"
    );
    assert_eq!(v["Claims"]["eu.europa.ec.av.1"][0]["ElementValue"], "9Q==");

    // The spec-id form of zkSystemId is accepted too.
    let mut r = decoded.clone();
    let spec = longfellow_mdoc::ZkSpec::for_version(7, 1).expect("spec");
    r.documents[0].data.zk_system_id = ZkSystemId::spec_id_of(&spec);
    let (s, v) = zkverify(addr, &transcript, &encode(&r).expect("encode"));
    assert_eq!((s, &v["Status"]), (200, &Value::Bool(true)), "{v}");

    let with = |f: &dyn Fn(&mut longfellow_mdoc_response::ZkDeviceResponse)| {
        let mut r = decoded.clone();
        f(&mut r);
        encode(&r).expect("encode")
    };

    // Unknown root, expired DS.
    let bytes = with(&|r| r.documents[0].data.mso_x5chain = X5Chain::Single(unknown_ds.clone()));
    assert_rejected(&zkverify(addr, &transcript, &bytes), 400, "unknown issuer");
    let bytes = with(&|r| r.documents[0].data.mso_x5chain = X5Chain::Single(expired_ds.clone()));
    assert_rejected(&zkverify(addr, &transcript, &bytes), 400, "is not valid at");
    // Tampered proof.
    let bytes = with(&|r| {
        let p = &mut r.documents[0].proof;
        let i = p.len() / 2;
        p[i] ^= 0x01;
    });
    assert_rejected(
        &zkverify(addr, &transcript, &bytes),
        200,
        "verification failure",
    );
    // Wrong transcript.
    let other = dc_api_session_transcript("https://evil.example", "nonce-15").expect("transcript");
    assert_rejected(
        &zkverify(addr, &other, &response),
        200,
        "verification failure",
    );
    // Stale timestamp (one day back).
    let bytes = with(&|r| {
        r.documents[0].data.timestamp =
            longfellow_mdoc_response::Timestamp::parse("2026-05-31T12:00:00Z").expect("ts")
    });
    assert_rejected(&zkverify(addr, &transcript, &bytes), 200, "timestamp");
    // Two documents.
    let bytes = with(&|r| {
        let d = r.documents[0].clone();
        r.documents.push(d)
    });
    assert_rejected(
        &zkverify(addr, &transcript, &bytes),
        400,
        "expected 1 zkdocument, got 2",
    );
    // Wrong zkSystemId: a known circuit not loaded, and garbage.
    let bytes = with(&|r| r.documents[0].data.zk_system_id = ZkSystemId::new(V7_2));
    assert_rejected(
        &zkverify(addr, &transcript, &bytes),
        200,
        "invalid circuit id",
    );
    let bytes = with(&|r| {
        r.documents[0].data.zk_system_id = ZkSystemId::new("longfellow-libzk-v1_7_1_1_1_x")
    });
    assert_rejected(
        &zkverify(addr, &transcript, &bytes),
        200,
        "invalid circuit id",
    );
    // Oversized body.
    let big = vec![b' '; MAX_BODY + 10];
    assert_rejected(&raw(addr, &big), 413, "larger than");
    // Malformed base64, CBOR, JSON.
    assert_rejected(
        &raw(
            addr,
            br#"{"Transcript":"!!","ZKDeviceResponseCBOR":"AA=="}"#,
        ),
        400,
        "not standard base64",
    );
    let b64 = base64::engine::general_purpose::STANDARD;
    let body = serde_json::json!({"Transcript": b64.encode(&transcript), "ZKDeviceResponseCBOR": b64.encode([0xa1, 0x01])});
    assert_rejected(
        &raw(addr, body.to_string().as_bytes()),
        400,
        "Error processing cbor request",
    );
    let body = serde_json::json!({"Transcript": b64.encode(&transcript), "ZKDeviceResponseCBOR": b64.encode(&response[..response.len() - 7])});
    assert_rejected(
        &raw(addr, body.to_string().as_bytes()),
        400,
        "malformed CBOR",
    );
    assert_rejected(
        &raw(addr, b"{\"Transcript\": "),
        400,
        "Error reading request body",
    );
    assert_rejected(&raw(addr, b"[1,2]"), 400, "missing `Transcript`");

    // Still serving, and the reasons are counted.
    let (s, metrics) = http(addr, "GET", "/metrics", b"").expect("metrics");
    assert_eq!(s, 200);
    let metrics = String::from_utf8_lossy(&metrics).into_owned();
    for reason in [
        "verified",
        "unknown_issuer",
        "certificate_expired",
        "proof_rejected",
        "stale_timestamp",
        "document_count",
        "unknown_circuit",
        "body_too_large",
        "bad_base64",
        "bad_cbor",
        "bad_json",
    ] {
        assert!(
            metrics.contains(&format!("reason=\"{reason}\"")),
            "{reason} missing in {metrics}"
        );
    }
    drop(server);
}
