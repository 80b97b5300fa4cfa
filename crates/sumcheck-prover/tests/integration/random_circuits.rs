//! Completeness and soundness checks on random circuits, including layers
//! large enough to take the parallel paths.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::random_circuit::random_circuit;
use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_random::MdocLcg;
use longfellow_sumcheck::{
    committed_witness, constraints, quadratic_constraints, write_statement, Constraints,
    LayeredCircuit, SimpleCircuit, SumcheckProof,
};
use longfellow_sumcheck_prover::reference::Prover;
use longfellow_sumcheck_prover::sample_pad;
use longfellow_sumcheck_prover::{
    evaluate_streaming, evaluate_streaming_tuned, prove_streaming, prove_streaming_tuned, Tuning,
};
use longfellow_transcript::Transcript;
use proptest::prelude::*;

fn satisfied<F: Field>(c: &Constraints<F>, w: &[F]) -> bool {
    let mut lhs = vec![F::ZERO; c.b.len()];
    for t in &c.linear {
        lhs[t.c] += t.k * w[t.w];
    }
    lhs == c.b
}

/// Interleaves the bits of `h0` (even positions) and `h1` (odd ones): the
/// order in which sumcheck binds the hand variables.
fn morton_key(h0: u32, h1: u32) -> u64 {
    (0..32).fold(0u64, |k, b| {
        k | (u64::from(h0 >> b & 1) << (2 * b)) | (u64::from(h1 >> b & 1) << (2 * b + 1))
    })
}

fn morton_sorted<F: Field>(c: &SimpleCircuit<F>) -> SimpleCircuit<F> {
    let mut sorted = c.clone();
    for layer in &mut sorted.layers {
        layer.terms.sort_by_key(|t| morton_key(t.h0, t.h1));
    }
    sorted
}

fn statement<F: Field>(c: &SimpleCircuit<F>, inputs: &[F]) -> Transcript {
    let mut t = Transcript::new(b"random circuit");
    write_statement(&mut t, c, &inputs[..c.num_public_inputs()]);
    t
}

