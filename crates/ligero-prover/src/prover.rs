//! Commitment to a witness tableau and the proof that it satisfies the
//! constraints.

mod columns;

use columns::{Encoders, KeptRows};
use longfellow_field::Field;
use longfellow_ligero::protocol::{
    absorb_responses_and_choose, check_linear, check_quadratic, draw_challenges,
    inner_product_vector,
};
use longfellow_ligero::{
    LigeroCommitment, LigeroError, LigeroParams, LigeroProof, LinearTerm, QuadraticConstraint,
    IDOT, ILDT, IQUAD, IW, STATEMENT_HASH,
};
use longfellow_merkle::MerkleTree;
use longfellow_par::map_indices;
use longfellow_random::{fill_elements, fill_subfield_elements};
use longfellow_reed_solomon::{RsEncoder, RsField};
use longfellow_transcript::Transcript;
use rand_core::RngCore;
use sha2::{Digest, Sha256};

/// A committed tableau, waiting for the constraints' challenges.
///
/// The commitment root is **not** written to any transcript here: the
/// caller absorbs it (`transcript.write_bytes(&commitment.root)`, see
/// [`LigeroCommitment::absorb`]) before whatever else the outer protocol
/// writes, exactly where the reference does.
pub struct LigeroProver<F> {
    params: LigeroParams,
    /// The encoded rows, or for a large tableau only each row's first
    /// `dblock` entries (all the responses read), from which the opened
    /// columns are re-encoded.
    rows: KeptRows<F>,
    quad: Vec<QuadraticConstraint>,
    nonces: Vec<[u8; 32]>,
    tree: MerkleTree,
}

