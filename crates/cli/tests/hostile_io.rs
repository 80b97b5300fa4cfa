//! The command line's contract under hostile surroundings: a closed or
//! full standard output ends a command with one line on stderr and exit
//! status 2 (never the panic status 101), endless inputs are refused at a
//! size cap, and the strict request reader's refusals are usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
}

fn circuit() -> PathBuf {
    longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("longfellow-hostile-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn clean_failure(out: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    err
}

/// Runs with standard output a pipe whose reader is already closed (as in
/// `longfellow … | head -0`).
fn closed_stdout(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    child.wait_with_output().expect("wait")
}

/// Runs with standard output `/dev/full` (every write fails with ENOSPC).
fn full_stdout(cmd: &mut Command) -> Option<Output> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    Some(cmd.stdout(full).output().expect("run"))
}

#[test]
fn inspect_with_closed_or_full_stdout_fails_cleanly() {
    let path = circuit();
    let out = closed_stdout(bin().args(["circuit", "inspect", s(&path)]));
    let err = clean_failure(&out, 2);
    assert!(err.contains("standard output"), "{err}");
    if let Some(out) = full_stdout(bin().args(["circuit", "inspect", s(&path)])) {
        clean_failure(&out, 2);
    }
}

#[test]
fn demo_with_closed_stdout_fails_cleanly() {
    let dir = longfellow_testvectors::path("google/mdoc/circuits");
    let out = closed_stdout(bin().args(["demo", "--circuits", s(&dir)]));
    clean_failure(&out, 2);
}

/// The reference request (family_name of the reference case) and
/// DeviceResponse, written to scratch files.
fn reference_inputs() -> (PathBuf, PathBuf) {
    let cases: serde_json::Value = serde_json::from_str(&longfellow_testvectors::read_to_string(
        "google/mdoc/cases.json",
    ))
    .expect("cases.json");
    let case = cases
        .as_array()
        .expect("array")
        .iter()
        .find(|c| c["name"] == CASE)
        .expect("case");
    let request = serde_json::json!({
        "pkx": case["pkx"], "pky": case["pky"],
        "transcript_hex": case["transcript_hex"],
        "now": "2024-10-01T09:00:00Z",
        "doc_type": "org.iso.18013.5.1.mDL",
        "attributes": [{"namespace": "org.iso.18013.5.1", "id": "family_name",
                        "value_cbor_hex": "6a4d75737465726d616e6e"}],
    });
    let req = scratch("request.json");
    std::fs::write(&req, request.to_string()).expect("write request");
    let mdoc = scratch("mdoc.cbor");
    let bytes = hex::decode(case["mdoc_hex"].as_str().expect("mdoc_hex")).expect("hex");
    std::fs::write(&mdoc, bytes).expect("write mdoc");
    (req, mdoc)
}

#[test]
fn verify_to_full_stdout_is_not_a_success() {
    let (req, _) = reference_inputs();
    let proof = longfellow_testvectors::path(&format!("google/mdoc/proofs/{V7_1}.bin"));
    let circuit = circuit();
    let args = [
        "mdoc",
        "verify",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--proof",
        s(&proof),
    ];
    let ok = bin().args(args).output().expect("run");
    assert!(ok.status.success(), "{ok:?}");
    assert_eq!(ok.stdout, b"valid\n");
    if let Some(out) = full_stdout(bin().args(args)) {
        let err = clean_failure(&out, 2);
        assert!(err.contains("standard output"), "{err}");
    }
}

#[test]
fn endless_inputs_stop_at_the_size_cap() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let out = bin()
        .args(["circuit", "inspect", "/dev/zero"])
        .output()
        .expect("run");
    let err = clean_failure(&out, 2);
    assert!(err.contains("larger than"), "{err}");
    let out = bin()
        .args(["bench", "--circuit", "/dev/zero", "--runs", "1"])
        .output()
        .expect("run");
    let err = clean_failure(&out, 2);
    assert!(err.contains("larger than"), "{err}");
}

/// A request the old reader accepted: a time that does not exist (and, in
/// other variants, a duplicate key or an unknown field). The prover must
/// refuse it as bad input before any proving.
#[test]
fn prove_refuses_requests_the_strict_reader_refuses() {
    let (req, mdoc) = reference_inputs();
    let good = std::fs::read_to_string(&req).expect("request");
    let variants = [
        (
            "calendar",
            good.replace("2024-10-01T09:00:00Z", "2026-13-45T99:99:99Z"),
            "month",
        ),
        (
            "duplicate",
            good.replacen('{', r#"{"now": "2030-01-01T00:00:00Z", "#, 1),
            "duplicate key",
        ),
        (
            "unknown",
            good.replacen('{', r#"{"nonce": "00", "#, 1),
            "unknown field",
        ),
        (
            "type",
            good.replace(r#""doc_type":"org.iso.18013.5.1.mDL""#, r#""doc_type":1"#),
            "must be a string",
        ),
    ];
    for (name, json, expect) in variants {
        let path = scratch(&format!("request-{name}.json"));
        std::fs::write(&path, &json).expect("write");
        let proof = scratch(&format!("proof-{name}.bin"));
        let out = bin()
            .args([
                "mdoc",
                "prove",
                "--circuit",
                s(&circuit()),
                "--request",
                s(&path),
                "--mdoc",
                s(&mdoc),
                "--out",
                s(&proof),
            ])
            .output()
            .expect("run");
        let err = clean_failure(&out, 2);
        assert!(err.contains(expect), "{name}: {err}");
        assert!(!proof.exists(), "{name}: a proof was written");
    }
}
