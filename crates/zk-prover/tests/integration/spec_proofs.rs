//! Google's specification proofs (docs/specs/rust testdata): whole
//! one-circuit proofs reproduced byte for byte from the circuit, the inputs
//! and the recorded generator, then verified; tampering is rejected.
#![allow(clippy::unwrap_used)]

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::SpecLcg;
use longfellow_reed_solomon::RsField;
use longfellow_zk::{verify, ZkParams};
use longfellow_zk_prover::prove;

/// Decimal string → field element via its little-endian integer encoding.
fn from_decimal<F: Field>(s: &str) -> F {
    let mut le = vec![0u8; F::BYTES];
    for ch in s.bytes() {
        assert!(ch.is_ascii_digit(), "not decimal: {s}");
        let mut carry = u32::from(ch - b'0');
        for b in le.iter_mut() {
            let v = u32::from(*b) * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        assert_eq!(carry, 0, "too large: {s}");
    }
    F::from_bytes(&le).unwrap()
}

fn run<F: RsField>(name: &str, params: ZkParams, seed: u64, label: &str) {
    let read = |ext: &str| longfellow_testvectors::read(&format!("google/spec/{name}_{ext}"));
    let circuit: Circuit<F> = load_circuit(&read("circuit.lfc2")).unwrap();
    let json: Vec<String> = serde_json::from_slice(&read("inputs.json")).unwrap();
    let inputs: Vec<F> = json.iter().map(|s| from_decimal(s)).collect();
    let want = read("proof.bin");
    let npub = circuit.num_public_inputs();

    let proof = prove(
        &circuit,
        params,
        &inputs,
        &mut SpecLcg::new(seed),
        label.as_bytes(),
    )
    .unwrap();
    let got = proof.to_bytes();
    assert_eq!(got.len(), want.len());
    assert!(got == want, "{name}: proof bytes differ");

    verify(&circuit, params, &inputs[..npub], &want, label.as_bytes()).unwrap();

    // Flipping a bit of the sumcheck part, or using another label or
    // other public inputs, must fail.
    let mut bad = want.clone();
    bad[40] ^= 1;
    assert!(verify(&circuit, params, &inputs[..npub], &bad, label.as_bytes()).is_err());
    assert!(verify(&circuit, params, &inputs[..npub], &want, b"other label").is_err());
    if npub > 0 {
        let mut public = inputs[..npub].to_vec();
        public[npub - 1] += F::ONE;
        assert!(verify(&circuit, params, &public, &want, label.as_bytes()).is_err());
    }
    // A proof must be consumed exactly.
    let mut long = want.clone();
    long.push(0);
    assert!(verify(&circuit, params, &inputs[..npub], &long, label.as_bytes()).is_err());
    assert!(verify(
        &circuit,
        params,
        &inputs[..npub],
        &want[..want.len() - 1],
        label.as_bytes()
    )
    .is_err());
}

#[test]
fn sha256_gf2_128() {
    longfellow_testvectors::require!();
    let params = ZkParams {
        rateinv: 3,
        nreq: 16,
        block_enc: 256,
    };
    run::<Gf2_128>("sha256", params, 12345, "sha256_spec_test");
}

#[test]
fn ecdsa2_fp256() {
    longfellow_testvectors::require!();
    let params = ZkParams {
        rateinv: 4,
        nreq: 16,
        block_enc: 256,
    };
    run::<Fp256>("ecdsa2", params, 123456789, "ecdsa2_spec_test");
}
