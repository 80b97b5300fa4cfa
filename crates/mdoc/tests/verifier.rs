//! The verifier on Google's stored proofs: accepts them for the request
//! they were made for, and rejects every altered statement or proof with a
//! typed reason (never a panic).

mod common;

use std::sync::OnceLock;

use longfellow_circuit::CircuitPair;
use longfellow_mdoc::{
    CircuitKind, FailedCheck, MdocRequest, ProofFormatError, PublicInputError, RequestError,
    Verifier, VerifyError,
};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const V7_2: &str = "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad";
const V6_1: &str = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6";

fn pair() -> &'static CircuitPair {
    static PAIR: OnceLock<CircuitPair> = OnceLock::new();
    PAIR.get_or_init(|| common::load(V7_1))
}

fn verify(request: &MdocRequest, proof: &[u8]) -> Result<(), VerifyError> {
    Verifier::new(pair())
        .expect("verifier")
        .verify(request, proof)
}

fn rejected_in(r: Result<(), VerifyError>, circuit: CircuitKind) -> FailedCheck {
    match r {
        Err(VerifyError::Rejected { circuit: c, check }) if c == circuit => {
            eprintln!("rejected: {c}: {check}");
            check
        }
        other => panic!("expected a {circuit} rejection, got {other:?}"),
    }
}

#[test]
fn accepts_the_stored_proof() {
    longfellow_testvectors::require!();
    let (request, _) = common::request(1);
    let proof = common::stored_proof(V7_1);
    verify(&request, &proof).expect("valid");
    // Another ZkSpec's pair and proof.
    let v6 = common::load(V6_1);
    Verifier::new(&v6)
        .expect("v6 verifier")
        .verify(&request, &common::stored_proof(V6_1))
        .expect("v6 valid");
}