/// Proves, checks the encoding round trip, and checks that the verifier's
/// constraints hold on the committed witness and fail on a tampered proof.
fn prove_and_check<F: Field>(c: &SimpleCircuit<F>, inputs: &[F], seed: u64) -> Vec<u8> {
    let npub = c.num_public_inputs();
    let prover = Prover::new(c).unwrap();
    let eval = prover.evaluate(inputs).unwrap();
    let pad = sample_pad(c, &mut MdocLcg::new(seed));
    let mut tp = statement(c, inputs);
    let mut tv = tp.clone();
    let mut ts = tp.clone();
    let out = prover.prove(&eval, &pad, &mut tp).unwrap();

    // The streaming path (one layer prepared at a time, evaluation straight
    // from the terms) computes the same wires and writes the same transcript.
    let streamed_eval = evaluate_streaming(c, inputs).unwrap();
    assert_eq!(streamed_eval, eval);
    assert_eq!(streamed_eval.outputs, eval.outputs);
    let streamed = prove_streaming(c, streamed_eval, &pad, &mut ts).unwrap();
    assert_eq!(streamed.proof, out.proof);
    assert_eq!(streamed.bound_quads, out.bound_quads);

    // Every layer table-coded and every round read straight from the bound
    // form (big layers only, by default): the same proof.
    let eager = Tuning::eager();
    let coded_eval = evaluate_streaming_tuned(c, inputs.to_vec(), &eager).unwrap();
    for l in 0..coded_eval.num_layers() {
        assert_eq!(coded_eval.wires(l), eval.wires(l));
    }
    let mut te = statement(c, inputs);
    let coded = prove_streaming_tuned(c, coded_eval, &pad, &mut te, &eager).unwrap();
    assert_eq!(coded.proof, out.proof);
    assert_eq!(coded.bound_quads, out.bound_quads);

    // Terms stored in binding (Morton) order, as circuit files hold them,
    // take the single-pass path instead of the sort-and-merge fallback
    // that the random order above needs; the proof is the same.
    let sorted = morton_sorted(c);
    let mut tm = statement(c, inputs);
    let eval_sorted = evaluate_streaming(&sorted, inputs).unwrap();
    let from_sorted = prove_streaming(&sorted, eval_sorted, &pad, &mut tm).unwrap();
    assert_eq!(from_sorted.proof, out.proof);
    assert_eq!(from_sorted.bound_quads, out.bound_quads);

    let mut bytes = Vec::new();
    out.proof.write(&mut bytes);
    assert_eq!(bytes.len(), out.proof.encoded_len());
    let mut rest = bytes.as_slice();
    let proof = SumcheckProof::<F>::read(c, &mut rest).unwrap();
    assert!(rest.is_empty());
    assert_eq!(proof, out.proof);

    let cons = constraints(c, &inputs[..npub], &proof, &mut tv).unwrap();
    assert_eq!(cons.b.len(), c.num_layers() + 1);
    let w = committed_witness(&inputs[npub..], &pad);
    assert!(satisfied(&cons, &w));
    for q in quadratic_constraints(c) {
        assert_eq!(w[q.x] * w[q.y], w[q.z]);
    }

    // Any change to the transcript breaks the constraints.
    let last = c.num_layers() - 1;
    for (layer, tweak_round) in [(0, true), (last, false)] {
        let mut bad = proof.clone();
        if tweak_round && !bad.layers[layer].rounds.is_empty() {
            bad.layers[layer].rounds[0][1].p2 += F::ONE;
        } else {
            bad.layers[layer].claims[1] += F::ONE;
        }
        let mut t = statement(c, inputs);
        let cb = constraints(c, &inputs[..npub], &bad, &mut t).unwrap();
        assert!(!satisfied(&cb, &w));
    }
    // So do wrong public inputs.
    if npub > 1 {
        let mut public = inputs[..npub].to_vec();
        public[npub - 1] += F::ONE;
        let mut t = Transcript::new(b"random circuit");
        write_statement(&mut t, c, &public);
        let cb = constraints(c, &public, &proof, &mut t).unwrap();
        assert!(!satisfied(&cb, &w));
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_small_fp128(seed in any::<u64>(), nv in 1usize..5, w1 in 1usize..9, w2 in 2usize..12, npub in 0usize..6) {
        let (c, inputs) = random_circuit::<Fp128>(seed, nv, &[w1, w2], 2, npub);
        prove_and_check(&c, &inputs, seed);
    }

    #[test]
    fn random_small_gf2_128(seed in any::<u64>(), nv in 1usize..5, w1 in 1usize..9, w2 in 2usize..12, npub in 0usize..6) {
        let (c, inputs) = random_circuit::<Gf2_128>(seed, nv, &[w1, w2, w2 + 3], 2, npub);
        prove_and_check(&c, &inputs, seed);
    }
}

#[test]
fn three_layers_fp256() {
    let (c, inputs) = random_circuit::<Fp256>(7, 3, &[5, 17, 33], 3, 4);
    prove_and_check(&c, &inputs, 7);
}

/// Layers wide enough that contraction, binding and evaluation split into
/// parallel parts; the proof must equal the one made on a single thread.
#[test]
fn parallel_matches_single_thread() {
    let (c, inputs) = random_circuit::<Gf2_128>(11, 4, &[3000, 20000, 9000], 3, 100);
    let multi = prove_and_check(&c, &inputs, 5);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let single = pool.install(|| prove_and_check(&c, &inputs, 5));
    assert!(multi == single);
}

#[test]
fn wrong_input_count_is_rejected() {
    let (c, inputs) = random_circuit::<Fp128>(3, 2, &[4, 6], 2, 2);
    let prover = Prover::new(&c).unwrap();
    assert!(prover.evaluate(&inputs[1..]).is_err());
    assert!(evaluate_streaming(&c, &inputs[1..]).is_err());
    let mut t = statement(&c, &inputs);
    let proof = SumcheckProof::zero(&c);
    assert!(constraints(&c, &inputs[..1], &proof, &mut t).is_err());
}

#[test]
fn failing_assertion_is_reported() {
    let (c, mut inputs) = random_circuit::<Fp128>(3, 2, &[4, 6], 2, 2);
    inputs[1] = Fp128::ONE;
    let prover = Prover::new(&c).unwrap();
    assert!(matches!(
        prover.evaluate(&inputs),
        Err(longfellow_sumcheck::SumcheckError::AssertionFailed { .. })
    ));
    assert!(matches!(
        evaluate_streaming(&c, &inputs),
        Err(longfellow_sumcheck::SumcheckError::AssertionFailed { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Arbitrary bytes never panic the decoder; whatever it accepts
    /// re-encodes to exactly the bytes it consumed.
    #[test]
    fn decoder_total_on_arbitrary_bytes(seed in any::<u64>(), bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let (c, _) = random_circuit::<Fp128>(seed, 2, &[3, 5], 1, 1);
        let mut rest = bytes.as_slice();
        if let Ok(p) = SumcheckProof::<Fp128>::read(&c, &mut rest) {
            let used = bytes.len() - rest.len();
            let mut again = Vec::new();
            p.write(&mut again);
            prop_assert_eq!(&again[..], &bytes[..used]);
        }
    }
}
