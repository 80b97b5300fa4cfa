//! The hostile corpus (`test-vectors/hostile/`) thrown at `/zkverify`: each
//! file as the whole body, as the ZK DeviceResponse and as the transcript
//! of an otherwise valid request (Google's `post1.json`); an oversized
//! body; a client that sends its body a byte a second. Every answer is a
//! 400 with an `error` message, a 413/408 for the size and time limits, or
//! a 200 verdict with `Status: false` — never a 5xx, never `Status: true`,
//! and always within the time limit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use base64::Engine;
use longfellow_service::{router, serve, AppState, Circuits, Limits, Policy};
use longfellow_testvectors::hostile;
use longfellow_trust::TrustStore;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

const V6_1: &str = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";

fn example(name: &str) -> Vec<u8> {
    std::fs::read(
        longfellow_testvectors::workspace_root()
            .join(format!("test-vectors/google-examples/{name}")),
    )
    .expect("example")
}

fn trust() -> TrustStore {
    let mut trust = TrustStore::new();
    trust
        .add_pem_bundle(&String::from_utf8(example("certs.pem")).expect("utf8"))
        .expect("pem");
    trust
}

/// Google's v6 one-attribute circuit (post1's), its roots, post1's clock.
fn state(limits: Limits) -> Arc<AppState> {
    let mut c = Circuits::default();
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{V6_1}.lfa2"));
    c.insert(longfellow_circuit::load_pair(&bytes).expect("circuit"))
        .expect("verifier");
    Arc::new(AppState::new(
        c,
        trust(),
        Policy::google_compatible(),
        Some(1_764_633_600),
        limits,
    ))
}

async fn post(s: &Arc<AppState>, body: Vec<u8>) -> (u16, Value) {
    let req = Request::post("/zkverify")
        .body(Body::from(body))
        .expect("req");
    let resp = router(Arc::clone(s)).oneshot(req).await.expect("resp");
    let status = resp.status().as_u16();
    let bytes = http_body_util::BodyExt::collect(resp.into_body())
        .await
        .expect("body")
        .to_bytes();
    let json = serde_json::from_slice(&bytes).expect("the answer is JSON");
    (status, json)
}

/// A 400 with a message, or a checked-and-refused 200.
fn clean_refusal(what: &str, status: u16, body: &Value) {
    match status {
        400 => assert!(
            body["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: {body}"
        ),
        200 => assert_eq!(body["Status"], Value::Bool(false), "{what}: {body}"),
        _ => panic!("{what}: HTTP {status} {body}"),
    }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_file_as_a_body_or_a_field() {
    longfellow_testvectors::require!();
    let s = state(Limits::default());
    let post1: Value = serde_json::from_slice(&example("post1.json")).expect("post1");
    // The valid request itself is accepted: the refusals below are the
    // hostile files' doing.
    let (status, body) = post(&s, example("post1.json")).await;
    assert_eq!(
        (status, &body["Status"]),
        (200, &Value::Bool(true)),
        "{body}"
    );
    for (name, bytes) in hostile::files() {
        let (status, body) = post(&s, bytes.clone()).await;
        clean_refusal(&format!("body {name}"), status, &body);
        let mut req = post1.clone();
        req["ZKDeviceResponseCBOR"] = Value::String(b64(&bytes));
        let (status, body) = post(&s, req.to_string().into_bytes()).await;
        clean_refusal(&format!("response {name}"), status, &body);
        let mut req = post1.clone();
        req["Transcript"] = Value::String(b64(&bytes));
        let (status, body) = post(&s, req.to_string().into_bytes()).await;
        clean_refusal(&format!("transcript {name}"), status, &body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_is_refused_unread() {
    let s = Arc::new(AppState::new(
        Circuits::default(),
        trust(),
        Policy::default(),
        None,
        Limits {
            max_body_bytes: 1 << 16,
            ..Limits::default()
        },
    ));
    let (status, body) = post(&s, vec![b'{'; (1 << 16) + 1]).await;
    assert_eq!(status, 413, "{body}");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|m| m.contains("larger than")),
        "{body}"
    );
}

/// Sends `head`, then one byte of `drip` a second, until the server
/// answers or closes (at most 20 s); returns what it answered and when.
async fn slow_client(addr: std::net::SocketAddr, head: &[u8], drip: &[u8]) -> (String, Duration) {
    let mut c = tokio::net::TcpStream::connect(addr).await.expect("connect");
    c.write_all(head).await.expect("write");
    let start = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let mut drip = drip.iter().cycle();
    while start.elapsed() < Duration::from_secs(20) {
        let byte = [*drip.next().expect("cycle")];
        if c.write_all(&byte).await.is_err() {
            break;
        }
        match tokio::time::timeout(Duration::from_secs(1), c.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => {
                out.extend_from_slice(&buf[..n]);
                if out.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
            Err(_) => {}
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), start.elapsed())
}

/// Clients that send their headers, or their body, a byte a second are
/// cut off when the request timeout (here 2 s) runs out, on a real socket:
/// a slow body gets HTTP 408, slow headers a closed connection (or 408).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_are_cut_off() {
    let s = Arc::new(AppState::new(
        Circuits::default(),
        trust(),
        Policy::default(),
        None,
        Limits {
            request_timeout: Duration::from_secs(2),
            ..Limits::default()
        },
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(s, listener, async {
        let _ = stopped.await;
    }));
    let (text, elapsed) = slow_client(
        addr,
        b"POST /zkverify HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n",
        b"{",
    )
    .await;
    assert!(
        text.starts_with("HTTP/1.1 408"),
        "slow body, after {elapsed:?}: {text:?}"
    );
    assert!(
        elapsed < Duration::from_secs(10),
        "slow body cut off only after {elapsed:?}"
    );
    let (text, elapsed) =
        slow_client(addr, b"POST /zkverify HTTP/1.1\r\n", b"X-Slow: aaaa\r\n").await;
    assert!(
        text.is_empty() || text.starts_with("HTTP/1.1 408"),
        "slow headers: {text:?}"
    );
    assert!(
        elapsed < Duration::from_secs(10),
        "slow headers cut off only after {elapsed:?}"
    );
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("stops in time")
        .expect("join")
        .expect("serve ok");
}
