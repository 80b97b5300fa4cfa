//! Google's stored mdoc proofs, reproduced byte-for-byte with the
//! deterministic generator (seed 42) and accepted by the verifier.

// The reference inputs are shared with longfellow-mdoc's tests.
#[path = "../../mdoc/tests/common/mod.rs"]
mod common;

use std::time::Instant;

use longfellow_mdoc::Verifier;
use longfellow_mdoc_prover::Prover;
use longfellow_random::MdocLcg;

fn reproduce(index: usize) {
    let (version, n, hash) = common::PROOFS[index];
    let t = Instant::now();
    let pair = common::load(hash);
    let load = t.elapsed();
    let (request, mdoc) = common::request(n);
    let prover = Prover::new(&pair).expect("prover");
    assert_eq!(
        (
            prover.spec().info.version,
            prover.spec().info.num_attributes
        ),
        (version, n)
    );
    let t = Instant::now();
    let proof = prover
        .prove(&request, &mdoc, &mut MdocLcg::new(42))
        .expect("prove");
    let prove = t.elapsed();
    let expected = common::stored_proof(hash);
    assert_eq!(proof.len(), expected.len(), "v{version}/{n} proof length");
    if let Some(at) = proof.iter().zip(&expected).position(|(a, b)| a != b) {
        panic!("v{version}/{n}: first differing byte at {at}");
    }
    let t = Instant::now();
    Verifier::new(&pair)
        .expect("verifier")
        .verify(&request, &expected)
        .expect("stored proof verifies");
    eprintln!(
        "v{version}/{n}: load {load:?}, prove {prove:?}, verify {:?}, {} bytes",
        t.elapsed(),
        proof.len()
    );
}

#[test]
fn v7_one_attribute_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(0);
}

/// One prepared prover makes many proofs; with the same seed, the same bytes.
#[test]
fn a_prover_is_reusable() {
    longfellow_testvectors::require!();
    let (_, n, hash) = common::PROOFS[0];
    let pair = common::load(hash);
    let (request, mdoc) = common::request(n);
    let prover = Prover::new(&pair).expect("prover");
    let expected = common::stored_proof(hash);
    let first = prover
        .prove(&request, &mdoc, &mut MdocLcg::new(42))
        .expect("first");
    let other = prover
        .prove(&request, &mdoc, &mut MdocLcg::new(43))
        .expect("other seed");
    let again = prover
        .prove(&request, &mdoc, &mut MdocLcg::new(42))
        .expect("again");
    assert!(first == expected && again == expected);
    assert!(other != expected);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v7_two_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(1);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v7_three_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(2);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v7_four_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(3);
}

#[test]
fn v6_one_attribute_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(4);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v6_two_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(5);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v6_three_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(6);
}

#[test]
#[ignore = "six more whole proofs (~30 s): cargo test -p longfellow-mdoc-prover -- --include-ignored"]
fn v6_four_attributes_reproduced_and_verified() {
    longfellow_testvectors::require!();
    reproduce(7);
}
