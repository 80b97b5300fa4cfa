//! zstd-framed circuits and pairs (extensionless pair files, `.lfa1`,
//! compressed `.lfa2`, `.circuit.zst`); the frame magic is supplied.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_field::Gf2_128;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("zstd", run);
}

fn run(data: &[u8]) {
    let mut bytes = vec![0x28, 0xb5, 0x2f, 0xfd];
    bytes.extend_from_slice(data);
    let _ = longfellow_circuit::load_pair(&bytes);
    let _ = longfellow_circuit::load_circuit::<Gf2_128>(&bytes);
}
