//! Per-phase statistics and the CSV / JSON outputs.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::clock::Span;

/// Phases in the order they run. `prove` is the whole prover call, of
/// which `witness`, `commit`, `sumcheck` and `ligero` are the parts;
/// `sumcheck.hash` … `ligero.sig` split the last two by circuit.
pub const PHASES: [&str; 12] = [
    "load",
    "setup",
    "witness",
    "commit",
    "sumcheck",
    "ligero",
    "sumcheck.hash",
    "ligero.hash",
    "sumcheck.sig",
    "ligero.sig",
    "prove",
    "verify",
];

/// One timed run: a span per entry of [`PHASES`].
pub type Run = [Span; PHASES.len()];

/// Index of `name` in [`PHASES`].
pub fn phase(name: &str) -> usize {
    PHASES.iter().position(|p| *p == name).unwrap_or(0)
}

/// Min, median and nearest-rank 95th percentile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub min: f64,
    pub median: f64,
    pub p95: f64,
}

/// Summarises `values` (NaNs ignored); `None` if nothing is left.
pub fn summarize(values: impl IntoIterator<Item = f64>) -> Option<Summary> {
    let mut v: Vec<f64> = values.into_iter().filter(|x| !x.is_nan()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    // Nearest rank: the smallest value with at least 95 % at or below it.
    let rank = (0.95 * n as f64).ceil() as usize;
    Some(Summary {
        min: v[0],
        median,
        p95: v[rank.clamp(1, n) - 1],
    })
}

/// Wall and CPU summaries of phase `i` over `runs`.
pub fn phase_summary(runs: &[Run], i: usize) -> (Option<Summary>, Option<Summary>) {
    (
        summarize(runs.iter().map(|r| r[i].wall_ms)),
        summarize(runs.iter().map(|r| r[i].cpu_ms)),
    )
}

/// `run,phase,wall_ms,cpu_ms`, one line per run and phase.
pub fn csv(runs: &[Run]) -> String {
    let mut out = String::from("run,phase,wall_ms,cpu_ms\n");
    for (n, run) in runs.iter().enumerate() {
        for (name, span) in PHASES.iter().zip(run) {
            let _ = writeln!(
                out,
                "{},{name},{:.3},{:.3}",
                n + 1,
                span.wall_ms,
                span.cpu_ms
            );
        }
    }
    out
}

/// What the JSON summary says besides the phases.
#[derive(Debug)]
pub struct Context {
    /// The circuit file's canonical path.
    pub circuit: String,
    pub case: String,
    /// Threads of the rayon pool the runs used.
    pub threads: usize,
    /// Whether `--threads` chose them (else rayon's default: one per CPU).
    pub threads_requested: bool,
    pub warmup: usize,
    pub proof_bytes: usize,
    pub peak_rss_kib: Option<u64>,
}

fn summary_json(s: Option<Summary>) -> Value {
    match s {
        Some(s) => json!({"min": s.min, "median": s.median, "p95": s.p95}),
        None => Value::Null,
    }
}

/// The JSON summary: context, then per phase the wall and CPU statistics.
pub fn json(ctx: &Context, runs: &[Run]) -> Value {
    let phases: serde_json::Map<String, Value> = PHASES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (wall, cpu) = phase_summary(runs, i);
            (
                (*name).to_string(),
                json!({"wall_ms": summary_json(wall), "cpu_ms": summary_json(cpu)}),
            )
        })
        .collect();
    json!({
        "circuit": ctx.circuit,
        "case": ctx.case,
        "runs": runs.len(),
        "warmup": ctx.warmup,
        "threads": ctx.threads,
        "proof_bytes": ctx.proof_bytes,
        "peak_rss_kib": ctx.peak_rss_kib,
        "peak_rss_note": "VmHWM of the whole bench process (all runs)",
        "phases": Value::Object(phases),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_known_samples() {
        let s = summarize([5.0, 1.0, 3.0, 2.0, 4.0]).expect("samples");
        assert_eq!(
            s,
            Summary {
                min: 1.0,
                median: 3.0,
                p95: 5.0
            }
        );
        let s = summarize((1..=20).map(f64::from)).expect("samples");
        assert_eq!((s.median, s.p95), (10.5, 19.0));
        assert!(summarize([f64::NAN]).is_none());
    }
}
