//! `longfellow circuits fetch | verify | list` and `demo` against a loopback
//! mirror standing in for Google's repository.

use std::path::Path;
use std::process::{Command, Output};

use longfellow_testvectors::mirror::Mirror;
use tempfile::TempDir;

const V7_1: &str = longfellow_testvectors::google::V7_1;

/// A fresh directory for one test, held by the test and removed when it
/// ends, also when an assertion fails (the guard drops while unwinding).
fn temp_dir(tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("longfellow-cli-{tag}-"))
        .tempdir()
        .expect("temp dir")
}

/// Runs the binary with a private cache dir and no circuit settings from
/// the caller's environment.
fn run(cache: &Path, args: &[&str], url: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_longfellow"));
    cmd.args(args)
        .env("XDG_CACHE_HOME", cache)
        .env("HOME", cache)
        .env_remove("LONGFELLOW_CIRCUITS")
        .env_remove("LONGFELLOW_CIRCUITS_URL");
    if let Some(u) = url {
        cmd.env("LONGFELLOW_CIRCUITS_URL", u);
    }
    cmd.output().expect("run longfellow")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn real_mirror() -> Mirror {
    let name = format!("{V7_1}.lfa2");
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{name}"));
    Mirror::serve(vec![(name, bytes)])
}

#[test]
fn fetch_into_the_cache_then_demo_finds_it_there() {
    longfellow_testvectors::require!();
    let mirror = real_mirror();
    let cache = temp_dir("cache");
    let out = run(
        cache.path(),
        &["circuits", "fetch", "--base-url", mirror.url()],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let stored = cache
        .path()
        .join("longfellow/circuits")
        .join(format!("{V7_1}.lfa2"));
    assert!(stored.is_file(), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).starts_with("fetched "),
        "{}",
        text(&out.stdout)
    );

    let out = run(cache.path(), &["demo"], None);
    assert!(out.status.success(), "{out:?}");
    let stdout = text(&out.stdout);
    let shown = std::fs::canonicalize(&stored).expect("canonical");
    assert!(stdout.contains(&shown.display().to_string()), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("valid"));

    let out = run(cache.path(), &["circuits", "list"], None);
    assert!(
        text(&out.stdout).contains(&stored.display().to_string()),
        "{out:?}"
    );
}

#[test]
fn demo_with_fetch_downloads_what_it_needs_from_the_mirror() {
    longfellow_testvectors::require!();
    let mirror = real_mirror();
    let cache = temp_dir("demo-fetch");
    let dir = cache.path().join("circuits-here");
    let dir_s = dir.to_str().expect("utf-8");
    let out = run(
        cache.path(),
        &["demo", "--circuits", dir_s, "--fetch"],
        Some(mirror.url()),
    );
    assert!(out.status.success(), "{out:?}");
    assert!(dir.join(format!("{V7_1}.lfa2")).is_file());
    assert_eq!(text(&out.stdout).lines().last(), Some("valid"));
}

#[test]
fn demo_without_circuits_offers_the_fetch() {
    let cache = temp_dir("no-circuits");
    let empty = cache.path().join("empty");
    let out = run(
        cache.path(),
        &["demo", "--circuits", empty.to_str().expect("utf-8")],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = text(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("longfellow circuits fetch") && err.contains("--fetch"),
        "{err}"
    );
}

#[test]
fn a_tampered_mirror_is_refused_and_the_store_stays_empty() {
    let mirror = Mirror::serve(vec![(format!("{V7_1}.lfa2"), b"tampered".to_vec())]);
    let cache = temp_dir("tampered");
    let dir = cache.path().join("store");
    let out = run(
        cache.path(),
        &[
            "circuits",
            "fetch",
            "--dir",
            dir.to_str().expect("utf-8"),
            "--base-url",
            mirror.url(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = text(&out.stderr);
    assert!(
        err.contains("refused") && err.contains("nothing written"),
        "{err}"
    );
    assert!(std::fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none()));
}

#[test]
fn verify_exits_1_on_a_file_the_catalog_does_not_vouch_for() {
    let cache = temp_dir("verify");
    std::fs::write(cache.path().join(format!("{V7_1}.lfa2")), b"not it").expect("write");
    let out = run(
        cache.path(),
        &["circuits", "verify", cache.path().to_str().expect("utf-8")],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(text(&out.stdout).contains("REFUSED"), "{out:?}");
}

#[test]
fn a_bad_circuits_variable_is_warned_about() {
    let cache = temp_dir("badenv");
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["circuits", "list"])
        .env("XDG_CACHE_HOME", cache.path())
        .env("LONGFELLOW_CIRCUITS", cache.path().join("no-such-dir"))
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    assert!(
        text(&out.stderr).contains("is not a directory; ignored"),
        "{out:?}"
    );
}
