//! Every fuzz target, built by the workspace's own `cargo test` as a stable
//! binary, run for a moment over its committed seeds and random mutations:
//! a target that panics, hangs past its timeout or no longer starts (a
//! fixture it cannot load) fails here, before anyone runs the longer smoke
//! (`.ci/fuzz.sh`, which then reuses these binaries through `FUZZ_BINDIR`).
//! `LONGFELLOW_FUZZ_SECONDS` (default 1) sets each target's time.

use std::path::PathBuf;
use std::process::Command;

fn seconds() -> u64 {
    std::env::var("LONGFELLOW_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Runs the target binary `exe` (named `name`) over its seeds, if any.
fn run(name: &str, exe: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let seeds = root.join("seeds").join(name);
    let scratch =
        std::env::temp_dir().join(format!("longfellow-fuzz-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let mut cmd = Command::new(exe);
    if seeds.is_dir() {
        cmd.arg(&seeds);
    }
    // Crash inputs land in the scratch directory, not in the checkout.
    let out = cmd
        .arg(format!("-max_total_time={}", seconds()))
        .arg("-max_len=65536")
        .arg("-timeout=120")
        .current_dir(&scratch)
        .output()
        .expect("the target binary starts");
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        out.status.success(),
        "fuzz target {name} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("no crash"),
        "{name}: no summary line in {text}"
    );
}

macro_rules! targets {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            run(stringify!($name), env!(concat!("CARGO_BIN_EXE_", stringify!($name))));
        }
    )*};
}

macro_rules! vector_targets {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            longfellow_testvectors::require!();
            run(stringify!($name), env!(concat!("CARGO_BIN_EXE_", stringify!($name))));
        }
    )*};
}

targets!(
    lfc1,
    lfc2,
    lfa2,
    zstd,
    any,
    circuit_structured,
    request_json,
    zk_device_response,
    service_request,
    capi,
);

vector_targets!(
    zk_proof_verify,
    ligero_proof_read,
    sumcheck_proof_read,
    mdoc_device_response,
    mdoc_proof_verify,
    mdoc_prove,
);
