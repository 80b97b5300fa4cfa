//! A bounded load test on loopback: starts the service in this process
//! (Google's post2 example, v7 circuit, fixed clock, Google-compatible),
//! then for each concurrency level sends a fixed number of `/zkverify`
//! requests over HTTP/1.1 and prints throughput, p50/p99 latency, how many
//! were refused with 503, and the process's peak RSS.
//!
//! ```sh
//! cargo bench -p longfellow-service --bench load
//! LOAD_REQUESTS=64 LOAD_LEVELS=1,2,8,32 LOAD_WORKERS=2 LOAD_QUEUE=8 cargo bench -p longfellow-service --bench load
//! ```
//! Each level stops after LOAD_REQUESTS requests or 120 s, whichever is first.
//!
//! Before the levels it times the same check without HTTP: `check_body` (JSON,
//! base64, CBOR, issuer trust and the proof check, exactly what a worker runs)
//! called in-process `LOAD_BASELINE` times (default 8) one after another. The
//! service's own overhead is then the concurrency-1 median latency over that
//! median, printed after the table; that comparison spans two phases and
//! moves with the machine's load. The service's own time is also read from
//! its `/metrics` before and after each level (answer-latency sum against the
//! time spent inside the proof checks, over the same requests), which does
//! not: at concurrency above the worker count it includes queueing. Run the whole bench under `taskset -c 0`
//! and again on two cores to compare throughput on one and two cores.
//!
//! To drive a `longfellow serve` already running (the release binary, as
//! deployed) instead of the in-process service, give its address and the
//! request body; 200 answers are counted as successes whatever the verdict:
//!
//! ```sh
//! LOAD_ADDR=127.0.0.1:8888 LOAD_BODY=test-vectors/google-examples/post2.json \
//!   cargo bench -p longfellow-service --bench load
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use longfellow_service::{check_body, serve, AppState, Circuits, Limits, Policy};
use longfellow_trust::TrustStore;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

async fn one(addr: std::net::SocketAddr, body: &[u8]) -> std::io::Result<u16> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let head = format!(
        "POST /zkverify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await?;
    s.write_all(body).await?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await?;
    let text = String::from_utf8_lossy(&out[..out.len().min(16)]).into_owned();
    Ok(text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0))
}

/// `(answer seconds sum, answers, check seconds sum)` from the service's
/// `/metrics`: the service's own time per request is the first over the
/// second less the check's share, measured on the same requests whatever
/// else the machine is doing.
async fn service_times(addr: std::net::SocketAddr) -> Option<(f64, f64, f64)> {
    let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
    s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.ok()?;
    let text = String::from_utf8_lossy(&out);
    let value = |name: &str| -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
    };
    Some((
        value("longfellow_zkverify_seconds_sum")?,
        value("longfellow_zkverify_seconds_count")?,
        value("longfellow_check_seconds_sum")?,
    ))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Median time of `n` sequential in-process checks of `body`; `None` when a
/// check does not answer 200 (the baseline would not be the same work).
fn baseline_median(state: &AppState, body: &[u8], n: usize) -> Option<Duration> {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        let verdict = check_body(state, body);
        times.push(t.elapsed());
        if verdict.status != 200 {
            println!(
                "in-process check_body answered {}: no baseline",
                verdict.status
            );
            return None;
        }
    }
    times.sort();
    Some(percentile(&times, 0.5))
}

