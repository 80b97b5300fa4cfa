//! The families that need the two-circuit prover, with stand-in backends
//! linked in process: the stored proofs, the case sweep's expectations,
//! and the peer prover checked against "our" verifier.

use std::path::Path;
use std::sync::Arc;

use longfellow_conformance::{
    run, BackendError, CollectReporter, Family, MdocBackend, MdocRequest, Options, Status,
};

/// Returns the stored proof for the circuit's hash when asked with seed 42
/// (optionally with one byte changed); proves anything else as `[1, 2, 3]`
/// and accepts any non-empty proof.
struct Stand {
    flip: Option<usize>,
    refuse_all: bool,
}

fn stored(circuit: &Path) -> Vec<u8> {
    let name = circuit
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let hash = name.split('.').next().expect("hash");
    std::fs::read(
        longfellow_testvectors::vectors_dir().join(format!("google/mdoc/proofs/{hash}.bin")),
    )
    .expect("stored proof")
}

impl MdocBackend for Stand {
    fn name(&self) -> String {
        "stand-in".into()
    }
    fn prove(
        &self,
        circuit: &Path,
        request: &MdocRequest,
        _mdoc: &[u8],
        seed: Option<u64>,
    ) -> Result<Vec<u8>, BackendError> {
        if self.refuse_all {
            return Err(BackendError::Refused("no".into()));
        }
        if seed == Some(42)
            && request.attributes.first().map(|a| a.id.as_str()) == Some("family_name")
        {
            let mut p = stored(circuit);
            if let Some(at) = self.flip {
                p[at] ^= 1;
            }
            return Ok(p);
        }
        Ok(vec![1, 2, 3])
    }
    fn verify(&self, circuit: &Path, _: &MdocRequest, proof: &[u8]) -> Result<(), BackendError> {
        if proof.len() == 3 || proof == stored(circuit) {
            Ok(())
        } else {
            Err(BackendError::Rejected("not ours".into()))
        }
    }
}

fn opts(families: &[Family], backend: Stand) -> Options {
    let mut o = Options::new(longfellow_testvectors::vectors_dir());
    o.families = families.to_vec();
    o.backend = Some(Arc::new(backend));
    o
}

#[test]
fn stored_proofs_pass_when_reproduced_and_name_the_divergence_otherwise() {
    longfellow_testvectors::require!();
    let mut o = opts(
        &[Family::MdocProofs],
        Stand {
            flip: None,
            refuse_all: false,
        },
    );
    o.filter = Some("8d079211".into());
    let mut out = CollectReporter::default();
    let s = run(&o, &mut out);
    assert_eq!((s.passed, s.failed), (2, 0), "{:?}", out.results);

    // One byte flipped in MAC tag 2.
    let mut o = opts(
        &[Family::MdocProofs],
        Stand {
            flip: Some(2 * 16 + 1),
            refuse_all: false,
        },
    );
    o.filter = Some("reproduce v7/1".into());
    let mut out = CollectReporter::default();
    let s = run(&o, &mut out);
    assert_eq!(s.failed, 1);
    assert!(
        out.results[0].reason.contains("MAC tag 2"),
        "{}",
        out.results[0].reason
    );
}

#[test]
fn the_case_sweep_expects_exactly_the_reference_refusals() {
    longfellow_testvectors::require!();
    let o = opts(
        &[Family::Cases],
        Stand {
            flip: None,
            refuse_all: false,
        },
    );
    let mut out = CollectReporter::default();
    let s = run(&o, &mut out);
    assert_eq!(out.results.len(), 22 * 8);
    assert!(s.passed > 0);
    // A prover that never refuses fails exactly the version-6 EUAV 16–19 runs.
    let failed: Vec<_> = out
        .results
        .iter()
        .filter(|r| r.status == Status::Fail)
        .collect();
    assert!(!failed.is_empty());
    for r in &failed {
        assert!(
            r.name.starts_with("EUAV") && r.name.contains("× v6/"),
            "{}: {}",
            r.name,
            r.reason
        );
        assert!(
            r.reason.contains("where the reference refuses"),
            "{}",
            r.reason
        );
    }
    // Skips only where the mdoc holds fewer attributes than the circuit.
    for r in out.results.iter().filter(|r| r.status == Status::Skip) {
        assert!(r.reason.contains("the circuit discloses"), "{}", r.reason);
    }

    // A prover that always refuses passes exactly those.
    let o = opts(
        &[Family::Cases],
        Stand {
            flip: None,
            refuse_all: true,
        },
    );
    let mut out2 = CollectReporter::default();
    run(&o, &mut out2);
    let passed: Vec<_> = out2
        .results
        .iter()
        .filter(|r| r.status == Status::Pass)
        .map(|r| &r.name)
        .collect();
    let failed_before: Vec<_> = failed.iter().map(|r| &r.name).collect();
    assert_eq!(passed, failed_before);
}

#[test]
fn a_peer_provers_proof_is_also_checked_by_our_verifier() {
    longfellow_testvectors::require!();
    // Removed when the test ends, also when an assertion fails.
    let dir = tempfile::Builder::new()
        .prefix("longfellow-conformance-pv-")
        .tempdir()
        .expect("dir");
    let script = dir.path().join("stored.sh");
    std::fs::write(
        &script,
        format!(
            "shift 2\nwhile [ $# -gt 0 ]; do case \"$1\" in --circuit) c=\"$2\";; --out) o=\"$2\";; esac; shift 2; done\nh=$(basename \"$c\"); h=${{h%%.*}}\ncp '{}/google/mdoc/proofs/'\"$h\".bin \"$o\"\n",
            longfellow_testvectors::vectors_dir().display()
        ),
    )
    .expect("script");
    let mut o = opts(
        &[Family::PeerProver],
        Stand {
            flip: None,
            refuse_all: false,
        },
    );
    o.filter = Some("8d079211".into());
    o.peer_prover = Some(format!("sh {}", script.display()));
    let mut out = CollectReporter::default();
    let s = run(&o, &mut out);
    assert_eq!((s.passed, s.failed), (1, 0), "{:?}", out.results);
    assert!(
        out.results[0].reason.contains("accepted by our verifier"),
        "{}",
        out.results[0].reason
    );
}

/// Accepts everything.
struct Lax;

impl MdocBackend for Lax {
    fn name(&self) -> String {
        "lax".into()
    }
    fn can_prove(&self) -> bool {
        false
    }
    fn prove(
        &self,
        _: &Path,
        _: &MdocRequest,
        _: &[u8],
        _: Option<u64>,
    ) -> Result<Vec<u8>, BackendError> {
        Err(BackendError::Unavailable("verify only".into()))
    }
    fn verify(&self, _: &Path, _: &MdocRequest, _: &[u8]) -> Result<(), BackendError> {
        Ok(())
    }
}

#[test]
fn a_verifier_that_accepts_a_changed_proof_fails_the_verify_check() {
    longfellow_testvectors::require!();
    let mut o = Options::new(longfellow_testvectors::vectors_dir());
    o.families = vec![Family::MdocProofs];
    o.filter = Some("verify v7/1".into());
    o.backend = Some(Arc::new(Lax));
    let mut out = CollectReporter::default();
    let s = run(&o, &mut out);
    assert_eq!(s.failed, 1, "{:?}", out.results);
    assert!(
        out.results[0].reason.contains("also accepted"),
        "{}",
        out.results[0].reason
    );
}
