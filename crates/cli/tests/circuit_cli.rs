//! `longfellow circuit inspect` end to end.

use std::process::Command;

const DIR: &str = "google/mdoc/circuits";

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(args)
        .output()
        .expect("run longfellow")
}

#[test]
fn inspect_json_reports_google_zkspec_hashes() {
    longfellow_testvectors::require!();
    // (hash, version, attributes) from Google's ZkSpec table.
    let cases = [
        (
            "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
            7,
            1,
        ),
        (
            "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
            7,
            4,
        ),
        (
            "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
            6,
            1,
        ),
    ];
    for (hash, version, attrs) in cases {
        for suffix in ["", ".lfa1", ".lfa2"] {
            let path = longfellow_testvectors::path(&format!("{DIR}/{hash}{suffix}"));
            let out = run(&[
                "circuit",
                "inspect",
                "--json",
                path.to_str().unwrap_or_default(),
            ]);
            assert!(
                out.status.success(),
                "{hash}{suffix}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
            assert_eq!(v["zkspec_hash"], hash);
            assert_eq!(v["version"], version);
            assert_eq!(v["attributes"], attrs);
            assert_eq!(v["circuits"][0]["field"], "p256");
            assert_eq!(v["circuits"][1]["field"], "gf2_128");
        }
    }
}

#[test]
fn inspect_single_circuits() {
    longfellow_testvectors::require!();
    let path = longfellow_testvectors::path("google/spec/ecdsa2_circuit.lfc2");
    let out = run(&[
        "circuit",
        "inspect",
        "--json",
        path.to_str().unwrap_or_default(),
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["kind"], "circuit");
    assert_eq!(v["field"], "p256");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    // Removed when the test ends, also when an assertion fails.
    let dir = tempfile::Builder::new()
        .prefix("longfellow-cli-")
        .tempdir()
        .expect("tmp");
    let bad = dir.path().join("bad");
    std::fs::write(&bad, b"LFC2\x01\x02").expect("write");
    for args in [
        vec!["circuit", "inspect", bad.to_str().unwrap_or_default()],
        vec!["circuit", "inspect", "/nonexistent/file"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}
