//! Prometheus text metrics: requests by route and status, verification
//! latency histogram, answers by reason, and the verifications in flight.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the latency buckets, seconds.
const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Whether `path` is `/sessions/{id}/response` (one label for all ids).
pub(crate) fn is_session_response(path: &str) -> bool {
    path.strip_prefix("/sessions/")
        .and_then(|p| p.strip_suffix("/response"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// Counters shared by every request.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    reasons: Mutex<BTreeMap<&'static str, u64>>,
    buckets: [AtomicU64; BUCKETS.len()],
    latency_count: AtomicU64,
    latency_sum_micros: AtomicU64,
    check_count: AtomicU64,
    check_sum_micros: AtomicU64,
    /// Verifications admitted and not finished (running or queued).
    pub in_flight: AtomicU64,
    /// Sessions held by the store (open or answered, not yet swept).
    pub sessions_held: AtomicU64,
}

impl Metrics {
    /// Records one answered request.
    pub fn record(&self, path: &str, status: u16, reason: Option<&'static str>) {
        // Only known routes become labels, so a scan of random paths cannot
        // grow the table.
        let route = match path {
            "/zkverify" | "/specs" | "/healthz" | "/metrics" | "/sessions" => path,
            p if is_session_response(p) => "/sessions/{id}/response",
            _ => "other",
        };
        if let Ok(mut m) = self.requests.lock() {
            *m.entry((route.to_owned(), status)).or_default() += 1;
        }
        if let Some(r) = reason {
            if let Ok(mut m) = self.reasons.lock() {
                *m.entry(r).or_default() += 1;
            }
        }
    }

    /// Records the latency of one `/zkverify` answer.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        for (b, bound) in self.buckets.iter().zip(BUCKETS) {
            if secs <= bound {
                b.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_micros.fetch_add(
            u64::try_from(d.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// Records the time one proof check took on its worker (from the start
    /// of the check to its verdict): with the latency sum this separates the
    /// service's own time (HTTP, admission, queueing, hand-off) from the
    /// check's.
    pub fn observe_check(&self, d: Duration) {
        self.check_count.fetch_add(1, Ordering::Relaxed);
        self.check_sum_micros.fetch_add(
            u64::try_from(d.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# HELP longfellow_requests_total HTTP requests by route and status."
        );
        let _ = writeln!(s, "# TYPE longfellow_requests_total counter");
        if let Ok(m) = self.requests.lock() {
            for ((route, status), n) in m.iter() {
                let _ = writeln!(
                    s,
                    "longfellow_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
        }
        let _ = writeln!(s, "# HELP longfellow_zkverify_answers_total /zkverify and session-response answers by reason (verified or why not).");
        let _ = writeln!(s, "# TYPE longfellow_zkverify_answers_total counter");
        if let Ok(m) = self.reasons.lock() {
            for (reason, n) in m.iter() {
                let _ = writeln!(
                    s,
                    "longfellow_zkverify_answers_total{{reason=\"{reason}\"}} {n}"
                );
            }
        }
        let _ = writeln!(
            s,
            "# HELP longfellow_zkverify_seconds latency of /zkverify and session responses."
        );
        let _ = writeln!(s, "# TYPE longfellow_zkverify_seconds histogram");
        for (b, bound) in self.buckets.iter().zip(BUCKETS) {
            let _ = writeln!(
                s,
                "longfellow_zkverify_seconds_bucket{{le=\"{bound}\"}} {}",
                b.load(Ordering::Relaxed)
            );
        }
        let count = self.latency_count.load(Ordering::Relaxed);
        let _ = writeln!(
            s,
            "longfellow_zkverify_seconds_bucket{{le=\"+Inf\"}} {count}"
        );
        let sum = self.latency_sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(s, "longfellow_zkverify_seconds_sum {sum}");
        let _ = writeln!(s, "longfellow_zkverify_seconds_count {count}");
        let _ = writeln!(
            s,
            "# HELP longfellow_check_seconds time inside the proof checks themselves (on a worker)."
        );
        let _ = writeln!(s, "# TYPE longfellow_check_seconds summary");
        let check_sum = self.check_sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(s, "longfellow_check_seconds_sum {check_sum}");
        let _ = writeln!(
            s,
            "longfellow_check_seconds_count {}",
            self.check_count.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            s,
            "# HELP longfellow_verifications_in_flight Verifications running or queued."
        );
        let _ = writeln!(s, "# TYPE longfellow_verifications_in_flight gauge");
        let _ = writeln!(
            s,
            "longfellow_verifications_in_flight {}",
            self.in_flight.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            s,
            "# HELP longfellow_sessions_held Sessions in the store (open or answered, not yet expired)."
        );
        let _ = writeln!(s, "# TYPE longfellow_sessions_held gauge");
        let _ = writeln!(
            s,
            "longfellow_sessions_held {}",
            self.sessions_held.load(Ordering::Relaxed)
        );
        s
    }
}
