//! The reference case of Google's stored proofs, through the bindings'
//! string-typed inputs: the stored v7 proof verifies, the same randomness
//! reproduces it byte for byte, a fresh proof verifies, and each kind of bad
//! input gets its error code.

use longfellow_bindings_core::{Attribute, Circuit, ErrorCode, Statement};
use longfellow_random::{MdocLcg, OsRng};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

/// The case's statement (vectors README: family_name, fixed time and
/// docType) and DeviceResponse.
fn reference() -> (Statement, Vec<u8>) {
    let case = longfellow_testvectors::google::mdoc_case(CASE);
    let mdoc = case.mdoc;
    let statement = Statement {
        issuer_pkx: format!("0x{}", hex::encode(case.pkx)),
        issuer_pky: format!("0x{}", hex::encode(case.pky)),
        transcript: case.transcript,
        attributes: vec![Attribute {
            namespace: "org.iso.18013.5.1".into(),
            identifier: "family_name".into(),
            value_cbor: text_value_after(&mdoc, "family_name"),
        }],
        now: "2024-10-01T09:00:00Z".into(),
        doc_type: "org.iso.18013.5.1.mDL".into(),
    };
    (statement, mdoc)
}

/// The CBOR text elementValue that follows `id` in the DeviceResponse
/// (found by its encoding, independently of the crate's parser).
fn text_value_after(mdoc: &[u8], id: &str) -> Vec<u8> {
    let mut key = vec![0x60 | u8::try_from(id.len()).expect("short id")];
    key.extend_from_slice(id.as_bytes());
    key.extend_from_slice(b"\x6celementValue");
    let at = mdoc
        .windows(key.len())
        .position(|w| w == key)
        .expect("identifier followed by elementValue")
        + key.len();
    let head = mdoc[at];
    assert!((0x60..0x78).contains(&head), "short text value");
    mdoc[at..at + 1 + usize::from(head & 0x1f)].to_vec()
}

fn circuit() -> Circuit {
    Circuit::load(&longfellow_testvectors::read(&format!(
        "google/mdoc/circuits/{V7_1}.lfa2"
    )))
    .expect("circuit")
}

#[test]
fn stored_proof_verifies_and_is_reproduced() {
    longfellow_testvectors::require!();
    let circuit = circuit();
    assert_eq!(circuit.spec().circuit_hash, V7_1);
    let (statement, mdoc) = reference();
    let stored = longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin"));
    circuit.verify(&statement, &stored).expect("stored proof");

    let again = circuit
        .prove(&mdoc, &statement, &mut MdocLcg::new(42))
        .expect("proof");
    assert!(again == stored, "seed 42 reproduces Google's proof");
}

#[test]
fn fresh_proof_verifies_and_bad_inputs_are_classified() {
    longfellow_testvectors::require!();
    let circuit = circuit();
    let (statement, mdoc) = reference();
    let proof = circuit.prove(&mdoc, &statement, &mut OsRng).expect("proof");
    circuit.verify(&statement, &proof).expect("fresh proof");

    let code = |r: Result<(), longfellow_bindings_core::BindingError>| r.expect_err("refused").code;

    let mut flipped = proof.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    let c = code(circuit.verify(&statement, &flipped));
    assert!(
        matches!(c, ErrorCode::ProofRejected | ErrorCode::MalformedProof),
        "{c}"
    );
    assert_eq!(
        code(circuit.verify(&statement, &proof[..proof.len() - 1])),
        ErrorCode::MalformedProof
    );

    let mut other_time = statement.clone();
    other_time.now = "2024-10-02T09:00:00Z".into();
    assert_eq!(
        code(circuit.verify(&other_time, &proof)),
        ErrorCode::ProofRejected
    );

    let mut bad_key = statement.clone();
    bad_key.issuer_pkx = "0xzz".into();
    assert_eq!(
        code(circuit.verify(&bad_key, &proof)),
        ErrorCode::InvalidArgument
    );

    // Values that parse but are not valid: the statement's fault on both
    // sides (they were once reported as Internal by verify and as a
    // prover refusal by prove).
    let mut off_curve = statement.clone();
    off_curve.issuer_pkx = "0x1".into();
    off_curve.issuer_pky = "0x1".into();
    let mut no_calendar = statement.clone();
    no_calendar.now = "2024-10-01T25:61:61Z".into();
    for (what, bad) in [
        ("off-curve key", &off_curve),
        ("non-calendar time", &no_calendar),
    ] {
        assert_eq!(
            code(circuit.verify(bad, &proof)),
            ErrorCode::InvalidArgument,
            "verify, {what}"
        );
        let e = circuit.prove(&mdoc, bad, &mut OsRng).expect_err("refused");
        assert_eq!(e.code, ErrorCode::InvalidArgument, "prove, {what}: {e}");
    }

    let mut two = statement.clone();
    two.attributes.push(two.attributes[0].clone());
    assert_eq!(
        code(circuit.verify(&two, &proof)),
        ErrorCode::InvalidArgument
    );

    let mut absent = statement.clone();
    absent.attributes[0].identifier = "nickname".into();
    let e = circuit
        .prove(&mdoc, &absent, &mut OsRng)
        .expect_err("attribute not in the mdoc");
    assert_eq!(e.code, ErrorCode::ProverRefused, "{e}");

    let e = circuit
        .prove(&mdoc[..mdoc.len() / 2], &statement, &mut OsRng)
        .expect_err("truncated DeviceResponse");
    assert_eq!(e.code, ErrorCode::ProverRefused, "{e}");

    let e = Circuit::load(b"not a circuit").expect_err("garbage circuit");
    assert_eq!(e.code, ErrorCode::Circuit);
}
