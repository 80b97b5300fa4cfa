//! Untrusted bytes as an mdoc proof for the version-7 one-attribute
//! circuits, verified against the request of Google's stored proof.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_fuzz::{mdoc_request, mdoc_verifier};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("mdoc_proof_verify", run);
}

fn run(data: &[u8]) {
    let v = mdoc_verifier();
    if let Ok(p) = v.read_proof(data) {
        assert_eq!(p.to_bytes(), data, "decoded proof re-encodes differently");
    }
    let _ = v.verify(mdoc_request(), data);
}
