//! Google's `ligero_test_vector.bin` (GF(2^128)): a Ligero proof made by
//! the C++ prover. We parse it, verify the stored proof, re-prove it
//! byte-for-byte with the same generator (spec LCG, seed 100, transcript
//! "test"), and check that corrupted or truncated proofs fail with typed
//! errors.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::load;
use longfellow_field::{Field, Gf2_128};
use longfellow_ligero::{LigeroError, LigeroProof};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::SpecLcg;
use longfellow_transcript::Transcript;

#[test]
fn vector_header_is_as_documented() {
    longfellow_testvectors::require!();
    let v = load();
    assert_eq!((v.nw, v.nq, v.nreq, v.b.len()), (1000, 50, 36, 15));
    assert_eq!(v.subfield_boundary, 950);
    assert_eq!(v.statement_hash, longfellow_ligero::STATEMENT_HASH);
    assert_eq!(v.proof.len(), 55_768);
}

#[test]
fn stored_proof_parses_reencodes_and_verifies() {
    longfellow_testvectors::require!();
    let v = load();
    let params = v.params();
    let proof = LigeroProof::<Gf2_128>::from_bytes(&params, &v.proof).unwrap();
    assert_eq!(proof.to_bytes(), v.proof);
    v.verify(&proof, v.root).unwrap();
}

#[test]
fn reproving_reproduces_root_and_proof_bytes() {
    longfellow_testvectors::require!();
    let v = load();
    let params = v.params();
    let mut rng = SpecLcg::new(100);
    let (prover, com) =
        LigeroProver::commit(&params, &v.witness, v.subfield_boundary, &v.quad, &mut rng).unwrap();
    assert_eq!(hex::encode(com.root), hex::encode(v.root));
    let mut ts = Transcript::new(b"test");
    com.absorb(&mut ts);
    let proof = prover
        .prove_with_statement(&mut ts, &v.linear, &v.b, &v.quad, &v.statement_hash)
        .unwrap();
    let bytes = proof.to_bytes();
    assert_eq!(bytes.len(), v.proof.len());
    assert!(bytes == v.proof, "proof bytes differ from the C++ proof");
}

#[test]
fn wrong_statement_is_rejected_with_the_right_check() {
    longfellow_testvectors::require!();
    let v = load();
    let params = v.params();
    let proof = LigeroProof::<Gf2_128>::from_bytes(&params, &v.proof).unwrap();

    let mut bad_root = v.root;
    bad_root[0] ^= 1;
    assert!(matches!(
        v.verify(&proof, bad_root),
        Err(LigeroError::Merkle(_))
    ));

    let mut bad = v.clone_with(|v| v.b[0] += Gf2_128::ONE);
    assert!(matches!(
        bad.verify(&proof, v.root),
        Err(LigeroError::LinearCheck)
    ));

    bad = v.clone_with(|v| v.linear[0].k += Gf2_128::ONE);
    assert!(matches!(
        bad.verify(&proof, v.root),
        Err(LigeroError::DotCheck)
    ));

    bad = v.clone_with(|v| v.quad[0].x = v.nw);
    assert!(matches!(
        bad.verify(&proof, v.root),
        Err(LigeroError::QuadraticOutOfRange { index: 0 })
    ));

    bad = v.clone_with(|v| v.linear[3].c = v.b.len());
    assert!(matches!(
        bad.verify(&proof, v.root),
        Err(LigeroError::LinearOutOfRange { index: 3, .. })
    ));
}
