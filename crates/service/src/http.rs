//! Routes, admission control and the server loop.

use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use base64::Engine;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use longfellow_mdoc::ZkSpec;
use longfellow_trust::TrustStore;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::circuits::Circuits;
use crate::metrics::Metrics;
use crate::policy::Policy;
use crate::sessions::{SessionLimits, SessionStore};
use crate::verify::{verify_request, Verdict};

/// Resource limits of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body (a real request is about 0.5 MB).
    pub max_body_bytes: usize,
    /// Time to receive the request body, and again from admission to
    /// answer.
    pub request_timeout: Duration,
    /// Verifications running at once (default: the core count).
    pub workers: usize,
    /// Verifications waiting for a worker before new ones get HTTP 503.
    pub queue: usize,
}

impl Default for Limits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            max_body_bytes: 2 << 20,
            request_timeout: Duration::from_secs(30),
            workers: cores,
            queue: 4 * cores,
        }
    }
}

/// Everything a request reads; built once at start.
#[derive(Debug)]
pub struct AppState {
    /// Loaded circuits.
    pub circuits: Circuits,
    /// Trust anchors.
    pub trust: TrustStore,
    /// Extra checks.
    pub policy: Policy,
    /// A fixed clock (Unix seconds), for replaying recorded requests.
    pub verify_time: Option<i64>,
    /// Limits.
    pub limits: Limits,
    /// Metrics.
    pub metrics: Metrics,
    /// Open and answered sessions.
    pub sessions: SessionStore,
    admission: Semaphore,
    workers: Semaphore,
}

impl AppState {
    /// A state with its semaphores sized from `limits`.
    pub fn new(
        circuits: Circuits,
        trust: TrustStore,
        policy: Policy,
        verify_time: Option<i64>,
        limits: Limits,
    ) -> Self {
        Self {
            circuits,
            trust,
            policy,
            verify_time,
            admission: Semaphore::new(limits.workers.max(1) + limits.queue),
            workers: Semaphore::new(limits.workers.max(1)),
            limits,
            metrics: Metrics::default(),
            sessions: SessionStore::new(SessionLimits::default()),
        }
    }

    /// The same state with other session limits (TTL, store size).
    pub fn with_session_limits(mut self, limits: SessionLimits) -> Self {
        self.sessions = SessionStore::new(limits);
        self
    }

    /// The verification clock, Unix seconds.
    pub fn now(&self) -> i64 {
        self.verify_time.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        })
    }
}

/// The reason code a handler attaches to its response, for the log line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reason(pub(crate) &'static str);

pub(crate) fn json_response(status: u16, body: &Value, reason: &'static str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut r = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        format!("{}\n", render(body)),
    )
        .into_response();
    r.extensions_mut().insert(Reason(reason));
    r
}

