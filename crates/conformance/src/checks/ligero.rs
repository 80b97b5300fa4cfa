//! Google's Ligero vector (GF(2^128)): the stored proof verifies, and
//! re-proving with the recorded generator (spec LCG, seed 100, transcript
//! "test") reproduces the root and every proof byte.

use longfellow_field::Gf2_128;
use longfellow_ligero::{
    verify_with_statement, LigeroCommitment, LigeroParams, LigeroProof, LinearTerm,
    QuadraticConstraint,
};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::SpecLcg;
use longfellow_transcript::Transcript;

use super::require;
use crate::bytes::Cursor;
use crate::diff::{diff_ligero, ZkShape};
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

const FILE: &str = "google/runtime/ligero_test_vector.bin";
/// Not stored in the file; fixed by the test that made it.
const RATEINV: usize = 4;
const BLOCK_ENC: usize = 4096;
const SEED: u64 = 100;
const LABEL: &[u8] = b"test";
const MAX_COUNT: usize = 1 << 22;

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let name = "ligero_test_vector.bin";
    match require(opts, Family::Ligero, name, FILE) {
        Err(skip) => vec![skip],
        Ok(path) => vec![Check::new(Family::Ligero, name, move |_| {
            check(&read(&path)?)
        })],
    }
}

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

fn parse(bytes: &[u8]) -> Result<Vector, CheckError> {
    let mut c = Cursor::new(FILE, bytes);
    let nw = c.count(MAX_COUNT)?;
    let nq = c.count(MAX_COUNT)?;
    let nreq = c.count(MAX_COUNT)?;
    let nl = c.count(MAX_COUNT)?;
    let subfield_boundary = c.count(nw)?;
    let elts = |c: &mut Cursor<'_>, n: usize| {
        if n > c.remaining() / 16 {
            return Err(CheckError::malformed(FILE, "element array does not fit"));
        }
        (0..n)
            .map(|_| c.element::<Gf2_128>())
            .collect::<Result<Vec<_>, _>>()
    };
    let witness = elts(&mut c, nw)?;
    let _unused_a = elts(&mut c, nw)?;
    let quad = (0..nq)
        .map(|_| {
            Ok(QuadraticConstraint {
                x: c.count(nw)?,
                y: c.count(nw)?,
                z: c.count(nw)?,
            })
        })
        .collect::<Result<Vec<_>, CheckError>>()?;
    let nterms = c.count(MAX_COUNT)?;
    let linear = (0..nterms)
        .map(|_| {
            Ok(LinearTerm {
                c: c.count(nl)?,
                w: c.count(nw)?,
                k: c.element()?,
            })
        })
        .collect::<Result<Vec<_>, CheckError>>()?;
    let b = elts(&mut c, nl)?;
    let statement_hash = c.array32()?;
    let root = c.array32()?;
    let len = c.count(c.remaining())?;
    let proof = c.take(len)?.to_vec();
    c.finish()?;
    Ok(Vector {
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
    })
}

pub(crate) fn check(bytes: &[u8]) -> Result<Outcome, CheckError> {
    let v = parse(bytes)?;
    let params =
        LigeroParams::new(v.nw, v.nq, RATEINV, v.nreq, BLOCK_ENC).map_err(CheckError::component)?;

    // The stored proof verifies.
    let stored = LigeroProof::<Gf2_128>::from_bytes(&params, &v.proof)
        .map_err(|e| CheckError::Component(format!("stored proof does not parse: {e}")))?;
    let com = LigeroCommitment { root: v.root };
    let mut ts = Transcript::new(LABEL);
    com.absorb(&mut ts);
    if let Err(e) = verify_with_statement(
        &params,
        &com,
        &stored,
        &mut ts,
        &v.linear,
        &v.b,
        &v.quad,
        &v.statement_hash,
    ) {
        return Ok(Outcome::Fail(format!("stored proof rejected: {e}")));
    }

    // Re-proving reproduces it.
    let mut rng = SpecLcg::new(SEED);
    let (prover, com) =
        LigeroProver::commit(&params, &v.witness, v.subfield_boundary, &v.quad, &mut rng)
            .map_err(CheckError::component)?;
    if com.root != v.root {
        return Ok(Outcome::Fail("first divergence: commitment root".into()));
    }
    let mut ts = Transcript::new(LABEL);
    com.absorb(&mut ts);
    let proof = prover
        .prove_with_statement(&mut ts, &v.linear, &v.b, &v.quad, &v.statement_hash)
        .map_err(CheckError::component)?;
    let got = proof.to_bytes();
    let shape = ZkShape::ligero_only::<Gf2_128>(params);
    if let Some(d) = diff_ligero::<Gf2_128>(&shape, &v.proof, &got) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    Ok(Outcome::Pass(format!(
        "stored proof verifies; root and {} proof bytes reproduced",
        v.proof.len()
    )))
}
