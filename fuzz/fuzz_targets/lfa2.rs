//! Uncompressed LFA2 archives (the magic is supplied so every input reaches
//! the archive parser).
#![no_main]

use libfuzzer_sys::fuzz_target;
use longfellow_circuit::{load_pair_with, LoadOptions};

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"LFA2".to_vec();
    bytes.extend_from_slice(data);
    let _ = load_pair_with(&bytes, LoadOptions { use_catalog: false });
});
