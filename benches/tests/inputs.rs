//! The bench inputs are sound: every synthetic request proves and verifies
//! with its circuit (checked on the v7 one-attribute circuit, the one
//! `longfellow circuits fetch` gets by default).

use longfellow_circuit::load_pair;
use longfellow_mdoc::{Verifier, ZkSpec};
use longfellow_mdoc_prover::Prover;
use longfellow_random::OsRng;

#[test]
fn requests_name_the_first_n_attributes() {
    for n in 1..=4 {
        let (request, mdoc) = longfellow_benches::synthetic_request(n).expect("request");
        assert_eq!(request.attributes.len(), n);
        assert!(!mdoc.is_empty());
    }
}

#[test]
fn the_synthetic_request_proves_and_verifies_on_v7_1() {
    longfellow_testvectors::require!();
    let spec = ZkSpec::for_version(7, 1).expect("v7/1");
    let path = longfellow_testvectors::path(&format!(
        "google/mdoc/circuits/{}.lfa2",
        spec.circuit_hash_hex()
    ));
    let pair = load_pair(&std::fs::read(path).expect("read")).expect("load");
    let (request, mdoc) = longfellow_benches::synthetic_request(1).expect("request");
    let proof = Prover::new(&pair)
        .expect("prover")
        .prove(&request, &mdoc, &mut OsRng)
        .expect("prove");
    Verifier::new(&pair)
        .expect("verifier")
        .verify(&request, &proof)
        .expect("verify");
}
