//! `longfellow bench`: one quick run on the version-7 one-attribute `.lfa2`
//! circuits with Google's reference inputs, and the `--only` tokens the
//! baseline driver parses.

use std::process::Command;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const PHASES: [&str; 12] = [
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

/// One timed run on one thread, checked against the stored reference proof.
const ONE_RUN: [&str; 7] = [
    "--reference",
    "--runs",
    "1",
    "--warmup",
    "0",
    "--threads",
    "1",
];

fn circuit() -> String {
    longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"))
        .display()
        .to_string()
}

fn bench(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .arg("bench")
        .args(["--circuit", &circuit()])
        .args(args)
        .output()
        .expect("run longfellow");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A fresh directory per test (tests run in parallel), held by the test and
/// removed when it ends, also when an assertion fails (the guard drops while
/// unwinding).
fn temp_dir(test: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("longfellow-bench-{test}-"))
        .tempdir()
        .expect("temp dir")
}

/// The stored reference proof's size, read independently of the CLI.
fn reference_proof_len() -> usize {
    longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin")).len()
}

#[test]
fn one_run_writes_csv_and_json_with_every_phase() {
    longfellow_testvectors::require!();
    let dir = temp_dir("run");
    let (csv, json) = (
        dir.path().join("results.csv"),
        dir.path().join("summary.json"),
    );
    let outputs = [
        "--csv",
        csv.to_str().expect("utf-8 path"),
        "--json",
        json.to_str().expect("utf-8 path"),
    ];
    let stdout = bench(&[&ONE_RUN[..], &outputs].concat());
    assert!(stdout.contains("matches the stored proof"), "{stdout}");

    let csv = std::fs::read_to_string(&csv).expect("csv written");
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("run,phase,wall_ms,cpu_ms"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), PHASES.len());
    for (row, phase) in rows.iter().zip(PHASES) {
        assert_eq!(row[..2], ["1", phase]);
        let wall: f64 = row[2].parse().expect("wall ms");
        let cpu: f64 = row[3].parse().expect("cpu ms");
        assert!(wall >= 0.0 && cpu >= 0.0, "{row:?}");
    }
    // The parts of proving happen inside the prove call.
    let ms = |p: &str| -> f64 {
        let row = rows.iter().find(|r| r[1] == p).expect("phase row");
        row[2].parse().expect("wall ms")
    };
    let parts: f64 = ["witness", "commit", "sumcheck", "ligero"]
        .iter()
        .map(|p| ms(p))
        .sum();
    assert!(parts <= ms("prove") + 0.01 && parts > 0.5 * ms("prove"));
    // The per-circuit rows split the sumcheck and Ligero totals; the hash
    // circuit (7.8 M terms against 0.5 M) takes most of the sumcheck.
    for total in ["sumcheck", "ligero"] {
        let split = ms(&format!("{total}.hash")) + ms(&format!("{total}.sig"));
        assert!(
            (split - ms(total)).abs() < 0.01,
            "{total}: {split} of {}",
            ms(total)
        );
    }
    assert!(ms("sumcheck.hash") > ms("sumcheck.sig") && ms("sumcheck.sig") > 0.0);

    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written")).expect("json");
    assert_eq!(v["runs"], 1);
    assert_eq!(v["threads"], 1);
    assert_eq!(
        v["proof_bytes"].as_u64(),
        Some(reference_proof_len() as u64)
    );
    assert!(v["peak_rss_kib"].as_u64().is_some_and(|k| k > 0));
    for phase in PHASES {
        let median = &v["phases"][phase]["wall_ms"]["median"];
        assert!(median.as_f64().is_some(), "{phase}: {median}");
    }
}

#[test]
fn only_load_prints_the_driver_tokens() {
    longfellow_testvectors::require!();
    let stdout = bench(&["--only", "load"]);
    for key in ["load_ms=", "load_cpu_ms=", "peak_rss_kib="] {
        assert!(stdout.contains(key), "{key} missing in {stdout}");
    }
    assert!(!stdout.contains("prove_ms="));
}

