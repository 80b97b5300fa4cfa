//! A credential other than the reference proofs': an EU age-verification
//! attestation whose IssuerSignedItem puts elementValue before
//! elementIdentifier. Version 7 proves it; version 6 cannot express that
//! order and must refuse up front with the specific error.

// The reference inputs are shared with longfellow-mdoc's tests.
#[path = "../../mdoc/tests/common/mod.rs"]
mod common;

use longfellow_mdoc::{RequestedAttribute, Verifier};
use longfellow_mdoc_prover::{MdocError, ProveError, Prover};
use longfellow_random::MdocLcg;

const EUAV: &str = "EUAV_Age_Over_18-mdoc[16].json";

fn request() -> (longfellow_mdoc::MdocRequest, Vec<u8>) {
    let (mut request, mdoc) = common::case_named(EUAV);
    request.attributes = vec![RequestedAttribute {
        namespace: "eu.europa.ec.av.1".into(),
        id: "age_over_18".into(),
        value_cbor: vec![0xf5],
    }];
    (request, mdoc)
}

#[test]
fn v7_proves_and_verifies_an_eu_age_attestation() {
    longfellow_testvectors::require!();
    let (request, mdoc) = request();
    let pair = common::load(common::PROOFS[0].2);
    let proof = Prover::new(&pair)
        .expect("prover")
        .prove(&request, &mdoc, &mut MdocLcg::new(7))
        .expect("prove");
    let verifier = Verifier::new(&pair).expect("verifier");
    verifier.verify(&request, &proof).expect("valid");
    // Not valid for a different claim.
    let mut other = request.clone();
    other.attributes[0].value_cbor = vec![0xf4];
    assert!(verifier.verify(&other, &proof).is_err());
}

#[test]
fn v6_refuses_the_reordered_item_before_proving() {
    longfellow_testvectors::require!();
    let (request, mdoc) = request();
    let pair = common::load(common::PROOFS[4].2);
    let got = Prover::new(&pair)
        .expect("prover")
        .prove(&request, &mdoc, &mut MdocLcg::new(7));
    assert!(
        matches!(
            got,
            Err(ProveError::Refused(MdocError::AttributeOrderUnsupported { ref id })) if id == "age_over_18"
        ),
        "{got:?}"
    );
}

#[test]
fn requests_the_credential_does_not_support_are_refused() {
    longfellow_testvectors::require!();
    let (request, mdoc) = common::request(1);
    let pair = common::load(common::PROOFS[0].2);
    let prover = Prover::new(&pair).expect("prover");
    let mut rng = MdocLcg::new(1);

    let mut r = request.clone();
    r.attributes[0].value_cbor = b"\x6aMustermanm".to_vec();
    assert!(matches!(
        prover.prove(&r, &mdoc, &mut rng),
        Err(ProveError::Refused(MdocError::AttributeValueMismatch(_)))
    ));
    let mut r = request.clone();
    r.attributes[0].id = "not_in_this_mdoc".into();
    assert!(matches!(
        prover.prove(&r, &mdoc, &mut rng),
        Err(ProveError::Refused(MdocError::AttributeNotFound(_)))
    ));
    let mut r = request.clone();
    r.now = *b"2099-01-01T00:00:00Z";
    assert!(matches!(
        prover.prove(&r, &mdoc, &mut rng),
        Err(ProveError::Refused(MdocError::NotValidAt { .. }))
    ));
    let mut r = request.clone();
    r.issuer_pk.0[31] ^= 1;
    assert!(matches!(
        prover.prove(&r, &mdoc, &mut rng),
        Err(ProveError::Refused(
            MdocError::InvalidPublicKey(_) | MdocError::SignatureFailure(_)
        ))
    ));
    let (two, _) = common::request(2);
    assert!(matches!(
        prover.prove(&two, &mdoc, &mut rng),
        Err(ProveError::Refused(MdocError::AttributeCount { .. }))
    ));
    assert!(matches!(
        prover.prove(&request, &mdoc[..mdoc.len() / 2], &mut rng),
        Err(ProveError::Refused(_))
    ));
}
