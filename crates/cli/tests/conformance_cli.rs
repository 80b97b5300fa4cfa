//! `longfellow conformance` fails when it ran nothing, and says why.

use std::process::{Command, Output};

fn conformance(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .arg("conformance")
        .args(args)
        .env_remove("LONGFELLOW_VECTORS")
        .output()
        .expect("run longfellow conformance")
}

#[test]
fn a_wrong_vectors_directory_is_a_failure() {
    let out = conformance(&["--vectors", "/nonexistent/longfellow-vectors"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no check ran") && err.contains("/nonexistent/longfellow-vectors"),
        "{err}"
    );
}

#[test]
fn a_filter_matching_nothing_is_a_failure() {
    longfellow_testvectors::require!();
    let dir = longfellow_testvectors::vectors_dir();
    let out = conformance(&[
        "--vectors",
        dir.to_str().expect("utf-8"),
        "--family",
        "transcript",
        "--filter",
        "no-check-is-called-this",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--filter `no-check-is-called-this`"));
}

#[test]
fn the_default_vectors_are_found_from_another_working_directory() {
    longfellow_testvectors::require!();
    if std::env::var_os("LONGFELLOW_VECTORS").is_some() {
        return; // the default is not what this run uses
    }
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["conformance", "--family", "transcript"])
        .current_dir(std::env::temp_dir())
        .env_remove("LONGFELLOW_VECTORS")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("PASS transcript"),
        "{out:?}"
    );
}

#[test]
fn seed_without_a_peer_is_warned_about() {
    let out = conformance(&[
        "--vectors",
        "/nonexistent/longfellow-vectors",
        "--seed",
        "7",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--seed") && err.contains("ignored"), "{err}");
}
