//! `longfellow demo` end to end.

use std::process::Command;

fn demo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .arg("demo")
        .args(args)
        .output()
        .expect("run longfellow demo")
}

#[test]
fn demo_proves_and_verifies_a_synthetic_credential() {
    longfellow_testvectors::require!();
    let dir = longfellow_testvectors::path("google/mdoc/circuits");
    let out = demo(&["--circuits", dir.to_str().expect("utf-8")]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for key in ["load ", "prove ", "verify ", "proof ", "peak mem "] {
        assert!(
            stdout.lines().any(|l| l.starts_with(key)),
            "{key} missing: {stdout}"
        );
    }
    assert_eq!(stdout.lines().last(), Some("valid"));
}

#[test]
fn demo_without_circuits_says_where_to_get_them() {
    let out = demo(&["--circuits", "/nonexistent-longfellow-circuits"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1);
    assert!(err.contains("longfellow circuits fetch"), "{err}");
}
