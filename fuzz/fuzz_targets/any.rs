//! Whatever `longfellow circuit inspect` accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = longfellow_circuit::load_any(data);
});
