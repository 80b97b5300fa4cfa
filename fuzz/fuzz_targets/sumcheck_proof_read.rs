//! Untrusted bytes as the sumcheck part of a proof for both specification
//! circuits (GF(2^128) and P-256).
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_circuit::Circuit;
use longfellow_field::Field;
use longfellow_fuzz::{ecdsa2_circuit, sha256_circuit};
use longfellow_sumcheck::SumcheckProof;

/// A decoded proof has the circuit's shape and re-encodes to exactly the
/// bytes it consumed.
fn check<F: Field>(circuit: &Circuit<F>, data: &[u8]) {
    let mut rest = data;
    if let Ok(p) = SumcheckProof::<F>::read(circuit, &mut rest) {
        let used = data.len() - rest.len();
        assert!(p.matches(circuit), "decoded proof has the wrong shape");
        assert_eq!(p.encoded_len(), used);
        let mut out = Vec::new();
        p.write(&mut out);
        assert_eq!(out, &data[..used], "re-encodes differently");
    }
}

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("sumcheck_proof_read", run);
}

fn run(data: &[u8]) {
    check(sha256_circuit(), data);
    check(ecdsa2_circuit(), data);
}
