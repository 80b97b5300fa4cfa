//! `longfellow serve`: the relying party's verifier service
//! (docs/verifier-service.md). Flags follow Google's reference service
//! (`--port`, `--cacerts`, `--circuit-dir`, `--vical`) plus a fixed clock
//! and the policy switches.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use longfellow_mdoc_response::Timestamp;
use longfellow_service::{
    load_circuit_dir, run_until_signal, AppState, Limits, Policy, SessionLimits,
};
use longfellow_trust::{pem_certificates, TrustStore, Vical};

use super::CliError;

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// TCP port (`:8888` is accepted too, as Google's `-port`).
    #[arg(long, default_value = "8888")]
    port: String,
    /// Address to bind (use 0.0.0.0 to serve beyond this machine).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// PEM bundle of trusted IACA roots (and any directly trusted DS).
    #[arg(long)]
    cacerts: Option<PathBuf>,
    /// Directory of circuit files named `<circuit hash>[.lfa1|.lfa2]`.
    #[arg(long, default_value = "circuits")]
    circuit_dir: PathBuf,
    /// A VICAL file (COSE_Sign1 CBOR, as AAMVA publishes); its IACA roots
    /// are trusted only if its signature verifies under --vical-signer.
    #[arg(long)]
    vical: Option<PathBuf>,
    /// PEM certificate(s) of the VICAL signer or its root.
    #[arg(long = "vical-signer")]
    vical_signer: Vec<PathBuf>,
    /// Fixed clock `YYYY-MM-DDTHH:MM:SSZ` for certificate validity and the
    /// timestamp window (replaying recorded requests).
    #[arg(long)]
    verify_time: Option<String>,
    /// Behave like Google's service: no timestamp window, docType,
    /// namespace, attribute or circuit policy, no envelope check.
    #[arg(long)]
    google_compatible: bool,
    /// Largest distance between a document's timestamp and the clock, s.
    #[arg(long, default_value_t = 300)]
    timestamp_window: i64,
    /// Accepted docType (repeat; default mDL and EU age verification).
    #[arg(long = "allow-doctype")]
    allow_doctype: Vec<String>,
    /// Accepted namespace (repeat; default those of the two docTypes).
    #[arg(long = "allow-namespace")]
    allow_namespace: Vec<String>,
    /// Accepted elementIdentifier, `*` suffix for a prefix (repeat;
    /// default `age_over_*`).
    #[arg(long = "allow-attribute")]
    allow_attribute: Vec<String>,
    /// Accepted circuit hash (repeat; default every loaded circuit).
    #[arg(long = "accept-circuit")]
    accept_circuit: Vec<String>,
    /// Oldest accepted ZkSpec version.
    #[arg(long, default_value_t = 6)]
    min_circuit_version: u32,
    /// Largest request body, bytes.
    #[arg(long, default_value_t = 2 << 20)]
    max_body_bytes: usize,
    /// Per-request timeout, seconds.
    #[arg(long, default_value_t = 30)]
    timeout_secs: u64,
    /// Verifications at once (default: the core count).
    #[arg(long)]
    workers: Option<usize>,
    /// Verifications waiting before HTTP 503 (default: 4 per worker).
    #[arg(long)]
    queue: Option<usize>,
    /// Lifetime of a session (`POST /sessions`), seconds.
    #[arg(long, default_value_t = 300)]
    session_ttl_secs: u64,
    /// Sessions held at once (open or answered, not expired); beyond that
    /// `POST /sessions` answers 503.
    #[arg(long, default_value_t = 10_000)]
    max_sessions: usize,
}

fn read_text(path: &PathBuf) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

/// Runs the service until SIGINT/SIGTERM.
pub fn run(a: ServeArgs) -> Result<(), CliError> {
    let port: u16 = a
        .port
        .trim_start_matches(':')
        .parse()
        .map_err(|_| CliError(format!("--port `{}` is not a port number", a.port)))?;
    let verify_time = match &a.verify_time {
        Some(s) => Some(
            Timestamp::parse(s)
                .ok_or_else(|| CliError("--verify-time must be YYYY-MM-DDTHH:MM:SSZ".into()))?
                .unix(),
        ),
        None => None,
    };
    let clock = verify_time.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
    });

    let mut trust = TrustStore::new();
    if let Some(p) = &a.cacerts {
        let n = trust.add_pem_bundle(&read_text(p)?)?;
        eprintln!(
            "{}",
            serde_json::json!({"msg": "trust anchors loaded", "file": p.display().to_string(), "count": n})
        );
    }
    if let Some(p) = &a.vical {
        let bytes = std::fs::read(p).map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        let mut signers = Vec::new();
        for s in &a.vical_signer {
            signers.extend(pem_certificates(&read_text(s)?)?);
        }
        let vical = Vical::verify(&bytes, &signers, clock)
            .map_err(|e| CliError(format!("VICAL {}: {e}", p.display())))?;
        let n = trust.add_vical(&vical)?;
        eprintln!(
            "{}",
            serde_json::json!({"msg": "VICAL verified", "provider": vical.provider, "signer": vical.signer, "count": n})
        );
    }
    if trust.is_empty() {
        return Err(CliError(
            "no trust anchor: give --cacerts and/or --vical".into(),
        ));
    }

    let started = std::time::Instant::now();
    let circuits = load_circuit_dir(&a.circuit_dir, &mut |m| {
        eprintln!("{}", serde_json::json!({"msg": m}));
    })?;
    eprintln!(
        "{}",
        serde_json::json!({"msg": "circuits loaded", "count": circuits.len(), "ms": started.elapsed().as_millis() as u64})
    );

    let mut policy = if a.google_compatible {
        Policy::google_compatible()
    } else {
        Policy::default()
    };
    policy.timestamp_window_secs = a.timestamp_window;
    policy.min_circuit_version = a.min_circuit_version;
    if !a.allow_doctype.is_empty() {
        policy.doc_types = a.allow_doctype;
    }
    if !a.allow_namespace.is_empty() {
        policy.namespaces = a.allow_namespace;
    }
    if !a.allow_attribute.is_empty() {
        policy.attributes = a.allow_attribute;
    }
    if !a.accept_circuit.is_empty() {
        policy.accepted_circuits = Some(a.accept_circuit);
    }
    let mut limits = Limits {
        max_body_bytes: a.max_body_bytes,
        request_timeout: Duration::from_secs(a.timeout_secs),
        ..Limits::default()
    };
    if let Some(w) = a.workers {
        limits.workers = w.max(1);
        limits.queue = 4 * limits.workers;
    }
    if let Some(q) = a.queue {
        limits.queue = q;
    }
    let state = AppState::new(circuits, trust, policy, verify_time, limits).with_session_limits(
        SessionLimits {
            ttl: Duration::from_secs(a.session_ttl_secs.max(1)),
            max_sessions: a.max_sessions.max(1),
        },
    );
    run_until_signal(state, SocketAddr::new(a.bind, port))?;
    Ok(())
}