impl<F> core::fmt::Debug for LigeroProver<F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LigeroProver")
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<F: RsField> LigeroProver<F>
where
    F::Encoder: Sync,
{
    /// Lays out and commits the tableau for `witness` (`nw` values).
    ///
    /// Randomness is consumed exactly as the reference does: blinding row
    /// `ILDT` (`block` elements), `IDOT` (`dblock`), `IQUAD` (`dblock`);
    /// per witness row `r` blinding elements, drawn from the subfield iff
    /// the whole row lies below `subfield_boundary` (`(i+1)·w ≤ boundary`);
    /// per quadratic triple `r` elements for each of the x, y, z rows; then
    /// one 32-byte nonce per committed column, in column order.
    pub fn commit<R: RngCore + ?Sized>(
        params: &LigeroParams,
        witness: &[F],
        subfield_boundary: usize,
        quad: &[QuadraticConstraint],
        rng: &mut R,
    ) -> Result<(Self, LigeroCommitment), LigeroError> {
        let p = params;
        p.check_field::<F>()?;
        if witness.len() != p.nw {
            return Err(LigeroError::WitnessLength {
                expected: p.nw,
                found: witness.len(),
            });
        }
        if subfield_boundary > p.nw {
            return Err(LigeroError::SubfieldBoundary {
                boundary: subfield_boundary,
                nw: p.nw,
            });
        }
        if let Some(index) = witness[..subfield_boundary]
            .iter()
            .position(|e| !e.is_in_subfield())
        {
            return Err(LigeroError::NotInSubfield { index });
        }
        check_quadratic(p, quad)?;
        for (index, q) in quad.iter().enumerate() {
            if witness[q.x] * witness[q.y] != witness[q.z] {
                return Err(LigeroError::QuadraticUnsatisfied { index });
            }
        }
        let encoders = Encoders::<F>::new(p)?;

        let mut tableau = longfellow_par::filled(p.nrow * p.block_enc, F::ZERO);
        fill_messages(p, &mut tableau, witness, subfield_boundary, quad, rng);

        // The encoders' working memory comes from this thread (see
        // `for_each_row_mut_with`), one buffer per worker, reused per row,
        // and is freed before the Merkle tree is built.
        let mut scratch: Vec<_> = (0..longfellow_par::threads())
            .map(|_| encoders.scratch())
            .collect();
        longfellow_par::for_each_row_mut_with(
            &mut tableau,
            p.block_enc,
            &mut scratch,
            |i, row, s| encoders.for_row(p, i).0.extend_with(row, s),
        );
        drop(scratch);

        Self::seal(p, tableau, quad, rng, KeptRows::after_commit)
    }

    /// Draws the column nonces and builds the Merkle tree over the encoded
    /// tableau, then keeps what `keep` keeps of it.
    fn seal<R: RngCore + ?Sized>(
        p: &LigeroParams,
        tableau: Vec<F>,
        quad: &[QuadraticConstraint],
        rng: &mut R,
        keep: fn(&LigeroParams, Vec<F>) -> KeptRows<F>,
    ) -> Result<(Self, LigeroCommitment), LigeroError> {
        let mut nonces = vec![[0u8; 32]; p.leaves];
        for nonce in &mut nonces {
            rng.fill_bytes(nonce);
        }
        let groups = map_indices(p.leaves.div_ceil(LEAF_GROUP), |g| {
            let first = g * LEAF_GROUP;
            let end = (first + LEAF_GROUP).min(p.leaves);
            column_leaves(&nonces[first..end], &tableau, p, first)
        });
        let leaves: Vec<[u8; 32]> = groups.into_iter().flatten().collect();
        let tree = MerkleTree::try_new(leaves)?;
        let commitment = LigeroCommitment { root: tree.root() };
        let prover = Self {
            params: *p,
            rows: keep(p, tableau),
            quad: quad.to_vec(),
            nonces,
            tree,
        };
        Ok((prover, commitment))
    }

    /// A prover whose tableau was altered after encoding: for tests that a
    /// cheating prover is caught by each check. It keeps the altered rows
    /// whole: re-encoding prefixes would repair an altered extension and
    /// open honest columns, hiding the cheat from the checks under test.
    #[cfg(test)]
    pub(crate) fn recommit_altered<R: RngCore + ?Sized>(
        self,
        alter: impl FnOnce(&LigeroParams, &mut [F]),
        rng: &mut R,
    ) -> Result<(Self, LigeroCommitment), LigeroError> {
        let mut tableau = self.rows.into_tableau(&self.params)?;
        alter(&self.params, &mut tableau);
        Self::seal(&self.params, tableau, &self.quad, rng, KeptRows::whole)
    }

    /// The parameters this tableau was laid out for.
    pub fn params(&self) -> &LigeroParams {
        &self.params
    }

    /// Proves `A·W = b` (terms `linear`, one right-hand side per constraint)
    /// and the quadratic constraints given at commit time, continuing
    /// `transcript` from wherever the caller left it, with the zk layer's
    /// statement hash [`STATEMENT_HASH`].
    pub fn prove(
        self,
        transcript: &mut Transcript,
        linear: &[LinearTerm<F>],
        b: &[F],
        quad: &[QuadraticConstraint],
    ) -> Result<LigeroProof<F>, LigeroError> {
        self.prove_with_statement(transcript, linear, b, quad, &STATEMENT_HASH)
    }

    /// [`Self::prove`] with an explicit 32-byte statement hash.
    pub fn prove_with_statement(
        self,
        transcript: &mut Transcript,
        linear: &[LinearTerm<F>],
        b: &[F],
        quad: &[QuadraticConstraint],
        statement_hash: &[u8; 32],
    ) -> Result<LigeroProof<F>, LigeroError> {
        let p = &self.params;
        check_linear(p, linear, b.len())?;
        if quad != self.quad.as_slice() {
            return Err(LigeroError::QuadraticMismatch);
        }
        let ch = draw_challenges::<F>(transcript, p, b.len(), statement_hash);

        let y_ldt = self.low_degree_response(&ch.u_ldt);
        let a = inner_product_vector(p, linear, &ch.alpha_l, quad, &ch.alpha_q);
        let y_dot = self.dot_response(&a)?;
        let y_quad = self.quadratic_response(&ch.u_quad);
        if y_quad[p.r..p.block].iter().any(|e| *e != F::ZERO) {
            return Err(LigeroError::QuadraticCheck);
        }

        let mut proof = LigeroProof {
            y_ldt,
            y_dot,
            y_quad_0: y_quad[..p.r].to_vec(),
            y_quad_2: y_quad[p.block..p.dblock].to_vec(),
            nonces: Vec::new(),
            columns: Vec::new(),
            merkle_path: Vec::new(),
        };
        let idx = absorb_responses_and_choose(transcript, p, &proof);
        proof.nonces = idx.iter().map(|&j| self.nonces[j]).collect();
        proof.columns = self.rows.opened_columns(p, &idx)?;
        proof.merkle_path = self.tree.try_open(&idx)?;
        Ok(proof)
    }

    /// Row `i`'s first `len` (at most `dblock`) encoded entries.
    fn row(&self, i: usize, len: usize) -> std::borrow::Cow<'_, [F]> {
        self.rows.row(&self.params, i, len)
    }

    /// `ILDT + Σ_i u_ldt[i]·row(IW+i)` on the first `block` positions.
    fn low_degree_response(&self, u_ldt: &[F]) -> Vec<F> {
        let block = self.params.block;
        let mut y = self.row(ILDT, block).into_owned();
        for (i, &u) in u_ldt.iter().enumerate() {
            F::axpy(&mut y, u, &self.row(IW + i, block));
        }
        y
    }

    /// `IDOT + Σ_i ext(0^r ‖ A_i) ⊙ row(IW+i)` on the first `dblock`
    /// positions, where `ext` extends a block to a double block.
    fn dot_response(&self, a: &[F]) -> Result<Vec<F>, LigeroError> {
        let p = &self.params;
        let encoder = F::rs_encoder(p.block, p.dblock)?;
        let products = map_indices(p.nwqrow, |i| {
            let mut a_ext = vec![F::ZERO; p.dblock];
            a_ext[p.r..p.block].copy_from_slice(&a[i * p.w..(i + 1) * p.w]);
            encoder.extend(&mut a_ext);
            F::mul_assign_slice(&mut a_ext, &self.row(IW + i, p.dblock));
            a_ext
        });
        let mut y = self.row(IDOT, p.dblock).into_owned();
        for prod in products {
            for (acc, v) in y.iter_mut().zip(prod) {
                *acc += v;
            }
        }
        Ok(y)
    }

    /// `IQUAD + Σ_i u_quad[i]·(z_i − x_i ⊙ y_i)` on `dblock` positions.
    fn quadratic_response(&self, u_quad: &[F]) -> Vec<F> {
        let p = &self.params;
        let iq = p.iq();
        let mut y = self.row(IQUAD, p.dblock).into_owned();
        let mut term = vec![F::ZERO; p.dblock];
        for (i, &u) in u_quad.iter().enumerate() {
            // term = z − x ⊙ y, then y += u·term.
            term.copy_from_slice(&self.row(iq + i, p.dblock));
            F::mul_assign_slice(&mut term, &self.row(iq + p.nqt + i, p.dblock));
            let z = &self.row(iq + 2 * p.nqt + i, p.dblock)[..];
            for (t, &zk) in term.iter_mut().zip(z) {
                *t = zk - *t;
            }
            F::axpy(&mut y, u, &term);
        }
        y
    }
}

