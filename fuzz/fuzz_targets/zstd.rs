//! zstd-framed circuits and pairs (extensionless pair files, `.lfa1`,
//! compressed `.lfa2`, `.circuit.zst`); the frame magic is supplied.
#![no_main]

use libfuzzer_sys::fuzz_target;
use longfellow_field::Gf2_128;

fuzz_target!(|data: &[u8]| {
    let mut bytes = vec![0x28, 0xb5, 0x2f, 0xfd];
    bytes.extend_from_slice(data);
    let _ = longfellow_circuit::load_pair(&bytes);
    let _ = longfellow_circuit::load_circuit::<Gf2_128>(&bytes);
});
