//! The in-process backends: the verify-only one accepts Google's stored
//! proof, rejects a copy with one changed byte and skips proving with the
//! reason; the default one (prover linked) reproduces the stored v7 proof
//! byte for byte with seed 42.

use std::path::PathBuf;

use std::sync::Arc;

use longfellow_conformance::{
    run, BackendError, CollectReporter, Family, LinkedVerifier, MdocBackend, MdocRequest, Options,
    Status,
};

const HASH: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

#[test]
fn stored_proof_is_verified_and_reproduction_is_skipped() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.backend = Some(Arc::new(LinkedVerifier::new()));
    opts.families = vec![Family::MdocProofs, Family::Cases];
    opts.filter = Some("v7/1 8d079211".into());
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(summary.failed, 0, "{:?}", out.results);
    let find = |p: &str| {
        out.results
            .iter()
            .find(|r| r.name.starts_with(p))
            .unwrap_or_else(|| panic!("{p}: {:?}", out.results))
    };
    assert_eq!(
        find("verify").status,
        Status::Pass,
        "{}",
        find("verify").reason
    );
    assert_eq!(find("reproduce").status, Status::Skip);
    assert_eq!(find("reproduce").reason, "mdoc prover not linked");
}

#[test]
fn a_changed_byte_or_request_is_rejected() {
    longfellow_testvectors::require!();
    let dir = longfellow_testvectors::vectors_dir();
    let circuit: PathBuf = dir.join(format!("google/mdoc/circuits/{HASH}"));
    let proof = std::fs::read(dir.join(format!("google/mdoc/proofs/{HASH}.bin"))).expect("proof");
    let case =
        longfellow_testvectors::google::mdoc_case(longfellow_testvectors::google::REFERENCE_CASE);
    let request = MdocRequest {
        pkx: format!("0x{}", hex::encode(case.pkx)),
        pky: format!("0x{}", hex::encode(case.pky)),
        transcript: case.transcript,
        now: "2024-10-01T09:00:00Z".into(),
        doc_type: case.doc_type,
        attributes: vec![longfellow_conformance::Attribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "family_name".into(),
            value_cbor: [&[0x6a][..], b"Mustermann"].concat(),
        }],
    };
    let v = LinkedVerifier::new();
    assert!(!v.can_prove());
    assert_eq!(v.verify(&circuit, &request, &proof), Ok(()));
    let mut bad = proof.clone();
    bad[200] ^= 1;
    assert!(matches!(
        v.verify(&circuit, &request, &bad),
        Err(BackendError::Rejected(_))
    ));
    let mut other = request.clone();
    other.attributes[0].value_cbor = [&[0x6a][..], b"Musterfrau"].concat();
    assert!(matches!(
        v.verify(&circuit, &other, &proof),
        Err(BackendError::Rejected(_))
    ));
    assert!(matches!(
        v.prove(&circuit, &request, b"", Some(42)),
        Err(BackendError::Unavailable(_))
    ));
}

#[test]
fn the_linked_prover_reproduces_the_stored_v7_proof() {
    longfellow_testvectors::require!();
    let mut opts = Options::new(longfellow_testvectors::vectors_dir());
    opts.families = vec![Family::MdocProofs];
    opts.filter = Some("reproduce v7/1 8d079211".into());
    let mut out = CollectReporter::default();
    let summary = run(&opts, &mut out);
    assert_eq!(out.results.len(), 1);
    assert_eq!(summary.passed, 1, "{}", out.results[0].reason);
    assert!(out.results[0]
        .reason
        .contains("360596 proof bytes reproduced"));
}
