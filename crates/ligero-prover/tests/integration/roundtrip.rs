//! Prove/verify round trips on random statements over each field, the wire
//! layout checked against a size formula derived from the format (not from
//! our writer), and the prover's own refusals.
#![allow(clippy::unwrap_used)]

use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_ligero::{
    verify, LigeroCommitment, LigeroError, LigeroParams, LigeroProof, LinearTerm,
    QuadraticConstraint,
};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::{random_element, random_subfield_element, SpecLcg};
use longfellow_reed_solomon::RsField;
use longfellow_transcript::Transcript;
use proptest::prelude::*;

struct Statement<F> {
    witness: Vec<F>,
    quad: Vec<QuadraticConstraint>,
    linear: Vec<LinearTerm<F>>,
    b: Vec<F>,
}

/// A satisfiable statement: `W[3i+2] = W[3i]·W[3i+1]` for the first `nq`
/// triples, `nl` dense random linear constraints, `b = A·W`. The first
/// `subfield` witnesses that are free are subfield elements.
fn statement<F: Field>(
    nw: usize,
    nq: usize,
    nl: usize,
    subfield: usize,
    rng: &mut SpecLcg,
) -> Statement<F> {
    let mut witness: Vec<F> = (0..nw)
        .map(|i| {
            if i < subfield {
                random_subfield_element(rng)
            } else {
                random_element(rng)
            }
        })
        .collect();
    let quad: Vec<_> = (0..nq)
        .map(|i| QuadraticConstraint {
            x: 3 * i,
            y: 3 * i + 1,
            z: 3 * i + 2,
        })
        .collect();
    for q in &quad {
        witness[q.z] = witness[q.x] * witness[q.y];
    }
    let mut linear = Vec::new();
    let mut b = vec![F::ZERO; nl];
    for (w, &value) in witness.iter().enumerate() {
        let k: F = random_element(rng);
        let c = w % nl;
        linear.push(LinearTerm { c, w, k });
        b[c] += k * value;
    }
    Statement {
        witness,
        quad,
        linear,
        b,
    }
}

fn prove<F: RsField>(
    params: &LigeroParams,
    s: &Statement<F>,
    subfield_boundary: usize,
    seed: u64,
) -> (LigeroCommitment, LigeroProof<F>) {
    let mut rng = SpecLcg::new(seed);
    let (prover, com) =
        LigeroProver::commit(params, &s.witness, subfield_boundary, &s.quad, &mut rng).unwrap();
    let mut ts = Transcript::new(b"roundtrip");
    com.absorb(&mut ts);
    let proof = prover.prove(&mut ts, &s.linear, &s.b, &s.quad).unwrap();
    (com, proof)
}

fn check<F: RsField>(
    params: &LigeroParams,
    s: &Statement<F>,
    com: &LigeroCommitment,
    proof: &LigeroProof<F>,
) -> Result<(), LigeroError> {
    let mut ts = Transcript::new(b"roundtrip");
    com.absorb(&mut ts);
    verify(params, com, proof, &mut ts, &s.linear, &s.b, &s.quad)
}

/// Expected encoded size from the format: responses and nonces, then runs
/// (4 bytes per run), then the digest list.
fn expected_len<F: Field>(p: &LigeroParams, proof: &LigeroProof<F>) -> usize {
    let mut runs = 0;
    let mut kind = false;
    let mut run_bytes = 0;
    for e in &proof.columns {
        let sub = e.is_in_subfield();
        if sub != kind || runs == 0 {
            // A new run starts; if the first value is a subfield value, an
            // empty full-field run precedes it.
            runs += if runs == 0 && sub { 2 } else { 1 };
            kind = sub;
        }
        run_bytes += if sub { F::SUBFIELD_BYTES } else { F::BYTES };
    }
    (p.block + p.dblock + p.r + (p.dblock - p.block)) * F::BYTES
        + 32 * p.nreq
        + 4 * runs
        + run_bytes
        + 4
        + 32 * proof.merkle_path.len()
}

