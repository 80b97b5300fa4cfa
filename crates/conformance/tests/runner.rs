//! The runner: missing data is skipped with a reason, failures name the
//! first diverging component, the summary line and JSON objects have the
//! documented form, and the exit status follows the failure count.

use std::path::{Path, PathBuf};

use longfellow_conformance::{
    run, CollectReporter, Family, JsonReporter, Options, Status, TextReporter,
};

/// A scratch vectors directory under the system temp dir.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!(
            "longfellow-conformance-test-{tag}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("scratch dir");
        Self(p)
    }
    fn put(&self, relative: &str, bytes: &[u8]) {
        let p = self.0.join(relative);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, bytes).expect("write");
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn an_empty_directory_skips_every_family_with_a_reason() {
    let dir = Scratch::new("empty");
    let opts = Options::new(dir.path());
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 0);
    assert_eq!(summary.passed, 0);
    assert_eq!(summary.skipped, out.results.len());
    for family in Family::ALL {
        let r: Vec<_> = out.results.iter().filter(|r| r.family == family).collect();
        assert!(!r.is_empty(), "{family} reported nothing");
        for r in r {
            assert_eq!(r.status, Status::Skip);
            assert!(!r.reason.is_empty());
        }
    }
    assert!(out
        .results
        .iter()
        .any(|r| r.reason.contains("transcript_test_vector.bin")));
    // Nothing ran: a failure, not a silent success.
    assert!(summary.ran_nothing());
    assert_eq!(summary.exit_code(), 1);
}

#[test]
fn a_corrupted_transcript_vector_fails_naming_the_round() {
    longfellow_testvectors::require!();
    let dir = Scratch::new("transcript");
    let mut bytes = longfellow_testvectors::read("google/runtime/transcript_test_vector.bin");
    bytes[37 * 256 + 100] ^= 1;
    dir.put("google/runtime/transcript_test_vector.bin", &bytes);
    let mut opts = Options::new(dir.path());
    opts.families = vec![Family::Transcript];
    let mut text = TextReporter::new(Vec::new());
    let summary = run(&opts, &mut text);
    let printed = String::from_utf8(text.into_inner()).expect("utf-8");
    assert_eq!(summary.failed, 1);
    assert_eq!(summary.exit_code(), 1);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 2, "{printed}");
    assert!(lines[0].starts_with("FAIL transcript "), "{printed}");
    assert!(
        lines[0].contains("transcript round 37: challenge bytes"),
        "{printed}"
    );
    assert_eq!(lines[1], "0 passed, 1 failed, 0 skipped");
}

#[test]
fn a_corrupted_merkle_opening_names_the_digest() {
    longfellow_testvectors::require!();
    let dir = Scratch::new("merkle");
    let mut bytes = longfellow_testvectors::read("google/runtime/merkle_test_vector.bin");
    // Layout: n, n leaves, q, q indices, root, count, digests.
    let n = 256;
    let q = 6;
    let digests_at = 8 + n * 32 + 8 + q * 8 + 32 + 8;
    bytes[digests_at + 12 * 32 + 3] ^= 1;
    dir.put("google/runtime/merkle_test_vector.bin", &bytes);
    let mut opts = Options::new(dir.path());
    opts.families = vec![Family::Merkle];
    let mut out = CollectReporter::default();
    run(&opts, &mut out);
    assert_eq!(out.results.len(), 1);
    assert_eq!(out.results[0].status, Status::Fail);
    assert!(
        out.results[0].reason.contains("Merkle digest 12"),
        "{}",
        out.results[0].reason
    );
}

#[test]
fn a_truncated_vector_is_a_failure_not_a_crash() {
    longfellow_testvectors::require!();
    let dir = Scratch::new("truncated");
    let bytes = longfellow_testvectors::read("google/runtime/ligero_test_vector.bin");
    dir.put(
        "google/runtime/ligero_test_vector.bin",
        &bytes[..bytes.len() / 2],
    );
    let mut opts = Options::new(dir.path());
    opts.families = vec![Family::Ligero];
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 1);
    assert!(
        out.results[0].reason.contains("malformed"),
        "{}",
        out.results[0].reason
    );
}

#[test]
fn json_objects_carry_the_five_fields_and_the_summary_goes_aside() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.families = vec![Family::Merkle, Family::Commitment, Family::PeerProver];
    let mut json = JsonReporter::new(Vec::new(), Vec::new());
    let summary = run(&opts, &mut json);
    let (objects, summary_line) = json.into_inner();
    let objects = String::from_utf8(objects).expect("utf-8");
    let lines: Vec<&str> = objects.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let obj = v.as_object().expect("object");
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["family", "name", "reason", "seconds", "status"]);
        assert!(v["seconds"].as_f64().is_some());
    }
    let statuses: Vec<String> = lines
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json")["status"].to_string())
        .collect();
    assert_eq!(statuses, ["\"pass\"", "\"pass\"", "\"skip\""]);
    assert_eq!(
        String::from_utf8(summary_line).expect("utf-8").trim(),
        "2 passed, 0 failed, 1 skipped"
    );
    assert_eq!(summary.line(), "2 passed, 0 failed, 1 skipped");
}

#[test]
fn without_a_linked_prover_the_mdoc_families_say_so() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.backend = None;
    opts.families = vec![Family::MdocProofs, Family::Cases];
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 0);
    // 8 stored proofs × (reproduce, verify) + one summary skip for the sweep.
    assert_eq!(out.results.len(), 17);
    for r in &out.results {
        assert_eq!(r.status, Status::Skip);
        assert_eq!(r.reason, "mdoc prover not linked");
    }
    assert!(
        out.results[16].name.starts_with("176 case"),
        "{}",
        out.results[16].name
    );
}

#[test]
fn a_corrupted_witness_file_names_the_input_and_its_meaning() {
    longfellow_testvectors::require!();
    let h = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
    let dir = Scratch::new("witness");
    for f in [
        format!("google/mdoc/circuits/{h}"),
        format!("google/mdoc/proofs/{h}.bin"),
        format!("google/mdoc/proofs/{h}_sig_witness.bin"),
        "google/mdoc/cases.json".to_string(),
    ] {
        dir.put(&f, &longfellow_testvectors::read(&f));
    }
    // v7 / 1 attribute: 1 + 784 attribute bits + 160 bits of now, then MACs.
    let mac3 = 1 + 784 + 160 + 3;
    let mut hash =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{h}_hash_witness.bin"));
    hash[16 * mac3 + 7] ^= 1;
    dir.put(&format!("google/mdoc/proofs/{h}_hash_witness.bin"), &hash);
    let mut opts = Options::new(dir.path());
    opts.families = vec![Family::Witnesses];
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 1, "{:?}", out.results);
    let reason = &out.results[0].reason;
    assert!(
        reason.contains(&format!("hash witness: input {mac3} (public): MAC tag 3")),
        "{reason}"
    );
    assert!(!reason.contains("sig witness"), "{reason}");
}