/// JSON text with a verdict's keys in Google's order (`Status`, `Claims`,
/// `Message`, as Go encodes its struct), other objects as serde_json does.
fn render(body: &Value) -> String {
    match body.as_object() {
        Some(m) if m.contains_key("Status") => {
            let parts: Vec<String> = ["Status", "Claims", "Message"]
                .iter()
                .filter_map(|k| {
                    m.get(*k)
                        .map(|v| format!("{}:{v}", Value::String((*k).into())))
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        _ => body.to_string(),
    }
}

pub(crate) fn verdict_response(v: &Verdict) -> Response {
    json_response(v.status, &v.body, v.reason)
}

/// The app's routes (no listener), for [`serve`] and for tests.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/zkverify", any(zkverify))
        .route("/specs", any(specs))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/sessions", any(crate::session_http::create))
        .route("/sessions/{id}/response", any(crate::session_http::respond))
        .layer(middleware::from_fn_with_state(state.clone(), log_and_count))
        .with_state(state)
}

/// Serves on `listener` until `shutdown` resolves, then finishes the
/// requests in progress.
///
/// HTTP/1.1 only, each connection with a timer: a client gets
/// [`Limits::request_timeout`] to send a request's headers (a client
/// sending them a byte a second is cut off), and the handler gives the
/// body the same time. `axum::serve` sets no timer, so a slow-header
/// client would hold its connection forever there.
pub async fn serve(
    state: Arc<AppState>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let header_timeout = state.limits.request_timeout;
    let app = router(state);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors and the like: wait instead of spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let conn = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // A connection's I/O errors and timeouts end that connection only.
            let _ = conn.await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

async fn log_and_count(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let response = next.run(req).await;
    let elapsed = start.elapsed();
    let status = response.status().as_u16();
    let reason = response.extensions().get::<Reason>().map(|r| r.0);
    state.metrics.record(&path, status, reason);
    if path == "/zkverify" || crate::metrics::is_session_response(&path) {
        state.metrics.observe(elapsed);
    }
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    eprintln!(
        "{}",
        json!({
            "ts": ts,
            "method": method.as_str(),
            "path": path,
            "status": status,
            "ms": (elapsed.as_secs_f64() * 1e3 * 1000.0).round() / 1000.0,
            "reason": reason,
        })
    );
    response
}

async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}

fn spec_json(s: &ZkSpec) -> Value {
    json!({
        "id": s.circuit_hash_hex(),
        "system": longfellow_mdoc::spec::SYSTEM,
        "circuit_hash": s.circuit_hash_hex(),
        "num_attributes": s.info.num_attributes,
        "version": s.info.version,
        "block_enc_hash": s.block_enc_hash,
        "block_enc_sig": s.block_enc_sig,
    })
}

async fn specs() -> Response {
    let mut all: Vec<ZkSpec> = ZkSpec::all().collect();
    all.sort_by_key(|s| (std::cmp::Reverse(s.info.version), s.info.num_attributes));
    let list: Vec<Value> = all.iter().map(spec_json).collect();
    json_response(200, &Value::Array(list), "specs")
}

/// A JSON field matched case-insensitively (as Go's encoding/json does),
/// holding standard base64.
fn b64_field(v: &Value, name: &str) -> Result<Vec<u8>, Verdict> {
    let field = v
        .as_object()
        .and_then(|m| m.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v);
    let text = match field {
        Some(Value::String(s)) => s,
        Some(_) => {
            return Err(Verdict::bad_request(
                "bad_json",
                format!("Error reading request body: `{name}` must be a base64 string"),
            ))
        }
        None => {
            return Err(Verdict::bad_request(
                "bad_json",
                format!("Error reading request body: missing `{name}`"),
            ))
        }
    };
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| {
            Verdict::bad_request(
                "bad_base64",
                format!("Error reading request body: `{name}` is not standard base64: {e}"),
            )
        })
}

async fn zkverify(State(state): State<Arc<AppState>>, req: Request) -> Response {
    if req.method() != Method::POST {
        return json_response(405, &json!({"error": "expecting a json post"}), "method");
    }
    let cap = state.limits.max_body_bytes;
    let timeout = state.limits.request_timeout;
    let body: Body = req.into_body();
    // A client that sends its body slowly (a byte a second) would hold a
    // connection and a buffer forever: the body gets the request timeout
    // too, before admission (it takes no worker).
    let bytes = match tokio::time::timeout(timeout, to_bytes(body, cap)).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => {
            return json_response(
                413,
                &json!({ "error": format!("Error reading request body: larger than {cap} bytes (or interrupted)") }),
                "body_too_large",
            )
        }
        Err(_) => {
            return json_response(
                408,
                &json!({ "error": format!("Error reading request body: not received within {} s", timeout.as_secs()) }),
                "body_timeout",
            )
        }
    };
    let st = Arc::clone(&state);
    match run_admitted(&state, move || check_body(&st, &bytes)).await {
        Ok(v) | Err(v) => verdict_response(&v),
    }
}

/// A place in the verification queue (or HTTP 503 when it is full).
pub(crate) fn admit(state: &Arc<AppState>) -> Result<AdmissionPermit, Verdict> {
    Arc::clone(state).admission_permit().map_err(|()| Verdict {
        status: 503,
        body: json!({"error": "overloaded: verification queue is full, retry later"}),
        reason: "overloaded",
    })
}

/// Runs `check` on the blocking pool once a worker is free, within the
/// request timeout; the admission and worker bounds of every proof check
/// (`/zkverify` and session responses).
pub(crate) async fn run_admitted(
    state: &Arc<AppState>,
    check: impl FnOnce() -> Verdict + Send + 'static,
) -> Result<Verdict, Verdict> {
    let admitted = admit(state)?;
    run_with_permit(state, admitted, check).await
}

