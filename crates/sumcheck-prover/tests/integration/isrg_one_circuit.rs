#![allow(clippy::unwrap_used)]
//! ISRG's one-circuit vectors: the padded sumcheck proof must match byte
//! for byte, and the constraints must match the recorded right-hand sides
//! and quadratic triples and be satisfied by the committed witness.

use crate::common;

use longfellow_field::{Field, Fp128, Gf2_128};
use longfellow_random::ConstantDrawRng;
use longfellow_sumcheck::{
    committed_witness, constraints, constraints_with_bound_quads, quadratic_constraints,
    write_statement, Pad, SumcheckError, SumcheckProof,
};
use longfellow_sumcheck_prover::reference::Prover;
use longfellow_sumcheck_prover::sample_pad;
use longfellow_transcript::Transcript;
use serde_json::Value;

const DIR: &str = "isrg/one-circuit/";
const RFC: &str = "longfellow-rfc-1-87474f308020535e57a778a82394a14106f8be5b";
const MAC: &str = "longfellow-mac-circuit-66aeaf09a9cc98e36873e868307ac07279d5f7e0-1";

struct Vector<F> {
    circuit: longfellow_circuit::Circuit<F>,
    json: Value,
    inputs: Vec<F>,
    sumcheck_proof: Vec<u8>,
}

fn load<F: Field>(name: &str) -> Vector<F> {
    let read = |ext: &str| longfellow_testvectors::read(&format!("{DIR}{name}.{ext}"));
    let circuit = longfellow_circuit::load_circuit::<F>(&read("circuit.zst")).unwrap();
    let json: Value = serde_json::from_slice(&read("json")).unwrap();
    // The JSON omits the constant-one input 0.
    let mut inputs = vec![F::ONE];
    for s in json["valid_inputs"].as_array().unwrap() {
        inputs.push(common::elt(s.as_str().unwrap()));
    }
    Vector {
        circuit,
        json,
        inputs,
        sumcheck_proof: read("sumcheck-proof"),
    }
}

/// Transcript as ISRG's test sets it up: init "test" with legacy array tag,
/// the Ligero root, then the statement.
fn transcript<F: Field>(v: &Vector<F>) -> Transcript {
    let mut t = Transcript::new_with_legacy_array_tag(b"test");
    t.write_bytes(&hex::decode(v.json["ligero_commitment"].as_str().unwrap()).unwrap());
    let npub = v.circuit.num_public_inputs();
    write_statement(&mut t, &v.circuit, &v.inputs[..npub]);
    t
}

fn run<F: Field>(name: &str) {
    let v = load::<F>(name);
    let c = &v.circuit;
    let npub = c.num_public_inputs();
    assert_eq!(v.json["pad"].as_u64(), Some(2));

    let prover = Prover::new(c).unwrap();
    let eval = prover.evaluate(&v.inputs).unwrap();
    let pad = sample_pad(c, &mut ConstantDrawRng::isrg());
    let mut two = vec![0u8; F::BYTES];
    two[0] = 2;
    assert!(pad.0.layers[0].claims[0] == F::from_bytes(&two).unwrap());

    let mut tp = transcript(&v);
    let mut tv = tp.clone();
    let mut tpc = tp.clone();
    let out = prover.prove(&eval, &pad, &mut tp).unwrap();

    let mut bytes = Vec::new();
    out.proof.write(&mut bytes);
    assert_eq!(bytes.len(), v.sumcheck_proof.len());
    assert!(bytes == v.sumcheck_proof, "sumcheck proof bytes differ");

    // Decoding gives back the same proof and consumes everything.
    let mut rest = v.sumcheck_proof.as_slice();
    let decoded = SumcheckProof::<F>::read(c, &mut rest).unwrap();
    assert!(rest.is_empty());
    assert_eq!(decoded, out.proof);

    // Verifier's constraints (terms re-bound from the circuit) and the
    // prover's (bound quads reused) agree, and match the recorded b.
    let cv = constraints(c, &v.inputs[..npub], &decoded, &mut tv).unwrap();
    let cp =
        constraints_with_bound_quads(c, &v.inputs[..npub], &out.proof, &out.bound_quads, &mut tpc)
            .unwrap();
    assert_eq!(cv, cp);
    assert_eq!(tv.digest(), tpc.digest());
    let want_b: Vec<F> = v.json["constraints"]["linear_rhs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| common::elt(s.as_str().unwrap()))
        .collect();
    assert_eq!(cv.b, want_b);

    // The committed witness satisfies A·W = b.
    let w = committed_witness(&v.inputs[npub..], &pad);
    let mut lhs = vec![F::ZERO; cv.b.len()];
    for t in &cv.linear {
        lhs[t.c] += t.k * w[t.w];
    }
    assert_eq!(lhs, cv.b);

    // Quadratic constraints match, and hold.
    let q = quadratic_constraints(c);
    let want_q: Vec<(usize, usize, usize)> = v.json["constraints"]["quadratic"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let g = |k: &str| o[k].as_u64().unwrap() as usize;
            (g("x"), g("y"), g("z"))
        })
        .collect();
    let got_q: Vec<_> = q.iter().map(|q| (q.x, q.y, q.z)).collect();
    assert_eq!(got_q, want_q);
    for q in &q {
        assert_eq!(w[q.x] * w[q.y], w[q.z]);
    }

    // A tampered proof no longer satisfies the constraints.
    let mut bad = decoded.clone();
    bad.layers[0].claims[0] += F::ONE;
    let mut t = transcript(&v);
    let cb = constraints(c, &v.inputs[..npub], &bad, &mut t).unwrap();
    let mut lhs = vec![F::ZERO; cb.b.len()];
    for t in &cb.linear {
        lhs[t.c] += t.k * w[t.w];
    }
    assert_ne!(lhs, cb.b);

    // Truncated input is rejected, not panicked on.
    let mut short = &v.sumcheck_proof[..v.sumcheck_proof.len() - 1];
    assert!(matches!(
        SumcheckProof::<F>::read(c, &mut short),
        Err(SumcheckError::Truncated { .. })
    ));
}

#[test]
fn rfc_fp128() {
    longfellow_testvectors::require!();
    run::<Fp128>(RFC);
}

#[test]
fn mac_gf2_128() {
    longfellow_testvectors::require!();
    run::<Gf2_128>(MAC);
}

#[test]
fn invalid_inputs_fail() {
    longfellow_testvectors::require!();
    let v = load::<Fp128>(RFC);
    let mut inputs = vec![Fp128::ONE];
    for s in v.json["invalid_inputs"].as_array().unwrap() {
        inputs.push(common::elt(s.as_str().unwrap()));
    }
    let prover = Prover::new(&v.circuit).unwrap();
    let eval = prover.evaluate(&inputs).unwrap();
    let pad = Pad::zero(&v.circuit);
    let mut t = transcript(&v);
    assert!(matches!(
        prover.prove(&eval, &pad, &mut t),
        Err(SumcheckError::NonZeroOutput { .. })
    ));
}
