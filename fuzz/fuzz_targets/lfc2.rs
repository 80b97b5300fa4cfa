//! Raw LFC2 circuits over both mdoc fields.
#![no_main]

use libfuzzer_sys::fuzz_target;
use longfellow_field::{Fp256, Gf2_128};

fuzz_target!(|data: &[u8]| {
    let _ = longfellow_circuit::decode_lfc2::<Fp256>(data);
    let _ = longfellow_circuit::decode_lfc2::<Gf2_128>(data);
});
