//! `longfellow serve`: a relying party's verifier service.
//!
//! It speaks Google's reference API (`reference/verifier-service/server`)
//! exactly — `POST /zkverify` with `{"Transcript", "ZKDeviceResponseCBOR"}`
//! (standard base64), HTTP 200 `{"Status","Claims","Message"}` once a proof
//! was checked and HTTP 400 `{"error"}` for what cannot be parsed or whose
//! issuer is not trusted, `GET /specs`, `GET /healthz` — and checks what
//! Google's leaves to the caller, each check on by default and named in
//! the answer when it rejects ([`Policy`]); `--google-compatible` turns
//! them off.
//!
//! Production behaviour: circuits are loaded once at start and shared by
//! every request; the request body is capped; proof checks run on a
//! blocking pool bounded by the core count with a bounded queue (HTTP 503
//! when full) and a per-request timeout; shutdown is graceful; `/metrics`
//! serves Prometheus text; each request logs one JSON line on stderr.
#![forbid(unsafe_code)]

mod circuits;
mod http;
mod metrics;
mod policy;
mod session_http;
mod sessions;
mod verify;

pub use circuits::{load_circuit_dir, Circuits, LoadError};
pub use http::{check_body, router, serve, AppState, Limits};
pub use metrics::Metrics;
pub use policy::Policy;
pub use sessions::{SessionLimits, SessionStore};
pub use verify::{verify_request, Expected, Verdict};

/// Runs the service on `addr` until SIGINT or SIGTERM, on a runtime of its
/// own (the command line's entry point).
pub fn run_until_signal(state: AppState, addr: std::net::SocketAddr) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        eprintln!(
            "{}",
            serde_json::json!({"msg": "listening", "addr": listener.local_addr()?.to_string(), "circuits": state.circuits.len(), "anchors": state.trust.len(), "strict": state.policy.strict})
        );
        serve(std::sync::Arc::new(state), listener, shutdown_signal()).await
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    eprintln!(
        "{}",
        serde_json::json!({"msg": "shutting down: finishing requests in progress"})
    );
}