fn round_trip<F: RsField>(
    nw: usize,
    nq: usize,
    nl: usize,
    nreq: usize,
    block_enc: usize,
    sfb: usize,
) {
    let params = LigeroParams::new(nw, nq, 4, nreq, block_enc).unwrap();
    let mut rng = SpecLcg::new(7);
    let s = statement::<F>(nw, nq, nl, sfb.max(3 * nq), &mut rng);
    let (com, proof) = prove(&params, &s, sfb, 99);
    check(&params, &s, &com, &proof).unwrap();

    let bytes = proof.to_bytes();
    assert_eq!(bytes.len(), expected_len(&params, &proof));
    let back = LigeroProof::<F>::from_bytes(&params, &bytes).unwrap();
    assert_eq!(back, proof);
    check(&params, &s, &com, &back).unwrap();

    // A false linear statement is caught by the inner-product check.
    let mut bad_b = s.b.clone();
    bad_b[0] += F::ONE;
    let mut ts = Transcript::new(b"roundtrip");
    com.absorb(&mut ts);
    assert!(matches!(
        verify(&params, &com, &proof, &mut ts, &s.linear, &bad_b, &s.quad),
        Err(LigeroError::LinearCheck)
    ));
}

#[test]
fn round_trip_fp256() {
    round_trip::<Fp256>(300, 30, 7, 18, 256, 0);
}

#[test]
fn round_trip_fp128() {
    round_trip::<Fp128>(200, 20, 5, 10, 256, 0);
}

#[test]
fn round_trip_gf2_128_with_subfield_rows() {
    round_trip::<Gf2_128>(300, 30, 7, 18, 256, 250);
}

#[test]
fn fp256_columns_are_one_subfield_run() {
    // Every P-256 element is its own subfield: the columns encode as an
    // empty full run followed by one run of 32-byte values.
    let params = LigeroParams::new(100, 5, 4, 8, 128).unwrap();
    let mut rng = SpecLcg::new(3);
    let s = statement::<Fp256>(100, 5, 3, 0, &mut rng);
    let (_, proof) = prove(&params, &s, 0, 5);
    let bytes = proof.to_bytes();
    let at = (params.block + 2 * params.dblock - params.block + params.r) * 32 + 32 * params.nreq;
    let n = params.nrow * params.nreq;
    assert_eq!(bytes[at..at + 4], [0, 0, 0, 0]);
    assert_eq!(bytes[at + 4..at + 8], (n as u32).to_le_bytes());
}

#[test]
fn subfield_rows_shrink_the_proof() {
    let params = LigeroParams::new(300, 30, 4, 18, 256).unwrap();
    let mut rng = SpecLcg::new(11);
    let s = statement::<Gf2_128>(300, 30, 7, 300, &mut rng);
    let (_, full) = prove(&params, &s, 0, 1);
    let (_, sub) = prove(&params, &s, 250, 1);
    assert!(sub.to_bytes().len() < full.to_bytes().len());
}

#[test]
fn prover_refuses_bad_witnesses() {
    let params = LigeroParams::new(60, 5, 4, 6, 128).unwrap();
    let mut rng = SpecLcg::new(1);
    let s = statement::<Gf2_128>(60, 5, 3, 0, &mut rng);
    let mut bad = s.witness.clone();
    bad[2] += Gf2_128::ONE;
    assert!(matches!(
        LigeroProver::commit(&params, &bad, 0, &s.quad, &mut rng),
        Err(LigeroError::QuadraticUnsatisfied { index: 0 })
    ));
    assert!(matches!(
        LigeroProver::commit(&params, &s.witness[..59], 0, &s.quad, &mut rng),
        Err(LigeroError::WitnessLength { .. })
    ));
    // Witness 0 is a random full-field element, so not in GF(2^16).
    assert!(matches!(
        LigeroProver::commit(&params, &s.witness, 10, &s.quad, &mut rng),
        Err(LigeroError::NotInSubfield { .. })
    ));
    assert!(matches!(
        LigeroProver::commit(&params, &s.witness, 61, &s.quad, &mut rng),
        Err(LigeroError::SubfieldBoundary { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Any shape the parameters accept proves and verifies, and the
    /// encoding round-trips.
    #[test]
    fn random_shapes_round_trip(nw in 1usize..120, nq in 0usize..12, nl in 1usize..6, seed: u64) {
        let nq = nq.min(nw / 3);
        let params = LigeroParams::new(nw, nq, 3, 6, 128).unwrap();
        let mut rng = SpecLcg::new(seed);
        let s = statement::<Gf2_128>(nw, nq, nl, 0, &mut rng);
        let (com, proof) = prove(&params, &s, 0, seed ^ 1);
        prop_assert!(check(&params, &s, &com, &proof).is_ok());
        let back = LigeroProof::<Gf2_128>::from_bytes(&params, &proof.to_bytes()).unwrap();
        prop_assert_eq!(back, proof);
    }
}
