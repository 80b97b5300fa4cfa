//! Untrusted bytes as an mdoc proof for the version-7 one-attribute
//! circuits, verified against the request of Google's stored proof.
#![no_main]

use libfuzzer_sys::fuzz_target;
use longfellow_fuzz::{mdoc_request, mdoc_verifier};

fuzz_target!(|data: &[u8]| {
    let v = mdoc_verifier();
    if let Ok(p) = v.read_proof(data) {
        assert_eq!(p.to_bytes(), data, "decoded proof re-encodes differently");
    }
    let _ = v.verify(mdoc_request(), data);
});