/// Writes every row's message part (the first `block` or `dblock`
/// positions), drawing randomness in the reference order.
fn fill_messages<F: Field, R: RngCore + ?Sized>(
    p: &LigeroParams,
    tableau: &mut [F],
    witness: &[F],
    subfield_boundary: usize,
    quad: &[QuadraticConstraint],
    rng: &mut R,
) {
    let be = p.block_enc;
    let row = |i: usize| i * be..(i + 1) * be;

    fill_elements(rng, &mut tableau[row(ILDT)][..p.block]);

    // Random double block whose witness positions sum to zero, so the
    // blinded linear response reveals nothing about Σ A·W.
    let dot = &mut tableau[row(IDOT)];
    fill_elements(rng, &mut dot[..p.dblock]);
    let sum = dot[p.r..p.block].iter().fold(F::ZERO, |acc, &e| acc + e);
    dot[p.r] -= sum;

    // Random double block with zero witness positions: the quadratic
    // response must vanish there.
    let qd = &mut tableau[row(IQUAD)];
    fill_elements(rng, &mut qd[..p.dblock]);
    qd[p.r..p.block].fill(F::ZERO);

    for i in 0..p.nwrow {
        let r = &mut tableau[row(IW + i)];
        if (i + 1) * p.w <= subfield_boundary {
            fill_subfield_elements(rng, &mut r[..p.r]);
        } else {
            fill_elements(rng, &mut r[..p.r]);
        }
        let start = i * p.w;
        let end = (start + p.w).min(p.nw);
        r[p.r..p.r + (end - start)].copy_from_slice(&witness[start..end]);
    }

    let iq = p.iq();
    for i in 0..p.nqt {
        for part in 0..3 {
            fill_elements(rng, &mut tableau[row(iq + part * p.nqt + i)][..p.r]);
        }
        let first = i * p.w;
        let count = p.w.min(p.nq.saturating_sub(first));
        for (j, q) in quad[first..first + count].iter().enumerate() {
            for (part, &src) in [q.x, q.y, q.z].iter().enumerate() {
                tableau[row(iq + part * p.nqt + i)][p.r + j] = witness[src];
            }
        }
    }
}

