//! ISRG's one-circuit vectors end to end: with every random draw equal to
//! `02 00 …` (pad = 2, nonces `02 00 …`), transcript "test" with the legacy
//! array tag, the Ligero commitment root and the Ligero proof must match the
//! recorded ones, and the proof must verify.
#![allow(clippy::unwrap_used)]

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Fp128, Gf2_128};
use longfellow_random::ConstantDrawRng;
use longfellow_reed_solomon::RsField;
use longfellow_transcript::Transcript;
use longfellow_zk::{ZkParams, ZkVerifier};
use longfellow_zk_prover::ZkProver;
use serde_json::Value;

fn run<F: RsField>(name: &str) {
    let read = |ext: &str| longfellow_testvectors::read(&format!("isrg/one-circuit/{name}.{ext}"));
    let circuit: Circuit<F> = load_circuit(&read("circuit.zst")).unwrap();
    let json: Value = serde_json::from_slice(&read("json")).unwrap();
    let lp = &json["ligero_parameters"];
    let params = ZkParams {
        rateinv: lp["rate"].as_u64().unwrap() as usize,
        nreq: lp["nreq"].as_u64().unwrap() as usize,
        block_enc: lp["num_columns"].as_u64().unwrap() as usize,
    };
    let mut inputs = vec![F::ONE];
    for s in json["valid_inputs"].as_array().unwrap() {
        inputs.push(F::from_bytes(&hex::decode(s.as_str().unwrap()).unwrap()).unwrap());
    }
    let npub = circuit.num_public_inputs();

    let prover = ZkProver::new(&circuit, params).unwrap();
    assert_eq!(
        prover.ligero_params().block,
        lp["block_size"].as_u64().unwrap() as usize
    );
    let commit = prover
        .commit(&inputs, &mut ConstantDrawRng::isrg())
        .unwrap();
    assert_eq!(
        hex::encode(commit.commitment.root),
        json["ligero_commitment"].as_str().unwrap()
    );
    let mut t = Transcript::new_with_legacy_array_tag(b"test");
    commit.commitment.absorb(&mut t);
    let proof = prover.prove(commit, &inputs, &mut t).unwrap();

    let mut sc = Vec::new();
    proof.sumcheck.write(&mut sc);
    assert!(sc == read("sumcheck-proof"), "sumcheck part differs");
    let lig = proof.ligero.to_bytes();
    let want = read("ligero-proof");
    assert_eq!(lig.len(), want.len());
    assert!(lig == want, "Ligero part differs");

    let verifier = ZkVerifier::new(&circuit, params).unwrap();
    let mut t = Transcript::new_with_legacy_array_tag(b"test");
    proof.commitment.absorb(&mut t);
    verifier.verify(&proof, &inputs[..npub], &mut t).unwrap();
}

#[test]
fn rfc_fp128() {
    longfellow_testvectors::require!();
    run::<Fp128>("longfellow-rfc-1-87474f308020535e57a778a82394a14106f8be5b");
}

#[test]
fn mac_gf2_128() {
    longfellow_testvectors::require!();
    run::<Gf2_128>("longfellow-mac-circuit-66aeaf09a9cc98e36873e868307ac07279d5f7e0-1");
}