/// [`run_admitted`] for a caller that took its admission permit first.
pub(crate) async fn run_with_permit(
    state: &Arc<AppState>,
    admitted: AdmissionPermit,
    check: impl FnOnce() -> Verdict + Send + 'static,
) -> Result<Verdict, Verdict> {
    let timeout = state.limits.request_timeout;
    let state = Arc::clone(state);
    let work = async move {
        let _admitted = admitted;
        // Waiting for a worker counts against the timeout; the check itself
        // runs on the blocking pool and keeps its worker until it finishes.
        let worker = state.workers_permit().await;
        let metrics_state = Arc::clone(&state);
        let workers = state.limits.workers;
        tokio::task::spawn_blocking(move || {
            let _worker = worker;
            let started = Instant::now();
            let verdict = if workers > 1 { serial(check) } else { check() };
            metrics_state.metrics.observe_check(started.elapsed());
            verdict
        })
        .await
    };
    match tokio::time::timeout(timeout, work).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err(Verdict {
            status: 500,
            body: json!({"error": "internal error"}),
            reason: "internal",
        }),
        Err(_) => Err(Verdict {
            status: 503,
            body: json!({ "error": format!("verification did not finish within {} s", timeout.as_secs()) }),
            reason: "timeout",
        }),
    }
}

thread_local! {
    /// A one-thread rayon pool made of the blocking thread itself (no thread
    /// is spawned), built once per blocking thread.
    static SERIAL: Option<rayon::ThreadPool> = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build()
        .ok();
}

/// Runs `check` with the verifier's parallel loops serial on this thread.
/// With several workers the cores are already shared out, one check each;
/// checks that also split their loops over the global pool contend for it.
/// Measured on an idle two-core machine (docs/verifier-service.md): two
/// cores gave 1.75x one core's throughput that way and 1.97x with each
/// check serial. Without a pool (it could not be built) the check runs as
/// it would anyway.
fn serial(check: impl FnOnce() -> Verdict + Send) -> Verdict {
    SERIAL.with(|pool| match pool {
        Some(pool) => pool.install(check),
        None => check(),
    })
}

impl AppState {
    fn admission_permit(self: Arc<Self>) -> Result<AdmissionPermit, ()> {
        let permit = self.admission.try_acquire().map_err(|_| ())?;
        permit.forget();
        self.metrics.in_flight.fetch_add(1, Ordering::Relaxed);
        Ok(AdmissionPermit(self))
    }

    async fn workers_permit(self: &Arc<Self>) -> WorkerPermit {
        // The semaphore is never closed.
        if let Ok(p) = self.workers.acquire().await {
            p.forget();
        }
        WorkerPermit(Arc::clone(self))
    }
}

/// A place in the service (running or queued), given back on drop.
pub(crate) struct AdmissionPermit(Arc<AppState>);

impl Drop for AdmissionPermit {
    fn drop(&mut self) {
        self.0.metrics.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.0.admission.add_permits(1);
    }
}

/// A worker slot, given back on drop (after the blocking check ends).
struct WorkerPermit(Arc<AppState>);

impl Drop for WorkerPermit {
    fn drop(&mut self) {
        self.0.workers.add_permits(1);
    }
}

/// The whole `/zkverify` check of one request body (JSON, then the two
/// base64 fields, then the ZK DeviceResponse CBOR and the proof), as a plain
/// synchronous function: the HTTP handler runs exactly this on its blocking
/// pool, and tests and the fuzz target call it in-process without a
/// socket, a runtime or the admission limits.
pub fn check_body(state: &AppState, body: &[u8]) -> Verdict {
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Verdict::bad_request("bad_json", format!("Error reading request body: {e}"))
        }
    };
    let transcript = match b64_field(&v, "Transcript") {
        Ok(t) => t,
        Err(v) => return v,
    };
    let response = match b64_field(&v, "ZKDeviceResponseCBOR") {
        Ok(t) => t,
        Err(v) => return v,
    };
    verify_request(
        &state.circuits,
        &state.trust,
        &state.policy,
        state.now(),
        &transcript,
        &response,
    )
}
