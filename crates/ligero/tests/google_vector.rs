//! Google's `ligero_test_vector.bin` (GF(2^128)): a Ligero proof made by
//! the C++ prover. We parse it, verify the stored proof, re-prove it
//! byte-for-byte with the same generator (spec LCG, seed 100, transcript
//! "test"), and check that corrupted or truncated proofs fail with typed
//! errors.

#![allow(clippy::unwrap_used)]

use longfellow_field::{Field, Gf2_128};
use longfellow_ligero::{
    verify_with_statement, LigeroCommitment, LigeroError, LigeroParams, LigeroProof, LigeroProver,
    LinearTerm, QuadraticConstraint,
};
use longfellow_random::SpecLcg;
use longfellow_transcript::Transcript;

/// Parameters not stored in the file (Google's Rust test hard-codes them).
const RATEINV: usize = 4;
const BLOCK_ENC: usize = 4096;

struct Vector {
    nw: usize,
    nq: usize,
    nreq: usize,
    subfield_boundary: usize,
    witness: Vec<Gf2_128>,
    quad: Vec<QuadraticConstraint>,
    linear: Vec<LinearTerm<Gf2_128>>,
    b: Vec<Gf2_128>,
    statement_hash: [u8; 32],
    root: [u8; 32],
    proof: Vec<u8>,
}

struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (h, t) = self.0.split_at(n);
        self.0 = t;
        h
    }
    fn u64(&mut self) -> usize {
        u64::from_le_bytes(self.take(8).try_into().unwrap()) as usize
    }
    fn elt(&mut self) -> Gf2_128 {
        Gf2_128::from_bytes(self.take(16)).unwrap()
    }
    fn array32(&mut self) -> [u8; 32] {
        self.take(32).try_into().unwrap()
    }
}

fn load() -> Vector {
    let data = longfellow_testvectors::read("google/runtime/ligero_test_vector.bin");
    let mut c = Cursor(&data);
    let nw = c.u64();
    let nq = c.u64();
    let nreq = c.u64();
    let nl = c.u64();
    let subfield_boundary = c.u64();
    let witness = (0..nw).map(|_| c.elt()).collect();
    let _unused_a: Vec<_> = (0..nw).map(|_| c.elt()).collect();
    let quad = (0..nq)
        .map(|_| QuadraticConstraint {
            x: c.u64(),
            y: c.u64(),
            z: c.u64(),
        })
        .collect();
    let nterms = c.u64();
    let linear = (0..nterms)
        .map(|_| LinearTerm {
            c: c.u64(),
            w: c.u64(),
            k: c.elt(),
        })
        .collect();
    let b = (0..nl).map(|_| c.elt()).collect();
    let statement_hash = c.array32();
    let root = c.array32();
    let len = c.u64();
    let proof = c.take(len).to_vec();
    assert!(c.0.is_empty(), "trailing bytes in the vector file");
    Vector {
        nw,
        nq,
        nreq,
        subfield_boundary,
        witness,
        quad,
        linear,
        b,
        statement_hash,
        root,
        proof,
    }
}

impl Vector {
    fn params(&self) -> LigeroParams {
        LigeroParams::new(self.nw, self.nq, RATEINV, self.nreq, BLOCK_ENC).unwrap()
    }

    fn verify(&self, proof: &LigeroProof<Gf2_128>, root: [u8; 32]) -> Result<(), LigeroError> {
        let com = LigeroCommitment { root };
        let mut ts = Transcript::new(b"test");
        com.absorb(&mut ts);
        verify_with_statement(
            &self.params(),
            &com,
            proof,
            &mut ts,
            &self.linear,
            &self.b,
            &self.quad,
            &self.statement_hash,
        )
    }
}

#[test]
fn vector_header_is_as_documented() {
    let v = load();
    assert_eq!((v.nw, v.nq, v.nreq, v.b.len()), (1000, 50, 36, 15));
    assert_eq!(v.subfield_boundary, 950);
    assert_eq!(v.statement_hash, longfellow_ligero::STATEMENT_HASH);
    assert_eq!(v.proof.len(), 55_768);
}

#[test]
fn stored_proof_parses_reencodes_and_verifies() {
    let v = load();
    let params = v.params();
    let proof = LigeroProof::<Gf2_128>::from_bytes(&params, &v.proof).unwrap();
    assert_eq!(proof.to_bytes(), v.proof);
    v.verify(&proof, v.root).unwrap();
}

#[test]
fn reproving_reproduces_root_and_proof_bytes() {
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

impl Vector {
    fn clone_with(&self, f: impl FnOnce(&mut Vector)) -> Vector {
        let mut v = Vector {
            nw: self.nw,
            nq: self.nq,
            nreq: self.nreq,
            subfield_boundary: self.subfield_boundary,
            witness: self.witness.clone(),
            quad: self.quad.clone(),
            linear: self.linear.clone(),
            b: self.b.clone(),
            statement_hash: self.statement_hash,
            root: self.root,
            proof: self.proof.clone(),
        };
        f(&mut v);
        v
    }
}
