//! The hostile corpus (`test-vectors/hostile/`) thrown at every subcommand
//! that reads untrusted files — `circuit inspect`, `mdoc prove`, `mdoc
//! verify`, `mdoc present` — one role at a time, the other arguments valid:
//! each run must end with the documented exit status (1 when the prover or
//! verifier refuses, 2 for input that cannot be read) and one line on
//! stderr, never the panic status 101; also with standard output closed or
//! `/dev/full`.
//!
//! `present --transcript` is not a role here: a SessionTranscript is opaque
//! bytes that the proof binds, so any file is a valid one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use longfellow_testvectors::hostile;
use tempfile::TempDir;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
}

/// The scratch directory of one test, held by the test and removed when it
/// ends, also when an assertion fails (the guard drops while unwinding):
/// runs left one directory per test in the temp dir. The tests of this
/// binary run on parallel threads of one process, so each writes its own
/// directory: sharing one let a test truncate `request.json` while another
/// test's child was reading it (an empty request, exit 2 where 1 was
/// expected).
fn scratch(test: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("longfellow-hostile-cli-{test}-"))
        .tempdir()
        .expect("scratch dir")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Valid companions for the one hostile argument: the v7 one-attribute
/// circuit, the synthetic mDL's request cut to its first attribute, its
/// DeviceResponse and SessionTranscript, and a proof-sized placeholder.
struct Valid {
    circuit: PathBuf,
    request: PathBuf,
    mdoc: PathBuf,
    transcript: PathBuf,
    proof: PathBuf,
}

fn valid(dir: &Path) -> Valid {
    let case: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            longfellow_testvectors::workspace_root().join("test-vectors/synthetic/mdl-valid.json"),
        )
        .expect("synthetic vector"),
    )
    .expect("JSON");
    let mut request = case["request"].clone();
    let first = request["attributes"][0].clone();
    request["attributes"] = serde_json::json!([first]);
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).expect("write");
        p
    };
    let hex = |k: &str| hex::decode(case[k].as_str().expect(k)).expect("hex");
    Valid {
        circuit: longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2")),
        request: write("request.json", request.to_string().as_bytes()),
        mdoc: write("mdoc.cbor", &hex("mdoc_hex")),
        transcript: write("transcript.cbor", &hex("session_transcript_hex")),
        proof: write("proof.bin", &[0u8; 64]),
    }
}

/// Every corpus file written to the scratch directory `dir`, with its name.
fn corpus(dir: &Path) -> Vec<(String, PathBuf)> {
    hostile::files()
        .into_iter()
        .map(|(name, bytes)| {
            let p = dir.join(format!("hostile-{name}"));
            std::fs::write(&p, bytes).expect("write");
            (name, p)
        })
        .collect()
}

