//! Uncompressed LFA2 archives (the magic is supplied so every input reaches
//! the archive parser).
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_circuit::{load_pair_with, LoadOptions};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("lfa2", run);
}

fn run(data: &[u8]) {
    let mut bytes = b"LFA2".to_vec();
    bytes.extend_from_slice(data);
    let _ = load_pair_with(&bytes, LoadOptions { use_catalog: false });
}
