//! Untrusted bytes as the Ligero part of a proof, read with the Ligero
//! parameters of both specification proofs (GF(2^128) and P-256).
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_field::Field;
use longfellow_fuzz::{ecdsa2_circuit, sha256_circuit, ECDSA2_PARAMS, SHA256_PARAMS};
use longfellow_ligero::{LigeroParams, LigeroProof};
use std::sync::OnceLock;

/// Whatever `read` accepts must be exactly what `write` produces, and
/// `from_bytes` must agree with `read` on trailing bytes.
fn check<F: Field>(params: &LigeroParams, data: &[u8]) {
    let mut rest = data;
    if let Ok(p) = LigeroProof::<F>::read(params, &mut rest) {
        let used = data.len() - rest.len();
        assert_eq!(p.to_bytes(), &data[..used], "re-encodes differently");
        assert_eq!(
            LigeroProof::<F>::from_bytes(params, data).is_ok(),
            rest.is_empty()
        );
    } else {
        assert!(LigeroProof::<F>::from_bytes(params, data).is_err());
    }
}

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("ligero_proof_read", run);
}

fn run(data: &[u8]) {
    static PARAMS: OnceLock<(LigeroParams, LigeroParams)> = OnceLock::new();
    let (sha, ecdsa) = PARAMS.get_or_init(|| {
        (
            SHA256_PARAMS
                .ligero(sha256_circuit())
                .expect("sha256 params"),
            ECDSA2_PARAMS
                .ligero(ecdsa2_circuit())
                .expect("ecdsa2 params"),
        )
    });
    check::<longfellow_field::Gf2_128>(sha, data);
    check::<longfellow_field::Fp256>(ecdsa, data);
}