fn main() {
    let requests = env_or("LOAD_REQUESTS", 16).min(10_000);
    let levels: Vec<usize> = std::env::var("LOAD_LEVELS")
        .unwrap_or_else(|_| "1,2,8,32".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let defaults = Limits::default();
    let limits = Limits {
        workers: env_or("LOAD_WORKERS", defaults.workers),
        queue: env_or("LOAD_QUEUE", defaults.queue),
        ..defaults
    };
    let root = format!(
        "{}/../../test-vectors/google-examples",
        env!("CARGO_MANIFEST_DIR")
    );
    let body_path = std::env::var("LOAD_BODY").unwrap_or_else(|_| format!("{root}/post2.json"));
    let body = std::fs::read(&body_path).expect("request body (LOAD_BODY)");
    let external: Option<std::net::SocketAddr> = std::env::var("LOAD_ADDR")
        .ok()
        .map(|a| a.parse().expect("LOAD_ADDR must be host:port"));
    let pem = std::fs::read_to_string(format!("{root}/certs.pem")).expect("certs.pem");
    let mut trust = TrustStore::new();
    trust.add_pem_bundle(&pem).expect("pem");
    let mut circuits = Circuits::default();
    let circuit = longfellow_testvectors::read(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    circuits
        .insert(longfellow_circuit::load_pair(&circuit).expect("circuit"))
        .expect("verifier");
    let state = Arc::new(AppState::new(
        circuits,
        trust,
        Policy::google_compatible(),
        Some(1_764_633_600),
        limits,
    ));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = external.unwrap_or(listener.local_addr().expect("addr"));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(Arc::clone(&state), listener, async {
            let _ = stopped.await;
        }));
        if let Some(a) = external {
            println!("driving the service at {a} (the in-process one stays idle)");
        }
        let body = Arc::new(body);
        println!(
            "workers {} queue {}; {} requests per level",
            limits.workers, limits.queue, requests
        );
        let baseline = baseline_median(&state, &body, env_or("LOAD_BASELINE", 8).clamp(1, 1000));
        if let Some(b) = baseline {
            println!(
                "in-process check_body (no HTTP), median of {}: {:.1} ms",
                env_or("LOAD_BASELINE", 8).clamp(1, 1000),
                b.as_secs_f64() * 1e3
            );
        }
        let mut p50_at_1 = None;
        println!("concurrency  ok  503  other  req/s   p50 ms   p99 ms");
        let mut outside = Vec::new();
        for &c in &levels {
            let before = service_times(addr).await;
            let deadline = Instant::now() + Duration::from_secs(120);
            let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let start = Instant::now();
            let mut tasks = Vec::new();
            for _ in 0..c.max(1) {
                let (next, body) = (Arc::clone(&next), Arc::clone(&body));
                tasks.push(tokio::spawn(async move {
                    let mut out = Vec::new();
                    while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < requests
                        && Instant::now() < deadline
                    {
                        let t = Instant::now();
                        let code = one(addr, &body).await.unwrap_or(0);
                        out.push((code, t.elapsed()));
                    }
                    out
                }));
            }
            let mut results = Vec::new();
            for t in tasks {
                results.extend(t.await.unwrap_or_default());
            }
            let wall = start.elapsed();
            let mut ok: Vec<Duration> =
                results.iter().filter(|r| r.0 == 200).map(|r| r.1).collect();
            ok.sort();
            let busy = results.iter().filter(|r| r.0 == 503).count();
            let other = results.len() - ok.len() - busy;
            if let (Some(a), Some(b)) = (before, service_times(addr).await) {
                let n = b.1 - a.1;
                if n > 0.0 {
                    let (answer, check) = ((b.0 - a.0) / n, (b.2 - a.2) / n);
                    outside.push((c, answer, check));
                }
            }
            if c == 1 && !ok.is_empty() {
                p50_at_1 = Some(percentile(&ok, 0.5));
            }
            println!(
                "{c:>11} {:>3} {busy:>4} {other:>6} {:>6.2} {:>8.1} {:>8.1}",
                ok.len(),
                ok.len() as f64 / wall.as_secs_f64(),
                percentile(&ok, 0.5).as_secs_f64() * 1e3,
                percentile(&ok, 0.99).as_secs_f64() * 1e3,
            );
        }
        println!("per answer, inside the service: answer time, proof-check time, the rest");
        for (c, answer, check) in &outside {
            println!(
                "{c:>11}  {:>8.1} ms {:>8.1} ms {:>7.2} ms ({:.2} % of the check)",
                answer * 1e3,
                check * 1e3,
                (answer - check) * 1e3,
                (answer - check) / check * 100.0
            );
        }
        if let (Some(b), Some(p), None) = (baseline, p50_at_1, external) {
            let over = (p.as_secs_f64() - b.as_secs_f64()) / b.as_secs_f64();
            println!(
                "service overhead at concurrency 1: p50 {:.1} ms over check_body {:.1} ms = {:+.1} %",
                p.as_secs_f64() * 1e3,
                b.as_secs_f64() * 1e3,
                over * 100.0
            );
        }
        if let Some(kib) = peak_rss_kib() {
            let whose = if external.is_some() {
                "this client (read the service's own from /proc/<pid>/status VmHWM)"
            } else {
                "the process (service and client)"
            };
            println!("peak RSS of {whose}: {:.1} MiB", kib as f64 / 1024.0);
        }
        let _ = stop.send(());
        let _ = server.await;
    });
}