#[test]
fn statement_changes_are_rejected() {
    longfellow_testvectors::require!();
    let (request, _) = common::request(1);
    let proof = common::stored_proof(V7_1);

    // The issuer key and docType only enter the signature circuit, after
    // the hash circuit's proof has been accepted.
    // Another valid key (the P-256 generator) is a different statement ...
    let mut r = request.clone();
    r.issuer_pk = (
        common::hex32("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
        common::hex32("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"),
    );
    rejected_in(verify(&r, &proof), CircuitKind::Signature);
    // ... while a key off the curve is a wrong key, said as such.
    let mut r = request.clone();
    r.issuer_pk.0[31] ^= 1;
    assert!(matches!(
        verify(&r, &proof),
        Err(VerifyError::InvalidRequest(RequestError::NotOnCurve))
    ));
    let mut r = request.clone();
    r.now = *b"2024-10-01T25:61:61Z";
    assert!(matches!(
        verify(&r, &proof),
        Err(VerifyError::InvalidRequest(RequestError::Time(_)))
    ));
    let mut r = request.clone();
    r.doc_type = "org.iso.18013.5.1.mDM".into();
    rejected_in(verify(&r, &proof), CircuitKind::Signature);

    // The SessionTranscript initialises the transcript: every challenge of
    // the hash circuit changes, so the opened columns do too.
    let mut r = request.clone();
    r.transcript[10] ^= 1;
    assert_eq!(
        rejected_in(verify(&r, &proof), CircuitKind::Hash),
        FailedCheck::MerkleRoot
    );

    // Attribute value and time are hash-circuit public inputs.
    let mut r = request.clone();
    r.attributes[0].value_cbor = b"\x6aMustermanm".to_vec();
    rejected_in(verify(&r, &proof), CircuitKind::Hash);
    let mut r = request.clone();
    r.now = *b"2024-10-01T09:00:01Z";
    rejected_in(verify(&r, &proof), CircuitKind::Hash);

    // A request the circuit cannot express is refused before the proof.
    let (two, _) = common::request(2);
    assert!(matches!(
        verify(&two, &proof),
        Err(VerifyError::Request(PublicInputError::AttributeCount {
            expected: 1,
            got: 2
        }))
    ));
}

/// A proof made for another published circuit is not "malformed" with a
/// low-level decoding reason: the error says the proof does not match
/// this circuit and names the circuit it was made for (issue 13: it used
/// to say "invalid run length in opened columns").
#[test]
fn a_proof_for_another_circuit_names_the_circuit_it_was_made_for() {
    longfellow_testvectors::require!();
    // (verifier's circuit, its attribute count, proof's circuit, its (version, attributes)).
    let cases = [
        (V7_2, 2, V7_1, (7, 1)),
        (V6_1, 1, V7_1, (7, 1)),
        (V7_1, 1, V7_2, (7, 2)),
        (V7_1, 1, V6_1, (6, 1)),
    ];
    for (circuit, n, made_with, want) in cases {
        let pair = common::load(circuit);
        let (request, _) = common::request(n);
        let proof = common::stored_proof(made_with);
        let err = Verifier::new(&pair)
            .expect("verifier")
            .verify(&request, &proof)
            .expect_err("a proof for another circuit");
        let message = err.to_string();
        match &err {
            VerifyError::ProofForOtherCircuit { made_for, .. } => {
                assert_eq!(made_for, &vec![want], "{message}")
            }
            other => panic!("{made_with} against {circuit}: {other:?}"),
        }
        assert!(
            message.contains("does not match this circuit")
                && message.contains(&format!(
                    "made for ZkSpec v{} with {} attribute",
                    want.0, want.1
                ))
                && !message.contains("run length"),
            "{message}"
        );
    }
}

#[test]
fn altered_proof_bytes_are_rejected() {
    longfellow_testvectors::require!();
    let (request, _) = common::request(1);
    let proof = common::stored_proof(V7_1);

    let flip = |at: usize| {
        let mut p = proof.clone();
        p[at] ^= 0x01;
        p
    };
    // A MAC tag is a public input of the hash circuit.
    rejected_in(verify(&request, &flip(5)), CircuitKind::Hash);
    // The hash commitment root.
    assert_eq!(
        rejected_in(verify(&request, &flip(96 + 3)), CircuitKind::Hash),
        FailedCheck::MerkleRoot
    );
    // Somewhere inside the hash proof, and at the signature proof's end
    // (the last Merkle digest).
    assert!(verify(&request, &flip(96 + 32 + 40)).is_err());
    assert!(verify(&request, &flip(proof.len() / 3)).is_err());
    rejected_in(
        verify(&request, &flip(proof.len() - 1)),
        CircuitKind::Signature,
    );

    // Length changes.
    assert!(matches!(
        verify(&request, &proof[..50]),
        Err(VerifyError::Malformed(ProofFormatError::TruncatedMacs(50)))
    ));
    assert!(matches!(
        verify(&request, &proof[..proof.len() - 1]),
        Err(VerifyError::Malformed(ProofFormatError::Circuit {
            circuit: CircuitKind::Signature,
            ..
        }))
    ));
    let mut longer = proof.clone();
    longer.push(0);
    assert!(matches!(
        verify(&request, &longer),
        Err(VerifyError::Malformed(ProofFormatError::TrailingBytes(1)))
    ));
    assert!(matches!(
        verify(&request, &[]),
        Err(VerifyError::Malformed(ProofFormatError::TruncatedMacs(0)))
    ));
}

#[test]
fn arbitrary_mutations_never_panic_and_never_pass() {
    longfellow_testvectors::require!();
    let (request, _) = common::request(1);
    let proof = common::stored_proof(V7_1);
    // A fixed spread of positions and masks over the whole proof.
    let mut lcg = longfellow_test_rng::Lcg64::reference(7);
    for _ in 0..12 {
        let s = lcg.next_state();
        let at = (s >> 33) as usize % proof.len();
        let mask = ((s >> 20) as u8) | 1;
        let mut p = proof.clone();
        p[at] ^= mask;
        assert!(
            verify(&request, &p).is_err(),
            "flip {mask:#x} at {at} accepted"
        );
    }
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    fn stored() -> &'static [u8] {
        static PROOF: OnceLock<Vec<u8>> = OnceLock::new();
        PROOF.get_or_init(|| common::stored_proof(V7_1))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Arbitrary bytes are malformed proofs, never a panic.
        #[test]
        fn arbitrary_bytes_are_malformed(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
    longfellow_testvectors::require!(Ok(()));
            let (request, _) = common::request(1);
            prop_assert!(matches!(verify(&request, &bytes), Err(VerifyError::Malformed(_))));
        }

        /// Every strict prefix of a valid proof is malformed.
        #[test]
        fn truncations_are_malformed(cut in 0usize..360_596) {
    longfellow_testvectors::require!(Ok(()));
            let (request, _) = common::request(1);
            let proof = stored();
            let cut = cut % proof.len();
            prop_assert!(matches!(
                verify(&request, &proof[..cut]),
                Err(VerifyError::Malformed(_))
            ));
        }
    }
}