#[test]
fn only_verify_accepts_the_stored_proof_and_rejects_an_altered_one() {
    longfellow_testvectors::require!();
    let stdout = bench(&["--reference", "--only", "verify"]);
    for key in ["load_ms=", "verify_ms=", "verify_cpu_ms=", "verify_ok=true"] {
        assert!(stdout.contains(key), "{key} missing in {stdout}");
    }

    let mut proof = longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin"));
    let mid = proof.len() / 2;
    proof[mid] ^= 1;
    let dir = temp_dir("altered");
    let path = dir.path().join("proof.bin");
    std::fs::write(&path, &proof).expect("write proof");
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args([
            "bench",
            "--reference",
            "--only",
            "verify",
            "--circuit",
            &circuit(),
        ])
        .args(["--proof", path.to_str().expect("utf-8 path")])
        .output()
        .expect("run longfellow");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("verify_ok=false"));
}

#[test]
fn unwritable_outputs_are_refused_before_any_run() {
    for flag in ["--csv", "--plot", "--json"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_longfellow"))
            .args(["bench", flag, "/nonexistent-longfellow-dir/out.file"])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains("does not exist"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "nothing may run first: {out:?}");
    }
}

#[test]
fn proof_without_only_verify_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["bench", "--proof", "p.bin"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--only verify"),
        "{out:?}"
    );
}

/// The report names the circuit by its canonical path however it was
/// given, and the thread count the runs used (`--threads`, or rayon's
/// default rather than the word "default").
#[test]
fn report_names_the_canonical_circuit_and_the_threads_used() {
    longfellow_testvectors::require!();
    let given = longfellow_testvectors::path(&format!("google/mdoc/circuits/./{V7_1}.lfa2"));
    let canonical = std::fs::canonicalize(&given).expect("circuit");
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["bench", "--reference", "--runs", "1", "--warmup", "0"])
        .args(["--circuit", given.to_str().expect("utf-8 path")])
        .output()
        .expect("run longfellow");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains(&format!("circuit   {}\n", canonical.display())),
        "{stdout}"
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        stdout.contains(&format!("threads {threads} (rayon default)")),
        "{stdout}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["bench", "--only", "load", "--threads", "2"])
        .args(["--circuit", given.to_str().expect("utf-8 path")])
        .output()
        .expect("run longfellow");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(" threads=2"),
        "{out:?}"
    );
}

/// `--layers` lists every layer of both circuits once, in order, and the
/// layer steps add up to no more than the sumcheck phase they run in.
#[test]
fn layers_lists_each_circuits_layers_within_its_sumcheck() {
    longfellow_testvectors::require!();
    let stdout = bench(&[&ONE_RUN[..], &["--layers"]].concat());
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let pair = longfellow_circuit::load_pair(&bytes).expect("circuit pair");
    let phase_ms = |name: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} row in {stdout}"));
        // min, median, p95, cpu: one run, so the median is the run.
        line.split_whitespace()
            .nth(2)
            .expect("median")
            .parse()
            .expect("ms")
    };
    for (circuit, layers) in [
        ("hash", pair.hash.layers().len()),
        ("sig", pair.sig.layers().len()),
    ] {
        let rows: Vec<Vec<&str>> = stdout
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|cells| cells.first() == Some(&circuit))
            .collect();
        assert_eq!(rows.len(), layers + 1, "{circuit}: {stdout}");
        for (l, row) in rows[..layers].iter().enumerate() {
            assert_eq!(row[1], l.to_string(), "{row:?}");
        }
        let all = &rows[layers];
        assert_eq!(all[1], "all");
        let total: f64 = all[5].parse().expect("total ms");
        let sumcheck = phase_ms(&format!("sumcheck.{circuit}"));
        assert!(
            total > 0.5 * sumcheck && total <= sumcheck + 0.01,
            "{circuit}: layers {total} ms in a {sumcheck} ms sumcheck"
        );
    }
}
