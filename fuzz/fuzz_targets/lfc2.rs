//! Raw LFC2 circuits over both mdoc fields.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_field::{Fp256, Gf2_128};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("lfc2", run);
}

fn run(data: &[u8]) {
    let _ = longfellow_circuit::decode_lfc2::<Fp256>(data);
    let _ = longfellow_circuit::decode_lfc2::<Gf2_128>(data);
}
