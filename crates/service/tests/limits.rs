//! Admission control and shutdown: a full queue answers 503 at once, and
//! the server stops when told, on loopback.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use longfellow_service::{router, serve, AppState, Circuits, Limits, Policy};
use longfellow_trust::TrustStore;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

const V6_1: &str = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";

fn example(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../test-vectors/google-examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example")
}

fn state(limits: Limits) -> Arc<AppState> {
    let mut c = Circuits::default();
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{V6_1}.lfa2"));
    c.insert(longfellow_circuit::load_pair(&bytes).expect("circuit"))
        .expect("verifier");
    let mut trust = TrustStore::new();
    trust
        .add_pem_bundle(&String::from_utf8(example("certs.pem")).expect("utf8"))
        .expect("pem");
    Arc::new(AppState::new(
        c,
        trust,
        Policy::google_compatible(),
        Some(1_764_633_600),
        limits,
    ))
}

async fn post(s: &Arc<AppState>, body: Vec<u8>) -> u16 {
    let req = Request::post("/zkverify")
        .body(Body::from(body))
        .expect("req");
    router(Arc::clone(s))
        .oneshot(req)
        .await
        .expect("resp")
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_queue_answers_503_and_recovers() {
    longfellow_testvectors::require!();
    let s = state(Limits {
        workers: 1,
        queue: 0,
        ..Limits::default()
    });
    let first = {
        let s = Arc::clone(&s);
        tokio::spawn(async move { post(&s, example("post1.json")).await })
    };
    // Wait until the first request holds the only place.
    for _ in 0..200 {
        if s.metrics
            .in_flight
            .load(std::sync::atomic::Ordering::Relaxed)
            == 1
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(post(&s, example("post1.json")).await, 503);
    assert_eq!(first.await.expect("join"), 200);
    // The place is free again.
    assert_eq!(post(&s, example("post1.json")).await, 200);
    assert!(s
        .metrics
        .render()
        .contains("longfellow_zkverify_answers_total{reason=\"overloaded\"} 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_answers_503() {
    longfellow_testvectors::require!();
    let s = state(Limits {
        request_timeout: Duration::from_millis(1),
        ..Limits::default()
    });
    assert_eq!(post(&s, example("post1.json")).await, 503);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_on_loopback_and_shuts_down_gracefully() {
    longfellow_testvectors::require!();
    let s = state(Limits::default());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(s, listener, async {
        let _ = stopped.await;
    }));
    let mut c = tokio::net::TcpStream::connect(addr).await.expect("connect");
    c.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut out = Vec::new();
    c.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.starts_with("HTTP/1.1 200") && text.ends_with("ok"),
        "{text}"
    );
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("stops in time")
        .expect("join")
        .expect("serve ok");
}
