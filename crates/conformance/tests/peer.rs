//! The peer plumbing with stand-in command lines written as shell scripts:
//! exit-status mapping, time limits, and the peer families end to end (a
//! "prover" that returns the stored proof, one that corrupts it, and a
//! "verifier" that accepts exactly the stored proof for the reference
//! request).

use std::path::{Path, PathBuf};
use std::time::Duration;

use longfellow_conformance::{
    run, Attribute, BackendError, CollectReporter, Family, LinkedVerifier, MdocBackend,
    MdocRequest, Options, PeerCli, Status,
};

const HASH: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

struct Scripts(PathBuf);

impl Scripts {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!(
            "longfellow-conformance-peer-{tag}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("dir");
        Self(p)
    }
    /// Writes a script and returns the command that runs it.
    fn script(&self, name: &str, body: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write script");
        format!("sh {}", p.display())
    }
}

impl Drop for Scripts {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Shell prologue: after `mdoc prove|verify`, read the options.
const ARGS: &str = r#"shift 2
while [ $# -gt 0 ]; do
  case "$1" in
    --circuit) circuit="$2";; --request) request="$2";; --mdoc) mdoc="$2";;
    --seed) seed="$2";; --out) out="$2";; --proof) proof="$2";;
  esac
  shift 2
done
h=$(basename "$circuit"); h=${h%%.*}"#;

fn request() -> MdocRequest {
    MdocRequest {
        pkx: "0x01".into(),
        pky: "2".into(),
        transcript: vec![0xab, 0xcd],
        now: "2024-10-01T09:00:00Z".into(),
        doc_type: "org.iso.18013.5.1.mDL".into(),
        attributes: vec![Attribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "age_over_18".into(),
            value_cbor: vec![0xf5],
        }],
    }
}

fn vectors() -> PathBuf {
    longfellow_testvectors::vectors_dir()
}

#[test]
fn exit_statuses_map_to_the_contract() {
    let s = Scripts::new("status");
    let c = Path::new("/nonexistent/circuit");
    let peer = |body: &str, name: &str| PeerCli::new(s.script(name, body), Duration::from_secs(20));

    // The prover gets every option and its request file holds REQ.json.
    let p = peer(
        &format!(
            "{ARGS}\n[ \"$seed\" = 42 ] || exit 2\ngrep -q '\"value_cbor_hex\":\"f5\"' \"$request\" || exit 2\ncat \"$mdoc\" > \"$out\""
        ),
        "echo.sh",
    );
    assert_eq!(
        p.prove(c, &request(), b"mdoc bytes", Some(42)),
        Ok(b"mdoc bytes".to_vec())
    );
    assert!(matches!(
        p.prove(c, &request(), b"x", None),
        Err(BackendError::Usage(_))
    ));

    let p = peer("echo 'attribute missing' >&2; exit 1", "refuse.sh");
    assert_eq!(
        p.prove(c, &request(), b"", None),
        Err(BackendError::Refused("attribute missing".into()))
    );
    assert!(matches!(
        p.verify(c, &request(), b""),
        Err(BackendError::Rejected(_))
    ));

    let p = peer("exit 0", "silent.sh");
    assert!(
        matches!(p.prove(c, &request(), b"", None), Err(BackendError::Crashed(m)) if m.contains("no proof"))
    );
    assert!(
        matches!(p.verify(c, &request(), b""), Err(BackendError::Crashed(m)) if m.contains("valid"))
    );

    let p = peer("echo valid", "valid.sh");
    assert_eq!(p.verify(c, &request(), b""), Ok(()));

    let p = peer("exit 101", "panic.sh");
    assert!(
        matches!(p.verify(c, &request(), b""), Err(BackendError::Crashed(m)) if m.contains("101"))
    );
    let p = peer("kill -SEGV $$", "segv.sh");
    assert!(
        matches!(p.verify(c, &request(), b""), Err(BackendError::Crashed(m)) if m.contains("signal"))
    );
}

