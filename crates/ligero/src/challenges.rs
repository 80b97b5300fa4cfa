//! The Fiat–Shamir side of Ligero, shared verbatim by prover and verifier so
//! the two cannot drift apart.
//!
//! Order after the caller has written the commitment root (and whatever else
//! the outer protocol absorbs): the 32-byte statement hash as a bytes
//! message; challenges `u_ldt[nwqrow]`, `α_l[nl]`, `α_q[3·nq]`, `u_quad[nqt]`
//! (each block skipped when empty); the responses `y_ldt`, `y_dot`,
//! `y_quad_0`, `y_quad_2` as four element arrays; finally the opened column
//! indices.

use crate::params::LigeroParams;
use crate::proof::LigeroProof;
use longfellow_field::Field;
use longfellow_transcript::Transcript;

/// The statement hash Longfellow's zk layer writes before the Ligero
/// challenges: the bytes `de ad be ef` followed by 28 zeros. The reference
/// never hashes the constraint matrix; the constraints are already bound by
/// the transcript that produced them.
pub const STATEMENT_HASH: [u8; 32] = {
    let mut h = [0u8; 32];
    h[0] = 0xde;
    h[1] = 0xad;
    h[2] = 0xbe;
    h[3] = 0xef;
    h
};

/// Verifier randomness drawn before the prover's responses.
#[derive(Debug)]
pub struct Challenges<F> {
    /// Low-degree test row weights.
    pub u_ldt: Vec<F>,
    /// Linear-constraint weights.
    pub alpha_l: Vec<F>,
    /// Quadratic copy-constraint weights.
    pub alpha_q: Vec<F>,
    /// Quadratic test row weights.
    pub u_quad: Vec<F>,
}

fn draw<F: Field>(ts: &mut Transcript, n: usize) -> Vec<F> {
    if n == 0 {
        Vec::new()
    } else {
        ts.challenge_elements::<F>(n)
    }
}

/// Writes the statement hash and draws the challenges the responses answer.
pub fn draw_challenges<F: Field>(
    ts: &mut Transcript,
    params: &LigeroParams,
    nl: usize,
    statement_hash: &[u8; 32],
) -> Challenges<F> {
    ts.write_bytes(statement_hash);
    let u_ldt = draw(ts, params.nwqrow);
    let alpha_l = draw(ts, nl);
    let alpha_q = draw(ts, 3 * params.nq);
    let u_quad = draw(ts, params.nqt);
    Challenges {
        u_ldt,
        alpha_l,
        alpha_q,
        u_quad,
    }
}

/// Absorbs the responses and picks the columns to open: `nreq` distinct
/// indices below `leaves`, in challenge order.
pub fn absorb_responses_and_choose<F: Field>(
    ts: &mut Transcript,
    params: &LigeroParams,
    proof: &LigeroProof<F>,
) -> Vec<usize> {
    ts.write_elements(&proof.y_ldt);
    ts.write_elements(&proof.y_dot);
    ts.write_elements(&proof.y_quad_0);
    ts.write_elements(&proof.y_quad_2);
    ts.choose(params.leaves, params.nreq)
}
