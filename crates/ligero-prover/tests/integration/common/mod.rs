//! Loader for Google's `ligero_test_vector.bin` (layout: map §4 and Google's
//! Rust test that reads it).
#![allow(dead_code, clippy::unwrap_used)]

use longfellow_field::{Field, Gf2_128};
use longfellow_ligero::{
    verify_with_statement, LigeroCommitment, LigeroError, LigeroParams, LigeroProof, LinearTerm,
    QuadraticConstraint,
};
use longfellow_transcript::Transcript;

/// Parameters not stored in the file (Google's Rust test hard-codes them).
pub const RATEINV: usize = 4;
pub const BLOCK_ENC: usize = 4096;

pub struct Vector {
    pub nw: usize,
    pub nq: usize,
    pub nreq: usize,
    pub subfield_boundary: usize,
    pub witness: Vec<Gf2_128>,
    pub quad: Vec<QuadraticConstraint>,
    pub linear: Vec<LinearTerm<Gf2_128>>,
    pub b: Vec<Gf2_128>,
    pub statement_hash: [u8; 32],
    pub root: [u8; 32],
    pub proof: Vec<u8>,
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

pub fn load() -> Vector {
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
    pub fn params(&self) -> LigeroParams {
        LigeroParams::new(self.nw, self.nq, RATEINV, self.nreq, BLOCK_ENC).unwrap()
    }

    pub fn verify(&self, proof: &LigeroProof<Gf2_128>, root: [u8; 32]) -> Result<(), LigeroError> {
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

impl Vector {
    pub fn clone_with(&self, f: impl FnOnce(&mut Vector)) -> Vector {
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
