//! Google's two example requests give Google's answer, through the HTTP
//! router, with the clock fixed at 2025-12-02T00:00:00Z.

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use longfellow_service::{router, AppState, Circuits, Limits, Policy};
use longfellow_trust::TrustStore;
use serde_json::Value;
use tower::ServiceExt;

const V6_1: &str = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";
const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
/// 2025-12-02T00:00:00Z.
const VERIFY_TIME: i64 = 1_764_633_600;

fn example(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../test-vectors/google-examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example")
}

fn circuits() -> Circuits {
    let mut c = Circuits::default();
    for h in [V6_1, V7_1] {
        let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{h}.lfa2"));
        c.insert(longfellow_circuit::load_pair(&bytes).expect("circuit"))
            .expect("verifier");
    }
    c
}

fn state(policy: Policy) -> Arc<AppState> {
    let mut trust = TrustStore::new();
    let pem = String::from_utf8(example("certs.pem")).expect("utf8");
    trust.add_pem_bundle(&pem).expect("pem");
    Arc::new(AppState::new(
        circuits(),
        trust,
        policy,
        Some(VERIFY_TIME),
        Limits::default(),
    ))
}

async fn post_text(state: &Arc<AppState>, body: Vec<u8>) -> (u16, String) {
    let req = Request::post("/zkverify")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("request");
    let resp = router(Arc::clone(state))
        .oneshot(req)
        .await
        .expect("response");
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, String::from_utf8(bytes.to_vec()).expect("utf8"))
}

async fn post(state: &Arc<AppState>, body: Vec<u8>) -> (u16, Value) {
    let req = Request::post("/zkverify")
        .header("content-type", "application/json")
        .body(Body::from(body))
        .expect("request");
    let resp = router(Arc::clone(state))
        .oneshot(req)
        .await
        .expect("response");
    let status = resp.status().as_u16();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (status, serde_json::from_slice(&bytes).expect("JSON body"))
}

fn google_answer() -> Value {
    serde_json::from_str(
        r#"{"Status":true,"Claims":{"org.iso.18013.5.1":[{"ElementIdentifier":"age_over_18","ElementValue":"9Q=="}]}}"#,
    )
    .expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_examples_verify_in_google_compatible_mode() {
    longfellow_testvectors::require!();
    let s = state(Policy::google_compatible());
    for name in ["post1.json", "post2.json"] {
        let (status, body) = post(&s, example(name)).await;
        assert_eq!((status, &body), (200, &google_answer()), "{name}");
    }
    // Byte for byte what Google's README shows (plus Go's trailing newline).
    let (status, text) = post_text(&s, example("post1.json")).await;
    assert_eq!(
        (status, text.as_str()),
        (
            200,
            "{\"Status\":true,\"Claims\":{\"org.iso.18013.5.1\":[{\"ElementIdentifier\":\"age_over_18\",\"ElementValue\":\"9Q==\"}]}}\n"
        )
    );
    let metrics = s.metrics.render();
    assert!(
        metrics.contains("longfellow_zkverify_answers_total{reason=\"verified\"} 3"),
        "{metrics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strict_mode_accepts_post1_and_names_the_stale_timestamp_of_post2() {
    longfellow_testvectors::require!();
    let s = state(Policy::default());
    let (status, body) = post(&s, example("post1.json")).await;
    assert_eq!((status, &body), (200, &google_answer()));
    // post2's timestamp is 2026-01-12T23:59:59Z, 41 days after the clock.
    let (status, body) = post(&s, example("post2.json")).await;
    assert_eq!(status, 200);
    assert_eq!(body["Status"], Value::Bool(false));
    let msg = body["Message"].as_str().expect("message");
    assert!(
        msg.contains("timestamp") && msg.contains("--timestamp-window"),
        "{msg}"
    );
    // The claims are echoed, as Google does on failure.
    assert_eq!(body["Claims"], google_answer()["Claims"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn specs_healthz_and_metrics() {
    longfellow_testvectors::require!();
    let s = state(Policy::default());
    let app = router(Arc::clone(&s));
    let resp = app
        .clone()
        .oneshot(Request::get("/specs").body(Body::empty()).expect("req"))
        .await
        .expect("resp");
    assert_eq!(resp.status().as_u16(), 200);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let specs: Value = serde_json::from_slice(&bytes).expect("json");
    let list = specs.as_array().expect("array");
    assert_eq!(list.len(), 12);
    assert_eq!(list[0]["circuit_hash"], V7_1);
    assert_eq!(list[0]["id"], V7_1);
    assert_eq!(list[0]["system"], "longfellow-libzk-v1");
    assert_eq!(list[0]["block_enc_hash"], 4151);
    assert_eq!(list[0]["block_enc_sig"], 4096);
    let resp = app
        .clone()
        .oneshot(Request::get("/healthz").body(Body::empty()).expect("req"))
        .await
        .expect("resp");
    assert_eq!(resp.status().as_u16(), 200);
    let resp = app
        .clone()
        .oneshot(Request::get("/zkverify").body(Body::empty()).expect("req"))
        .await
        .expect("resp");
    assert_eq!(resp.status().as_u16(), 405);
    let resp = app
        .oneshot(Request::get("/metrics").body(Body::empty()).expect("req"))
        .await
        .expect("resp");
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let text = String::from_utf8(bytes.to_vec()).expect("utf8");
    assert!(
        text.contains("longfellow_requests_total{route=\"/specs\",status=\"200\"} 1"),
        "{text}"
    );
    assert!(
        text.contains("longfellow_zkverify_seconds_bucket"),
        "{text}"
    );
}
