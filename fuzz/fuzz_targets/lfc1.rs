//! Raw LFC1 circuits over both mdoc fields.
#![no_main]

use libfuzzer_sys::fuzz_target;
use longfellow_field::{Fp256, Gf2_128};

fuzz_target!(|data: &[u8]| {
    let _ = longfellow_circuit::decode_lfc1::<Fp256>(data);
    let _ = longfellow_circuit::decode_lfc1::<Gf2_128>(data);
});
