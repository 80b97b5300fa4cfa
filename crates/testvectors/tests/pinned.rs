//! The reference vectors are the ones `test-vectors/external.sha256` pins:
//! a changed, missing or unlisted file fails here, once, instead of as a
//! puzzling mismatch deep in some other test.

use std::collections::BTreeSet;
use std::path::Path;

use sha2::{Digest, Sha256};

fn pins() -> Vec<(String, String)> {
    let path = longfellow_testvectors::workspace_root().join("test-vectors/external.sha256");
    let text = std::fs::read_to_string(&path).expect("test-vectors/external.sha256");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (hash, name) = l.split_once("  ").expect("`<sha256>  <path>` lines");
            (hash.to_string(), name.to_string())
        })
        .collect()
}

fn files_under(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).expect("read_dir").flatten() {
        let name = format!("{prefix}{}", e.file_name().to_string_lossy());
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            files_under(&e.path(), &format!("{name}/"), out);
        } else {
            out.insert(name);
        }
    }
}

#[test]
fn every_pin_is_well_formed() {
    let pins = pins();
    assert!(pins.len() >= 70, "{} pins", pins.len());
    for (hash, name) in &pins {
        assert_eq!(hash.len(), 64, "{name}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{name}");
        assert!(!name.starts_with('/') && !name.contains(".."), "{name}");
    }
}

#[test]
fn the_vectors_are_the_pinned_ones() {
    longfellow_testvectors::require!();
    let pins = pins();
    for (hash, name) in &pins {
        let bytes = longfellow_testvectors::read(name);
        assert_eq!(&hex::encode(Sha256::digest(&bytes)), hash, "{name} changed");
    }
    let mut present = BTreeSet::new();
    files_under(&longfellow_testvectors::vectors_dir(), "", &mut present);
    present.remove("README.md");
    let pinned: BTreeSet<String> = pins.into_iter().map(|(_, n)| n).collect();
    let unpinned: Vec<_> = present.difference(&pinned).collect();
    assert!(
        unpinned.is_empty(),
        "not pinned in test-vectors/external.sha256: {unpinned:?}"
    );
}

#[test]
fn missing_vectors_skip_unless_required() {
    // Run in a child process: the environment is process-wide.
    if std::env::var_os("LONGFELLOW_TESTVECTORS_CHILD").is_some() {
        longfellow_testvectors::require!();
        panic!("require! must return when the vectors are missing");
    }
    let exe = std::env::current_exe().expect("exe");
    let run = |require: bool| {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args([
            "missing_vectors_skip_unless_required",
            "--exact",
            "--nocapture",
        ])
        .env("LONGFELLOW_TESTVECTORS_CHILD", "1")
        .env("LONGFELLOW_VECTORS", "/nonexistent/longfellow-vectors");
        if require {
            cmd.env("LONGFELLOW_REQUIRE_VECTORS", "1");
        } else {
            cmd.env_remove("LONGFELLOW_REQUIRE_VECTORS");
        }
        cmd.output().expect("child")
    };
    let skipped = run(false);
    assert!(skipped.status.success(), "{skipped:?}");
    let err = String::from_utf8_lossy(&skipped.stderr);
    assert_eq!(err.matches("skipped: ").count(), 1, "{err}");
    assert!(
        err.contains("/nonexistent/longfellow-vectors") && err.contains("LONGFELLOW_VECTORS"),
        "{err}"
    );
    let failed = run(true);
    assert!(!failed.status.success(), "{failed:?}");
}