/// Committed columns hashed per task: a group of adjacent columns shares
/// each row's cache lines, so the row-major tableau is read once overall
/// instead of once per column.
const LEAF_GROUP: usize = 8;

/// Bytes of a column gathered per hash update: enough (32 rows of
/// GF(2^128), 16 of P-256) that the per-call cost of `update` is small
/// against the compressions it runs.
const UPDATE_BYTES: usize = 512;

/// `SHA-256(nonce ‖ column c of every row)` (full-field encodings) for the
/// committed columns `first..first + nonces.len()`. The columns' hashes run
/// side by side, each fed a few rows at a time from a stack buffer: the
/// group's rows share cache lines, so the row-major tableau is still read
/// once. (Gathering whole columns first allocated a column-sized buffer per
/// column on whichever thread ran the group; what a helper thread frees
/// stays in its malloc arena and raised the two-thread peak.)
fn column_leaves<F: Field>(
    nonces: &[[u8; 32]],
    tableau: &[F],
    p: &LigeroParams,
    first: usize,
) -> Vec<[u8; 32]> {
    let start = p.dblock + first;
    let mut hashes: Vec<Sha256> = nonces.iter().map(Sha256::new_with_prefix).collect();
    let rows_per_update = (UPDATE_BYTES / F::BYTES).max(1);
    let mut buf = [0u8; UPDATE_BYTES];
    for rows in tableau.chunks(rows_per_update * p.block_enc) {
        for (c, h) in hashes.iter_mut().enumerate() {
            let mut len = 0;
            for row in rows.chunks_exact(p.block_enc) {
                let repr = row[start + c].to_repr();
                let bytes = repr.as_ref();
                match buf.get_mut(len..len + bytes.len()) {
                    Some(slot) => {
                        slot.copy_from_slice(bytes);
                        len += bytes.len();
                    }
                    // An element that does not fit (only one wider than
                    // the whole buffer can: an update holds whole rows)
                    // follows the bytes gathered before it.
                    None => {
                        h.update(&buf[..len]);
                        len = 0;
                        h.update(bytes);
                    }
                }
            }
            h.update(&buf[..len]);
        }
    }
    hashes.into_iter().map(|h| h.finalize().into()).collect()
}

#[cfg(test)]
mod tests;
