//! Verification of a Ligero proof against a commitment and constraints.
//!
//! Never panics: the proof's shape is checked against the parameters and
//! every constraint index against `nw`/`b.len()` before any indexing.

use crate::challenges::{absorb_responses_and_choose, draw_challenges, STATEMENT_HASH};
use crate::constraints::{check_linear, check_quadratic, inner_product_vector};
use crate::error::LigeroError;
use crate::lagrange::{dot, LagrangeMatrix};
use crate::params::{LigeroParams, IDOT, ILDT, IQUAD, IW};
use crate::proof::LigeroProof;
use crate::LigeroCommitment;
use longfellow_constraints::{LinearTerm, QuadraticConstraint};
use longfellow_par::map_indices;
use longfellow_reed_solomon::{RsEncoder, RsField};
use longfellow_transcript::Transcript;
use sha2::{Digest, Sha256};

/// Verifies `proof` for `commitment` with the zk layer's statement hash
/// [`STATEMENT_HASH`].
///
/// `transcript` must be in the prover's state just before `prove`: the
/// caller has already absorbed the commitment root (and anything else the
/// outer protocol writes). Checks, in the reference's order: Merkle
/// opening, low-degree test, dot-product test, inner product against `b`
/// (`A·W = b`), quadratic test.
pub fn verify<F: RsField>(
    params: &LigeroParams,
    commitment: &LigeroCommitment,
    proof: &LigeroProof<F>,
    transcript: &mut Transcript,
    linear: &[LinearTerm<F>],
    b: &[F],
    quad: &[QuadraticConstraint],
) -> Result<(), LigeroError> {
    verify_with_statement(
        params,
        commitment,
        proof,
        transcript,
        linear,
        b,
        quad,
        &STATEMENT_HASH,
    )
}

/// [`verify`] with an explicit 32-byte statement hash.
#[allow(clippy::too_many_arguments)]
pub fn verify_with_statement<F: RsField>(
    params: &LigeroParams,
    commitment: &LigeroCommitment,
    proof: &LigeroProof<F>,
    transcript: &mut Transcript,
    linear: &[LinearTerm<F>],
    b: &[F],
    quad: &[QuadraticConstraint],
    statement_hash: &[u8; 32],
) -> Result<(), LigeroError> {
    let p = params;
    p.check_field::<F>()?;
    proof.check_shape(p)?;
    check_linear(p, linear, b.len())?;
    check_quadratic(p, quad)?;

    let ch = draw_challenges::<F>(transcript, p, b.len(), statement_hash);
    let idx = absorb_responses_and_choose(transcript, p, proof);
    let col = |row: usize| &proof.columns[row * p.nreq..(row + 1) * p.nreq];

    // Merkle: the opened columns are the committed ones.
    let leaf_digests: Vec<[u8; 32]> = proof
        .nonces
        .iter()
        .enumerate()
        .map(|(j, nonce)| {
            let mut h = Sha256::new();
            h.update(nonce);
            for row in 0..p.nrow {
                h.update(col(row)[j].to_repr().as_ref());
            }
            h.finalize().into()
        })
        .collect();
    longfellow_merkle::verify(
        &commitment.root,
        p.leaves,
        &idx,
        &leaf_digests,
        &proof.merkle_path,
    )?;

    let points: Vec<usize> = idx.iter().map(|&j| p.dblock + j).collect();
    let block_basis = LagrangeMatrix::<F>::new(p.block, &points);
    let dblock_encoder = F::rs_encoder(p.dblock, p.block_enc)?;
    let at_points = |message: &[F]| -> Vec<F> {
        let mut row = vec![F::ZERO; p.block_enc];
        row[..message.len()].copy_from_slice(message);
        dblock_encoder.extend(&mut row);
        points.iter().map(|&x| row[x]).collect()
    };

    // Low-degree test: the opened columns combine like y_ldt.
    let mut want_ldt = col(ILDT).to_vec();
    for (i, &u) in ch.u_ldt.iter().enumerate() {
        F::axpy(&mut want_ldt, u, col(IW + i));
    }
    for (j, &want) in want_ldt.iter().enumerate() {
        if want != block_basis.eval(j, &proof.y_ldt) {
            return Err(LigeroError::LowDegreeCheck);
        }
    }

    // Dot-product test: Σ_i ext(0^r ‖ A_i)·row_i at each opened column.
    let a = inner_product_vector(p, linear, &ch.alpha_l, quad, &ch.alpha_q);
    let y_dot_at = at_points(&proof.y_dot);
    // The bulk of verification (nreq·nw products); columns are independent.
    let want_dot = map_indices(p.nreq, |j| {
        let witness_basis = &block_basis.row(j)[p.r..p.block];
        let mut want = col(IDOT)[j];
        for (i, a_i) in a.chunks_exact(p.w).enumerate() {
            want += dot(witness_basis, a_i) * col(IW + i)[j];
        }
        want
    });
    if want_dot != y_dot_at {
        return Err(LigeroError::DotCheck);
    }
    let want_sum = dot(b, &ch.alpha_l);
    let proof_sum = proof.y_dot[p.r..p.block]
        .iter()
        .fold(F::ZERO, |acc, &e| acc + e);
    if want_sum != proof_sum {
        return Err(LigeroError::LinearCheck);
    }

    // Quadratic test: z − x·y combined like y_quad, whose witness part is 0.
    let mut y_quad = vec![F::ZERO; p.dblock];
    y_quad[..p.r].copy_from_slice(&proof.y_quad_0);
    y_quad[p.block..].copy_from_slice(&proof.y_quad_2);
    let y_quad_at = at_points(&y_quad);
    let iq = p.iq();
    let mut want_quad = col(IQUAD).to_vec();
    let mut term = vec![F::ZERO; p.nreq];
    for (i, &u) in ch.u_quad.iter().enumerate() {
        // term = z − x ⊙ y over the opened columns, then want += u·term.
        term.copy_from_slice(col(iq + i));
        F::mul_assign_slice(&mut term, col(iq + p.nqt + i));
        for (t, &z) in term.iter_mut().zip(col(iq + 2 * p.nqt + i)) {
            *t = z - *t;
        }
        F::axpy(&mut want_quad, u, &term);
    }
    if want_quad != y_quad_at {
        return Err(LigeroError::QuadraticCheck);
    }
    Ok(())
}
