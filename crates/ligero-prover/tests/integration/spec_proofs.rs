//! The Ligero part of the specification's full one-circuit proofs
//! (`google/spec/{sha256,ecdsa2}_proof.bin`: root ‖ sumcheck ‖ Ligero):
//! GF(2^128) with subfield rows (rateinv 3) and P-256 (rateinv 4), both
//! nreq 16, block_enc 256. The constraints come from replaying the stored
//! sumcheck proof; the stored Ligero part must verify, and re-proving with
//! the reference generator (spec LCG, seeds 12345 / 123456789; pad first,
//! then tableau and nonces) must reproduce the root and every byte.
#![allow(clippy::unwrap_used)]

use longfellow_field::{Fp256, Gf2_128};
use longfellow_ligero::{verify, LigeroCommitment, LigeroError, LigeroParams, LigeroProof};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::SpecLcg;
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{
    committed_witness, constraints, quadratic_constraints, witness_len, write_statement,
    LayeredCircuit, SumcheckProof,
};
use longfellow_sumcheck_prover::sample_pad;
use longfellow_transcript::Transcript;

/// Little-endian bytes of a decimal string (the inputs JSON format).
fn decimal_le(s: &str, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    for ch in s.bytes() {
        let mut carry = u32::from(ch - b'0');
        for b in out.iter_mut() {
            let v = u32::from(*b) * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        assert_eq!(carry, 0, "input does not fit {n} bytes");
    }
    out
}

fn run<F: RsField>(name: &str, rateinv: usize, seed: u64)
where
    F::Encoder: Sync,
{
    let read = |f: &str| longfellow_testvectors::read(&format!("google/spec/{name}_{f}"));
    let c = longfellow_circuit::load_circuit::<F>(&read("circuit.lfc2")).unwrap();
    let raw: Vec<String> = serde_json::from_slice(&read("inputs.json")).unwrap();
    let inputs: Vec<F> = raw
        .iter()
        .map(|s| F::from_bytes(&decimal_le(s, F::BYTES)).unwrap())
        .collect();
    let npub = c.num_public_inputs();
    let params = LigeroParams::new(witness_len(&c), c.num_layers(), rateinv, 16, 256).unwrap();

    let bytes = read("proof.bin");
    let root: [u8; 32] = bytes[..32].try_into().unwrap();
    let mut rest = &bytes[32..];
    let sumcheck = SumcheckProof::<F>::read(&c, &mut rest).unwrap();
    let ligero_bytes = rest;
    let proof = LigeroProof::<F>::from_bytes(&params, ligero_bytes).unwrap();
    assert!(proof.to_bytes() == ligero_bytes);

    let com = LigeroCommitment { root };
    let mut ts = Transcript::new(format!("{name}_spec_test").as_bytes());
    com.absorb(&mut ts);
    write_statement(&mut ts, &c, &inputs[..npub]);
    let cons = constraints(&c, &inputs[..npub], &sumcheck, &mut ts).unwrap();
    let quad = quadratic_constraints(&c);
    let ts_after_sumcheck = ts.clone();
    verify(&params, &com, &proof, &mut ts, &cons.linear, &cons.b, &quad).unwrap();

    let mut bad = cons.linear.clone();
    bad[0].k += F::ONE;
    let mut t = ts_after_sumcheck.clone();
    assert!(matches!(
        verify(&params, &com, &proof, &mut t, &bad, &cons.b, &quad),
        Err(LigeroError::DotCheck)
    ));

    let mut rng = SpecLcg::new(seed);
    let pad = sample_pad(&c, &mut rng);
    let w = committed_witness(&inputs[npub..], &pad);
    let sfb = c.subfield_boundary().saturating_sub(npub).min(w.len());
    let (prover, com2) = LigeroProver::commit(&params, &w, sfb, &quad, &mut rng).unwrap();
    assert_eq!(hex::encode(com2.root), hex::encode(root));
    let mut t = ts_after_sumcheck;
    let again = prover.prove(&mut t, &cons.linear, &cons.b, &quad).unwrap();
    assert!(again.to_bytes() == ligero_bytes, "re-proved bytes differ");
}

#[test]
fn sha256_gf2_128_with_subfield_rows() {
    longfellow_testvectors::require!();
    run::<Gf2_128>("sha256", 3, 12345);
}

#[test]
fn ecdsa2_fp256() {
    longfellow_testvectors::require!();
    run::<Fp256>("ecdsa2", 4, 123_456_789);
}
