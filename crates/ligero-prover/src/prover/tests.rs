#![allow(clippy::unwrap_used)]

use super::*;
use longfellow_field::{Fp256, Gf2_128};
use longfellow_ligero::verify;
use longfellow_random::{random_element, SpecLcg};

/// A satisfied random statement: `nw` witnesses, `nq` quadratic
/// constraints `W[3i]·W[3i+1] = W[3i+2]`, `nl` linear constraints.
struct Statement<F> {
    p: LigeroParams,
    w: Vec<F>,
    quad: Vec<QuadraticConstraint>,
    linear: Vec<LinearTerm<F>>,
    b: Vec<F>,
    /// Witnesses below this index lie in the subfield.
    subfield_boundary: usize,
}

fn statement<F: Field>(
    nw: usize,
    nq: usize,
    nl: usize,
    rateinv: usize,
    block_enc: usize,
) -> Statement<F> {
    let p = LigeroParams::new(nw, nq, rateinv, 6, block_enc).unwrap();
    let mut rng = SpecLcg::new(5);
    let mut w: Vec<F> = (0..nw).map(|_| random_element(&mut rng)).collect();
    let quad: Vec<_> = (0..nq)
        .map(|i| QuadraticConstraint {
            x: 3 * i,
            y: 3 * i + 1,
            z: 3 * i + 2,
        })
        .collect();
    for q in &quad {
        w[q.z] = w[q.x] * w[q.y];
    }
    let linear: Vec<_> = (0..nw)
        .map(|i| LinearTerm {
            c: i % nl,
            w: i,
            k: F::from_index(i as u64 + 1),
        })
        .collect();
    let mut b = vec![F::ZERO; nl];
    for t in &linear {
        b[t.c] += t.k * w[t.w];
    }
    Statement {
        p,
        w,
        quad,
        linear,
        b,
        subfield_boundary: 0,
    }
}

/// [`statement`] over GF(2^128) whose first `boundary` witnesses (and so
/// the products of the quadratic constraints among them) lie in the
/// GF(2^16) subfield, as the hash circuit's bits do.
fn subfield_statement(
    nw: usize,
    nq: usize,
    nl: usize,
    block_enc: usize,
    boundary: usize,
) -> Statement<Gf2_128> {
    let mut s = statement::<Gf2_128>(nw, nq, nl, 4, block_enc);
    let mut rng = SpecLcg::new(7);
    for w in &mut s.w[..boundary] {
        *w = Gf2_128::from_subfield_coordinates(rng.next_u32() as u16);
    }
    for q in &s.quad {
        s.w[q.z] = s.w[q.x] * s.w[q.y];
    }
    s.b.fill(Gf2_128::ZERO);
    for t in &s.linear {
        s.b[t.c] += t.k * s.w[t.w];
    }
    s.subfield_boundary = boundary;
    s
}

impl<F: RsField> Statement<F>
where
    F::Encoder: Sync,
{
    fn commit(&self) -> (LigeroProver<F>, LigeroCommitment) {
        let boundary = self.subfield_boundary;
        LigeroProver::commit(&self.p, &self.w, boundary, &self.quad, &mut SpecLcg::new(9)).unwrap()
    }

    fn prove(&self, prover: LigeroProver<F>, com: &LigeroCommitment) -> LigeroProof<F> {
        let mut ts = Transcript::new(b"prover tests");
        com.absorb(&mut ts);
        prover
            .prove(&mut ts, &self.linear, &self.b, &self.quad)
            .unwrap()
    }

    fn verify(&self, com: &LigeroCommitment, proof: &LigeroProof<F>) -> Result<(), LigeroError> {
        let mut ts = Transcript::new(b"prover tests");
        com.absorb(&mut ts);
        verify(
            &self.p,
            com,
            proof,
            &mut ts,
            &self.linear,
            &self.b,
            &self.quad,
        )
    }
}

/// Commits honestly, alters one blinding row's committed part, proves
/// and verifies: the matching check must fire.
fn cheat(row: usize) -> Result<(), LigeroError> {
    let s = statement::<Gf2_128>(90, 6, 3, 4, 256);
    let (prover, _) = s.commit();
    let (prover, com) = prover
        .recommit_altered(
            |p, t| {
                for c in p.dblock..p.block_enc {
                    t[row * p.block_enc + c] += Gf2_128::ONE;
                }
            },
            &mut SpecLcg::new(11),
        )
        .unwrap();
    let proof = s.prove(prover, &com);
    s.verify(&com, &proof)
}

#[test]
fn each_check_catches_its_cheat() {
    assert!(matches!(cheat(ILDT), Err(LigeroError::LowDegreeCheck)));
    assert!(matches!(cheat(IDOT), Err(LigeroError::DotCheck)));
    assert!(matches!(cheat(IQUAD), Err(LigeroError::QuadraticCheck)));
}