#[test]
fn a_hanging_peer_is_killed_at_the_time_limit() {
    let s = Scripts::new("hang");
    let p = PeerCli::new(
        s.script("hang.sh", "sleep 30; echo valid"),
        Duration::from_millis(300),
    );
    let start = std::time::Instant::now();
    let got = p.verify(Path::new("/c"), &request(), b"");
    assert!(matches!(got, Err(BackendError::TimedOut(_))), "{got:?}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

fn peer_opts(family: Family) -> Options {
    let mut opts = Options::new(vectors());
    // Our verifier only: "our proofs" checks skip instead of proving.
    opts.backend = Some(std::sync::Arc::new(LinkedVerifier::new()));
    opts.families = vec![family];
    opts.filter = Some(HASH[..8].into());
    opts.timeout = Duration::from_secs(60);
    opts
}

#[test]
fn a_peer_prover_returning_the_stored_proof_reproduces_it() {
    longfellow_testvectors::require!();
    let s = Scripts::new("prover-ok");
    let mut opts = peer_opts(Family::PeerProver);
    opts.peer_prover = Some(s.script(
        "stored.sh",
        &format!(
            "{ARGS}\n[ \"$seed\" = 42 ] || exit 2\ncp '{}/google/mdoc/proofs/'\"$h\".bin \"$out\"",
            vectors().display()
        ),
    ));
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(out.results.len(), 1, "{:?}", out.results);
    assert_eq!(summary.passed, 1, "{:?}", out.results);
}

#[test]
fn a_peer_prover_with_one_wrong_byte_is_told_where() {
    longfellow_testvectors::require!();
    let proof =
        std::fs::read(vectors().join(format!("google/mdoc/proofs/{HASH}.bin"))).expect("proof");
    // Byte 96 + 32 + 5 lies in the hash circuit's first sumcheck value.
    let at = 96 + 32 + 5;
    assert_ne!(proof[at], 0);
    let s = Scripts::new("prover-bad");
    let mut opts = peer_opts(Family::PeerProver);
    opts.peer_prover = Some(s.script(
        "corrupt.sh",
        &format!(
            "{ARGS}\ncp '{}/google/mdoc/proofs/'\"$h\".bin \"$out\"\nprintf '\\000' | dd of=\"$out\" bs=1 seek={at} conv=notrunc 2>/dev/null",
            vectors().display()
        ),
    ));
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 1, "{:?}", out.results);
    let reason = &out.results[0].reason;
    assert!(
        reason.contains("hash circuit: sumcheck layer 0, round 0, hand 0 (p0)"),
        "{reason}"
    );
}

#[test]
fn a_peer_verifier_is_checked_on_stored_and_mutated_proofs() {
    longfellow_testvectors::require!();
    let transcript = hex::encode(
        longfellow_testvectors::google::mdoc_case(longfellow_testvectors::google::REFERENCE_CASE)
            .transcript,
    );
    let s = Scripts::new("verifier");
    let mut opts = peer_opts(Family::PeerVerifier);
    // Accepts exactly the stored proof with the reference transcript.
    opts.peer_verifier = Some(s.script(
        "strict.sh",
        &format!(
            "{ARGS}\ncmp -s \"$proof\" '{}/google/mdoc/proofs/'\"$h\".bin || {{ echo 'bad proof' >&2; exit 1; }}\ngrep -q '{transcript}' \"$request\" || {{ echo 'bad request' >&2; exit 1; }}\necho valid",
            vectors().display()
        ),
    ));
    let mut out = CollectReporter::default();
    run(&opts, &mut out);
    let by = |prefix: &str| {
        out.results
            .iter()
            .find(|r| r.name.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} check in {:?}", out.results))
    };
    assert_eq!(by("stored").status, Status::Pass, "{}", by("stored").reason);
    assert_eq!(
        by("mutated").status,
        Status::Pass,
        "{}",
        by("mutated").reason
    );
    assert_eq!(by("ours").status, Status::Skip);

    // A verifier that accepts everything fails the mutation check.
    opts.peer_verifier = Some(s.script("lax.sh", "echo valid"));
    let mut out = CollectReporter::default();
    run(&opts, &mut out);
    let mutated = out
        .results
        .iter()
        .find(|r| r.name.starts_with("mutated"))
        .expect("mutated check");
    assert_eq!(mutated.status, Status::Fail);
    assert!(mutated.reason.contains("sig circuit"), "{}", mutated.reason);
    assert!(
        mutated
            .reason
            .contains("session transcript changed: accepted"),
        "{}",
        mutated.reason
    );
}
