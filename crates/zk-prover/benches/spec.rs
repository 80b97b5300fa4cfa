//! Prove and verify of the specification's two one-circuit proofs
//! (google/spec: sha256 over GF(2^128), ecdsa2 over P-256), on 1 and 2
//! threads.

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::SpecLcg;
use longfellow_reed_solomon::RsField;
use longfellow_zk::{verify, ZkParams};
use longfellow_zk_prover::prove;

/// Decimal string → field element via its little-endian integer encoding.
fn from_decimal<F: Field>(s: &str) -> Option<F> {
    let mut le = vec![0u8; F::BYTES];
    for ch in s.bytes() {
        let mut carry = u32::from(ch.checked_sub(b'0')?);
        for b in le.iter_mut() {
            let v = u32::from(*b) * 10 + carry;
            *b = v as u8;
            carry = v >> 8;
        }
        if carry != 0 {
            return None;
        }
    }
    F::from_bytes(&le)
}

struct Spec<F: Field> {
    name: &'static str,
    circuit: Circuit<F>,
    inputs: Vec<F>,
    proof: Vec<u8>,
    params: ZkParams,
    seed: u64,
    label: &'static [u8],
}

fn spec<F: RsField>(
    name: &'static str,
    params: ZkParams,
    seed: u64,
    label: &'static [u8],
) -> Spec<F> {
    let read = |ext: &str| longfellow_testvectors::read(&format!("google/spec/{name}_{ext}"));
    let circuit = load_circuit(&read("circuit.lfc2")).expect("spec circuit");
    let json: Vec<String> = serde_json::from_slice(&read("inputs.json")).expect("inputs");
    let inputs = json
        .iter()
        .map(|s| from_decimal(s).expect("decimal input"))
        .collect();
    Spec {
        name,
        circuit,
        inputs,
        proof: read("proof.bin"),
        params,
        seed,
        label,
    }
}

fn bench_spec<F: RsField>(c: &mut Criterion, s: &Spec<F>) {
    let npub = s.circuit.num_public_inputs();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        c.bench_function(&format!("{}/prove/{threads}t", s.name), |b| {
            b.iter(|| {
                pool.install(|| {
                    prove(
                        &s.circuit,
                        s.params,
                        &s.inputs,
                        &mut SpecLcg::new(s.seed),
                        s.label,
                    )
                    .expect("prove")
                })
            })
        });
        c.bench_function(&format!("{}/verify/{threads}t", s.name), |b| {
            b.iter(|| {
                pool.install(|| {
                    verify(&s.circuit, s.params, &s.inputs[..npub], &s.proof, s.label)
                        .expect("verify")
                })
            })
        });
    }
}

fn benches(c: &mut Criterion) {
    let sha = spec::<Gf2_128>(
        "sha256",
        ZkParams {
            rateinv: 3,
            nreq: 16,
            block_enc: 256,
        },
        12345,
        b"sha256_spec_test",
    );
    bench_spec(c, &sha);
    let ecdsa = spec::<Fp256>(
        "ecdsa2",
        ZkParams {
            rateinv: 4,
            nreq: 16,
            block_enc: 256,
        },
        123456789,
        b"ecdsa2_spec_test",
    );
    bench_spec(c, &ecdsa);
}

criterion_group!(spec_proofs, benches);
criterion_main!(spec_proofs);