/// Re-encoding the prefixes yields every row and every committed column
/// exactly as `commit` encoded them, and a prover keeping only the
/// prefixes writes the same proof as one keeping whole rows. Returns how
/// many rows the prefixes kept packed.
fn prefixes_match_whole_rows<F: RsField>(s: &Statement<F>) -> usize
where
    F::Encoder: Sync,
{
    let p = &s.p;
    let (prover, com) = s.commit();
    let tableau = prover.rows.into_tableau(p).unwrap();
    let whole = KeptRows::whole(p, tableau.clone());
    let prefixes = KeptRows::prefixes(p, tableau.clone());
    for i in 0..p.nrow {
        assert_eq!(prefixes.row(p, i, p.dblock), whole.row(p, i, p.dblock));
        assert_eq!(prefixes.row(p, i, p.r), whole.row(p, i, p.r));
    }
    let packed = prefixes.packed_rows();
    let all: Vec<usize> = (0..p.leaves).rev().collect();
    assert_eq!(
        prefixes.opened_columns(p, &all).unwrap(),
        whole.opened_columns(p, &all).unwrap()
    );
    assert_eq!(prefixes.into_tableau(p).unwrap(), tableau);

    let (mut with_whole, com_whole) = s.commit();
    with_whole.rows = KeptRows::whole(p, with_whole.rows.into_tableau(p).unwrap());
    let (mut with_prefixes, com_prefixes) = s.commit();
    with_prefixes.rows = KeptRows::prefixes(p, with_prefixes.rows.into_tableau(p).unwrap());
    assert_eq!(com_whole, com);
    assert_eq!(com_prefixes, com);
    let proof = s.prove(with_whole, &com);
    assert_eq!(s.prove(with_prefixes, &com), proof);
    s.verify(&com, &proof).unwrap();
    packed
}

#[test]
fn keeping_prefixes_changes_nothing() {
    // Full-field witnesses: nothing can be packed.
    assert_eq!(
        prefixes_match_whole_rows(&statement::<Gf2_128>(90, 6, 3, 4, 256)),
        0
    );
    assert_eq!(
        prefixes_match_whole_rows(&statement::<Gf2_128>(700, 40, 5, 7, 300)),
        0
    );
    assert_eq!(
        prefixes_match_whole_rows(&statement::<Fp256>(90, 6, 3, 4, 256)),
        0
    );
    assert_eq!(
        prefixes_match_whole_rows(&statement::<Fp256>(700, 40, 5, 7, 300)),
        0
    );
}

/// Rows whose message lies in the subfield are kept packed (their
/// encoding stays in the subfield), the others whole, and the proof is the
/// same either way.
#[test]
fn subfield_rows_are_kept_packed() {
    // Only the rows wholly below the boundary draw subfield blinding, so
    // a last, partly filled row stays whole.
    let all = subfield_statement(700, 40, 5, 300, 700);
    assert!(700 / all.p.w >= 10);
    assert_eq!(prefixes_match_whole_rows(&all), 700 / all.p.w);
    let part = subfield_statement(700, 40, 5, 300, 350);
    assert_eq!(prefixes_match_whole_rows(&part), 350 / part.p.w);
    assert!(part.p.nwrow > 350 / part.p.w);
}

/// `SHA-256(nonce ‖ column)` over whole gathered columns: what
/// `column_leaves` must equal however it feeds the hash.
fn leaves_by_gathering<F: Field>(
    nonces: &[[u8; 32]],
    tableau: &[F],
    p: &LigeroParams,
    first: usize,
) -> Vec<[u8; 32]> {
    (0..nonces.len())
        .map(|c| {
            let mut column = Vec::new();
            for row in tableau.chunks_exact(p.block_enc) {
                column.extend_from_slice(row[p.dblock + first + c].to_repr().as_ref());
            }
            let mut h = Sha256::new();
            h.update(nonces[c]);
            h.update(&column);
            h.finalize().into()
        })
        .collect()
}

fn check_column_leaves<F: RsField>(nw: usize, nq: usize) -> usize {
    let p = statement::<F>(nw, nq, 3, 4, 256).p;
    let mut rng = SpecLcg::new(11);
    let tableau: Vec<F> = (0..p.nrow * p.block_enc)
        .map(|_| random_element(&mut rng))
        .collect();
    let mut nonces = vec![[0u8; 32]; LEAF_GROUP];
    for nonce in &mut nonces {
        rng.fill_bytes(nonce);
    }
    // Every group width, at the first and the last columns.
    for width in 1..=LEAF_GROUP {
        for first in [0, p.leaves - width] {
            let nonces = &nonces[..width];
            assert_eq!(
                column_leaves(nonces, &tableau, &p, first),
                leaves_by_gathering(nonces, &tableau, &p, first),
                "nrow {}, width {width}, first {first}",
                p.nrow
            );
        }
    }
    p.nrow
}

#[test]
fn column_leaves_hash_whole_columns() {
    // Row counts on both sides of one update's rows (32 of GF(2^128), 16
    // of P-256) and not multiples of it.
    let mut rows = Vec::new();
    for (nw, nq) in [(40, 4), (900, 30), (3000, 200)] {
        rows.push(check_column_leaves::<Gf2_128>(nw, nq));
        rows.push(check_column_leaves::<Fp256>(nw, nq));
    }
    assert!(rows.iter().any(|&r| r < 16), "{rows:?}");
    assert!(
        rows.iter().any(|&r| r > 32 && r % 32 != 0 && r % 16 != 0),
        "{rows:?}"
    );
}

/// The commitment's working memory fits every row without growing (a
/// buffer grown inside the parallel encoding would be allocated on
/// whichever thread ran that row): the double-block rows included.
#[test]
fn tableau_scratch_fits_every_row() {
    let p = statement::<Gf2_128>(900, 30, 3, 4, 256).p;
    let encoders = Encoders::<Gf2_128>::new(&p).unwrap();
    let mut scratch = encoders.scratch();
    let capacity = scratch.capacity();
    let mut row = vec![Gf2_128::ONE; p.block_enc];
    for i in [ILDT, IDOT, IQUAD, IW] {
        encoders
            .for_row(&p, i)
            .0
            .extend_with(&mut row, &mut scratch);
        assert_eq!(scratch.capacity(), capacity, "row {i}");
    }
}
