//! `longfellow mdoc prove|verify` end to end (docs/cli-contract.md).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(args)
        .output()
        .expect("run longfellow")
}

/// The scratch directory of one test, held by the test and removed when it
/// ends, also when an assertion fails (the guard drops while unwinding):
/// runs left one directory in the temp dir. Tests run in parallel, so each
/// has its own and no test reads a file another is rewriting.
fn scratch() -> TempDir {
    tempfile::Builder::new()
        .prefix("longfellow-mdoc-cli-")
        .tempdir()
        .expect("scratch dir")
}

/// Writes the reference proof's request (family_name of the reference case)
/// and DeviceResponse into `dir`; returns their paths.
fn inputs(dir: &Path, value_cbor_hex: &str) -> (PathBuf, PathBuf) {
    let case = longfellow_testvectors::google::mdoc_case(CASE);
    let request = serde_json::json!({
        "pkx": format!("0x{}", hex::encode(case.pkx)),
        "pky": format!("0x{}", hex::encode(case.pky)),
        "transcript_hex": hex::encode(&case.transcript),
        "now": "2024-10-01T09:00:00Z",
        "doc_type": "org.iso.18013.5.1.mDL",
        "attributes": [{"namespace": "org.iso.18013.5.1", "id": "family_name",
                        "value_cbor_hex": value_cbor_hex}],
    });
    let req = dir.join(format!("req-{value_cbor_hex}.json"));
    std::fs::write(&req, request.to_string()).expect("write request");
    let mdoc = dir.join("mdoc.cbor");
    std::fs::write(&mdoc, &case.mdoc).expect("write mdoc");
    (req, mdoc)
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn one_line_error(out: &Output, code: i32) {
    assert_eq!(out.status.code(), Some(code), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    // The --insecure-seed warning is a line of its own before the error.
    let errors = err
        .trim_end()
        .lines()
        .filter(|l| !l.contains(": warning: --insecure-seed"))
        .count();
    assert_eq!(errors, 1, "stderr: {err}");
}

#[test]
fn prove_reproduces_the_reference_proof_and_verify_accepts_it() {
    longfellow_testvectors::require!();
    let dir = scratch();
    // "Mustermann", the case's family_name.
    let (req, mdoc) = inputs(dir.path(), "6a4d75737465726d616e6e");
    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let proof = dir.path().join("proof.bin");
    let out = run(&[
        "mdoc",
        "prove",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--mdoc",
        s(&mdoc),
        "--insecure-seed",
        "42",
        "--out",
        s(&proof),
    ]);
    assert!(out.status.success(), "{out:?}");
    let warning = String::from_utf8_lossy(&out.stderr);
    assert!(
        warning.contains("warning: --insecure-seed 42") && warning.contains("reveals"),
        "{warning}"
    );
    let expected = longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin"));
    assert!(
        std::fs::read(&proof).expect("proof") == expected,
        "proof differs from Google's"
    );

    let out = run(&[
        "mdoc",
        "verify",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--proof",
        s(&proof),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "valid\n");

    let mut bad = expected.clone();
    bad[1000] ^= 4;
    let bad_path = dir.path().join("bad-proof.bin");
    std::fs::write(&bad_path, bad).expect("write");
    let out = run(&[
        "mdoc",
        "verify",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--proof",
        s(&bad_path),
    ]);
    one_line_error(&out, 1);
    assert!(out.stdout.is_empty());
}

#[test]
fn refusals_exit_1_and_bad_input_exits_2() {
    longfellow_testvectors::require!();
    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let dir = scratch();
    // A value the credential does not hold: the prover refuses, writes nothing.
    let (req, mdoc) = inputs(dir.path(), "6a4d75737465726d616e6f");
    let proof = dir.path().join("refused.bin");
    let out = run(&[
        "mdoc",
        "prove",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--mdoc",
        s(&mdoc),
        "--seed",
        "1",
        "--out",
        s(&proof),
    ]);
    one_line_error(&out, 1);
    assert!(!proof.exists());

    // Unreadable request, missing files, a non-circuit file.
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{not json").expect("write");
    let bad_now = dir.path().join("bad-now.json");
    let text = std::fs::read_to_string(&req).expect("request");
    std::fs::write(
        &bad_now,
        text.replace("2024-10-01T09:00:00Z", "2024-10-01 09:00:00Z"),
    )
    .expect("write");
    one_line_error(
        &run(&[
            "mdoc",
            "verify",
            "--circuit",
            s(&circuit),
            "--request",
            s(&bad_now),
            "--proof",
            s(&junk),
        ]),
        2,
    );
    let missing = dir.path().join("missing");
    for args in [
        vec![
            "mdoc",
            "verify",
            "--circuit",
            s(&circuit),
            "--request",
            s(&junk),
            "--proof",
            s(&junk),
        ],
        vec![
            "mdoc",
            "verify",
            "--circuit",
            s(&circuit),
            "--request",
            s(&req),
            "--proof",
            s(&missing),
        ],
        vec![
            "mdoc",
            "verify",
            "--circuit",
            s(&junk),
            "--request",
            s(&req),
            "--proof",
            s(&junk),
        ],
        vec![
            "mdoc",
            "prove",
            "--circuit",
            s(&circuit),
            "--request",
            s(&req),
            "--mdoc",
            s(&missing),
            "--out",
            s(&proof),
        ],
    ] {
        one_line_error(&run(&args), 2);
    }
    // Usage errors (clap) also exit 2.
    assert_eq!(run(&["mdoc", "verify"]).status.code(), Some(2));
}

#[test]
fn verify_accepts_every_published_circuit_form() {
    longfellow_testvectors::require!();
    let dir = scratch();
    let (req, _) = inputs(dir.path(), "6a4d75737465726d616e6e");
    let proof = longfellow_testvectors::path(&format!("google/mdoc/proofs/{V7_1}.bin"));
    for suffix in ["", ".lfa1"] {
        let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}{suffix}"));
        let out = run(&[
            "mdoc",
            "verify",
            "--circuit",
            s(&circuit),
            "--request",
            s(&req),
            "--proof",
            s(&proof),
        ]);
        assert!(out.status.success(), "{suffix}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "valid\n");
    }
}

/// Exit status `code`, one line on stderr, no panic.
fn clean_failure(out: &Output, code: i32) -> String {
    one_line_error(out, code);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "stderr: {err}");
    err
}

/// Runs with standard output `/dev/full` (every write fails with ENOSPC).
fn full_stdout(cmd: &mut Command) -> Option<Output> {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()?;
    Some(cmd.stdout(full).output().expect("run"))
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
}

#[test]
fn verify_to_full_stdout_is_not_a_success() {
    longfellow_testvectors::require!();
    let dir = scratch();
    let (req, _) = inputs(dir.path(), "6a4d75737465726d616e6e");
    let proof = longfellow_testvectors::path(&format!("google/mdoc/proofs/{V7_1}.bin"));
    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
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

/// A request the old reader accepted: a time that does not exist (and, in
/// other variants, a duplicate key or an unknown field). The prover must
/// refuse it as bad input before any proving.
#[test]
fn prove_refuses_requests_the_strict_reader_refuses() {
    longfellow_testvectors::require!();
    let dir = scratch();
    let (req, mdoc) = inputs(dir.path(), "6a4d75737465726d616e6e");
    let good = std::fs::read_to_string(&req).expect("request");
    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
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
        let path = dir.path().join(format!("request-{name}.json"));
        std::fs::write(&path, &json).expect("write");
        let proof = dir.path().join(format!("proof-{name}.bin"));
        let out = bin()
            .args([
                "mdoc",
                "prove",
                "--circuit",
                s(&circuit),
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

/// A proof made for another circuit (Google's stored v6 one-attribute
/// proof, given to the v7 circuit) is refused with one line that names the
/// circuit it was made for, not a low-level decoding reason.
#[test]
fn verify_names_the_circuit_a_foreign_proof_was_made_for() {
    longfellow_testvectors::require!();
    const V6_1: &str = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";
    let circuit = longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"));
    let proof = longfellow_testvectors::path(&format!("google/mdoc/proofs/{V6_1}.bin"));
    let dir = scratch();
    let (req, _) = inputs(dir.path(), "6a4d75737465726d616e6e");
    let out = run(&[
        "mdoc",
        "verify",
        "--circuit",
        s(&circuit),
        "--request",
        s(&req),
        "--proof",
        s(&proof),
    ]);
    one_line_error(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not match this circuit")
            && err.contains("made for ZkSpec v6 with 1 attribute"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
