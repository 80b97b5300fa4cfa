//! Untrusted bytes as a one-circuit proof for Google's `sha256`
//! specification circuit: decode, check the encoding is canonical, verify.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_fuzz::{sha256_verifier, SHA256_LABEL};
use longfellow_transcript::Transcript;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("zk_proof_verify", run);
}

fn run(data: &[u8]) {
    let (v, public) = sha256_verifier();
    let Ok(proof) = v.read_proof(data) else {
        return;
    };
    // The reader accepts exactly the writer's encoding.
    assert_eq!(
        proof.to_bytes(),
        data,
        "decoded proof re-encodes differently"
    );
    let mut t = Transcript::new(SHA256_LABEL);
    proof.commitment.absorb(&mut t);
    let _ = v.verify(&proof, public, &mut t);
}