/// Exit status `code` and exactly one line on stderr, naming no panic.
fn clean_failure(what: &str, out: &Output, code: i32) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{what}: stderr {err}");
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 1, "{what}: stderr {err}");
    assert!(lines[0].starts_with("longfellow"), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn circuit_inspect_refuses_every_file() {
    let dir = scratch("inspect");
    for (name, path) in corpus(dir.path()) {
        let out = bin()
            .args(["circuit", "inspect", s(&path)])
            .output()
            .expect("run");
        clean_failure(&format!("inspect {name}"), &out, 2);
    }
}

#[test]
fn every_file_as_a_circuit_or_a_request() {
    longfellow_testvectors::require!();
    let dir = scratch("circuit-request");
    let v = valid(dir.path());
    for (name, f) in corpus(dir.path()) {
        let runs: [(&str, Vec<&str>); 5] = [
            (
                "verify --circuit",
                vec![
                    "mdoc",
                    "verify",
                    "--circuit",
                    s(&f),
                    "--request",
                    s(&v.request),
                    "--proof",
                    s(&v.proof),
                ],
            ),
            (
                "verify --request",
                vec![
                    "mdoc",
                    "verify",
                    "--circuit",
                    s(&v.circuit),
                    "--request",
                    s(&f),
                    "--proof",
                    s(&v.proof),
                ],
            ),
            (
                "prove --circuit",
                vec![
                    "mdoc",
                    "prove",
                    "--circuit",
                    s(&f),
                    "--request",
                    s(&v.request),
                    "--mdoc",
                    s(&v.mdoc),
                    "--out",
                    "/nonexistent/proof",
                ],
            ),
            (
                "prove --request",
                vec![
                    "mdoc",
                    "prove",
                    "--circuit",
                    s(&v.circuit),
                    "--request",
                    s(&f),
                    "--mdoc",
                    s(&v.mdoc),
                    "--out",
                    "/nonexistent/proof",
                ],
            ),
            (
                "present --circuit",
                vec![
                    "mdoc",
                    "present",
                    "--circuit",
                    s(&f),
                    "--mdoc",
                    s(&v.mdoc),
                    "--transcript",
                    s(&v.transcript),
                    "--attribute",
                    "org.iso.18013.5.1/age_over_18",
                    "--now",
                    "2026-06-01T12:00:00Z",
                    "--out",
                    "/nonexistent/r",
                ],
            ),
        ];
        for (role, args) in runs {
            let out = bin().args(&args).output().expect("run");
            clean_failure(&format!("{role} {name}"), &out, 2);
        }
    }
}

#[test]
fn every_file_as_a_credential() {
    longfellow_testvectors::require!();
    let dir = scratch("credential");
    let v = valid(dir.path());
    for (name, f) in corpus(dir.path()) {
        let out_path = dir.path().join(format!("proof-of-{name}"));
        let out = bin()
            .args([
                "mdoc",
                "prove",
                "--circuit",
                s(&v.circuit),
                "--request",
                s(&v.request),
                "--mdoc",
                s(&f),
                "--out",
                s(&out_path),
            ])
            .output()
            .expect("run");
        clean_failure(&format!("prove --mdoc {name}"), &out, 1);
        assert!(!out_path.exists(), "prove --mdoc {name} wrote a proof");
        let out = bin()
            .args([
                "mdoc",
                "present",
                "--circuit",
                s(&v.circuit),
                "--mdoc",
                s(&f),
                "--transcript",
                s(&v.transcript),
                "--attribute",
                "org.iso.18013.5.1/age_over_18",
                "--now",
                "2026-06-01T12:00:00Z",
                "--out",
                s(&out_path),
            ])
            .output()
            .expect("run");
        clean_failure(&format!("present --mdoc {name}"), &out, 2);
        assert!(!out_path.exists(), "present --mdoc {name} wrote a response");
    }
}

#[test]
fn every_file_as_a_proof() {
    longfellow_testvectors::require!();
    let dir = scratch("proof");
    let v = valid(dir.path());
    for (name, f) in corpus(dir.path()) {
        let out = bin()
            .args([
                "mdoc",
                "verify",
                "--circuit",
                s(&v.circuit),
                "--request",
                s(&v.request),
                "--proof",
                s(&f),
            ])
            .output()
            .expect("run");
        clean_failure(&format!("verify --proof {name}"), &out, 1);
    }
}

/// Standard output closed (a pipe whose reader is gone) or `/dev/full`
/// changes nothing: the same one-line failure.
#[test]
fn closed_or_full_stdout_with_every_file() {
    let full = Path::new("/dev/full").exists();
    let dir = scratch("stdout");
    for (name, f) in corpus(dir.path()) {
        let mut child = bin()
            .args(["circuit", "inspect", s(&f)])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        clean_failure(&format!("inspect {name} | closed"), &out, 2);
        if full {
            let dev_full = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full");
            let out = bin()
                .args(["circuit", "inspect", s(&f)])
                .stdout(dev_full)
                .output()
                .expect("run");
            clean_failure(&format!("inspect {name} > /dev/full"), &out, 2);
        }
    }
}
