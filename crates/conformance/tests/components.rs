//! The component families against the reference vectors: every check runs
//! (none skipped) and passes.

use longfellow_conformance::{run, CollectReporter, Family, Options, Status};

fn run_families(families: &[Family]) -> CollectReporter {
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.families = families.to_vec();
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(out.summary, Some(summary));
    out
}

fn assert_all_pass(out: &CollectReporter, expected_checks: usize) {
    for r in &out.results {
        assert_eq!(
            r.status,
            Status::Pass,
            "{} {}: {}",
            r.family,
            r.name,
            r.reason
        );
    }
    assert_eq!(out.results.len(), expected_checks);
}

#[test]
fn transcript_merkle_commitment_ligero_pass() {
    longfellow_testvectors::require!();
    let out = run_families(&[
        Family::Transcript,
        Family::Merkle,
        Family::Commitment,
        Family::Ligero,
    ]);
    assert_all_pass(&out, 4);
}

#[test]
fn spec_proofs_pass() {
    longfellow_testvectors::require!();
    let out = run_families(&[Family::Spec]);
    assert_all_pass(&out, 2);
}

#[test]
fn isrg_one_circuit_and_bind_vectors_pass() {
    longfellow_testvectors::require!();
    let out = run_families(&[Family::IsrgOneCircuit]);
    assert_all_pass(&out, 2);
    let out = run_families(&[Family::IsrgBind]);
    assert_all_pass(&out, 9);
}

#[test]
fn witness_files_are_rebuilt() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.families = vec![Family::Witnesses];
    opts.filter = Some("8d079211".into());
    let mut out = CollectReporter::default();
    run(&opts, &mut out);
    assert_eq!(out.results.len(), 1);
    assert_eq!(
        out.results[0].status,
        Status::Pass,
        "{}",
        out.results[0].reason
    );
}

/// Every family over the whole vectors directory (the circuit family
/// recomputes the IDs of 24 files, 8.2 M terms each for the largest; run
/// with `cargo test --release -- --ignored`). With only our verifier
/// linked, reproduction and the case sweep skip; nothing may fail.
#[test]
#[ignore = "full vector run: about 30 s with the optimised dev profile"]
fn full_run_has_no_failure() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    // Proving every stored proof and sweeping 176 cases belongs to the CLI.
    opts.backend = Some(std::sync::Arc::new(
        longfellow_conformance::LinkedVerifier::new(),
    ));
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    let failed: Vec<_> = out
        .results
        .iter()
        .filter(|r| r.status == Status::Fail)
        .map(|r| format!("{} {}: {}", r.family, r.name, r.reason))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // 4 component + 2 spec + 2 ISRG + 9 bind + 24 circuit files + 8 witness
    // + 8 stored-proof verifications.
    assert!(
        summary.passed >= 4 + 2 + 2 + 9 + 24 + 8 + 8,
        "{}",
        summary.line()
    );
}
