//! Times the sumcheck stages on Google's v7 mdoc circuits with their
//! recorded witnesses: `cargo run --release -p longfellow-sumcheck --example
//! mdoc_timing [zkspec-hash]`.
#![allow(clippy::unwrap_used, clippy::print_stdout)]

use std::time::Instant;

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_random::MdocLcg;
use longfellow_sumcheck::{
    constraints, constraints_with_bound_quads, write_statement, LayeredCircuit,
};
use longfellow_sumcheck_prover::reference::Prover;
use longfellow_sumcheck_prover::sample_pad;
use longfellow_transcript::Transcript;

fn run<F: Field>(name: &str, circuit: &longfellow_circuit::Circuit<F>, witness: &[u8]) {
    let inputs: Vec<F> = witness
        .chunks_exact(F::BYTES)
        .map(|c| F::from_bytes(c).unwrap())
        .collect();
    let npub = circuit.num_public_inputs();
    let t0 = Instant::now();
    let prover = Prover::new(circuit).unwrap();
    let t1 = Instant::now();
    let eval = prover.evaluate(&inputs).unwrap();
    let t2 = Instant::now();
    let pad = sample_pad(circuit, &mut MdocLcg::new(1));
    let mut t = Transcript::new(b"timing");
    write_statement(&mut t, circuit, &inputs[..npub]);
    let mut tc = t.clone();
    let out = prover.prove(&eval, &pad, &mut t).unwrap();
    let t3 = Instant::now();
    let c = constraints_with_bound_quads(
        circuit,
        &inputs[..npub],
        &out.proof,
        &out.bound_quads,
        &mut tc,
    )
    .unwrap();
    let t4 = Instant::now();
    let mut tv = Transcript::new(b"timing");
    write_statement(&mut tv, circuit, &inputs[..npub]);
    let cv = constraints(circuit, &inputs[..npub], &out.proof, &mut tv).unwrap();
    let t5 = Instant::now();
    assert_eq!(c, cv);
    println!(
        "{name}: {} layers, {} terms; prepare {:?}, evaluate {:?}, prove {:?}, constraints(prover) {:?}, constraints(verifier) {:?}",
        circuit.num_layers(),
        LayeredCircuit::num_terms(circuit),
        t1 - t0,
        t2 - t1,
        t3 - t2,
        t4 - t3,
        t5 - t4
    );
}

fn main() {
    let hash = std::env::args().nth(1).unwrap_or_else(|| {
        "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121".into()
    });
    let t = Instant::now();
    let pair = longfellow_circuit::load_pair(&longfellow_testvectors::read(&format!(
        "google/mdoc/circuits/{hash}"
    )))
    .unwrap();
    println!("load {:?}", t.elapsed());
    let sig_w = longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_sig_witness.bin"));
    let hash_w =
        longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
    run::<Gf2_128>("hash", &pair.hash, &hash_w);
    run::<Fp256>("sig", &pair.sig, &sig_w);
}
