//! Whatever `longfellow circuit inspect` accepts.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("any", run);
}

fn run(data: &[u8]) {
    let _ = longfellow_circuit::load_any(data);
}
