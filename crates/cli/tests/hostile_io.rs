//! The command line's contract under hostile surroundings: a closed or
//! full standard output ends a command with one line on stderr and exit
//! status 2 (never the panic status 101), endless inputs are refused at a
//! size cap (`mdoc_cli.rs` has the verify and request cases).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
}

fn circuit() -> PathBuf {
    longfellow_testvectors::path(&format!("google/mdoc/circuits/{V7_1}.lfa2"))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
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
    longfellow_testvectors::require!();
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
    longfellow_testvectors::require!();
    let dir = longfellow_testvectors::path("google/mdoc/circuits");
    let out = closed_stdout(bin().args(["demo", "--circuits", s(&dir)]));
    clean_failure(&out, 2);
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
