//! ISRG's one-circuit vectors (`isrg/one-circuit/*.ligero-proof`): the
//! Ligero part of a one-circuit proof over Fp128 (rfc-1) and GF(2^128)
//! (mac). The constraints come from replaying the recorded sumcheck proof
//! (transcript init "test", legacy array tag 01, root, statement); the
//! prover's randomness answers every request with `02 00 …`.
//!
//! The stored proofs must verify, and re-proving from the inputs and that
//! generator must reproduce the recorded root and every proof byte.
#![allow(clippy::unwrap_used)]

use longfellow_field::{Fp128, Gf2_128};
use longfellow_ligero::{verify, LigeroCommitment, LigeroError, LigeroParams, LigeroProof};
use longfellow_ligero_prover::LigeroProver;
use longfellow_random::ConstantDrawRng;
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{
    committed_witness, constraints, quadratic_constraints, witness_len, write_statement,
    LayeredCircuit, SumcheckProof,
};
use longfellow_sumcheck_prover::sample_pad;
use longfellow_transcript::Transcript;
use serde_json::Value;

const DIR: &str = "isrg/one-circuit/";
const RFC: &str = "longfellow-rfc-1-87474f308020535e57a778a82394a14106f8be5b";
const MAC: &str = "longfellow-mac-circuit-66aeaf09a9cc98e36873e868307ac07279d5f7e0-1";

fn run<F: RsField>(name: &str)
where
    F::Encoder: Sync,
{
    let read = |ext: &str| longfellow_testvectors::read(&format!("{DIR}{name}.{ext}"));
    let c = longfellow_circuit::load_circuit::<F>(&read("circuit.zst")).unwrap();
    let json: Value = serde_json::from_slice(&read("json")).unwrap();
    // The JSON omits the constant-one input 0.
    let mut inputs = vec![F::ONE];
    for s in json["valid_inputs"].as_array().unwrap() {
        inputs.push(F::from_bytes(&hex::decode(s.as_str().unwrap()).unwrap()).unwrap());
    }
    let root: [u8; 32] = hex::decode(json["ligero_commitment"].as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    let com = LigeroCommitment { root };
    let lp = &json["ligero_parameters"];
    let g = |k: &str| lp[k].as_u64().unwrap() as usize;
    let npub = c.num_public_inputs();
    let params = LigeroParams::new(
        witness_len(&c),
        c.num_layers(),
        g("rate"),
        g("nreq"),
        g("num_columns"),
    )
    .unwrap();
    // ISRG records the derived layout too: an independent check of ours.
    assert_eq!(params.block, g("block_size"));
    assert_eq!(params.w, g("witnesses_per_row"));

    let mut ts = Transcript::new_with_legacy_array_tag(b"test");
    com.absorb(&mut ts);
    write_statement(&mut ts, &c, &inputs[..npub]);
    let sumcheck = SumcheckProof::<F>::read(&c, &mut read("sumcheck-proof").as_slice()).unwrap();
    let cons = constraints(&c, &inputs[..npub], &sumcheck, &mut ts).unwrap();
    let quad = quadratic_constraints(&c);
    let ts_after_sumcheck = ts.clone();

    let bytes = read("ligero-proof");
    let proof = LigeroProof::<F>::from_bytes(&params, &bytes).unwrap();
    assert!(proof.to_bytes() == bytes);
    verify(&params, &com, &proof, &mut ts, &cons.linear, &cons.b, &quad).unwrap();

    // A wrong right-hand side is caught.
    let mut bad_b = cons.b.clone();
    bad_b[0] += F::ONE;
    let mut t = ts_after_sumcheck.clone();
    assert!(matches!(
        verify(&params, &com, &proof, &mut t, &cons.linear, &bad_b, &quad),
        Err(LigeroError::LinearCheck)
    ));

    // Re-prove: pad and tableau from the constant generator; the Ligero
    // subfield boundary is the circuit's minus the public inputs.
    let pad = sample_pad(&c, &mut ConstantDrawRng::isrg());
    let w = committed_witness(&inputs[npub..], &pad);
    let sfb = c.subfield_boundary().saturating_sub(npub).min(w.len());
    let (prover, com2) =
        LigeroProver::commit(&params, &w, sfb, &quad, &mut ConstantDrawRng::isrg()).unwrap();
    assert_eq!(hex::encode(com2.root), hex::encode(root));
    let mut t = ts_after_sumcheck;
    let again = prover.prove(&mut t, &cons.linear, &cons.b, &quad).unwrap();
    assert!(again.to_bytes() == bytes, "re-proved bytes differ");
}

#[test]
fn rfc_1_fp128() {
    longfellow_testvectors::require!();
    run::<Fp128>(RFC);
}

#[test]
fn mac_gf2_128() {
    longfellow_testvectors::require!();
    run::<Gf2_128>(MAC);
}
