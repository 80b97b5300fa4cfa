//! Structure-aware circuits (`src/structured.rs`): valid headers and layer
//! dimensions, hostile tables — the inputs that reached the LFC1 hashing
//! and LFC2 segment-table bombs. Run with a low `-rss_limit_mb`: decoding
//! must stay within the per-circuit table budget.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_circuit::{decode_lfc1, decode_lfc2, Field};
use longfellow_field::{Fp256, Gf2_128};
use longfellow_fuzz::structured::{circuit, Choices};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("circuit_structured", run);
}

fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut c = Choices::new(rest);
    let lfc1 = mode & 1 == 1;
    let bytes = if mode & 2 == 0 {
        circuit(&mut c, Gf2_128::FIELD_ID, Gf2_128::BYTES, lfc1)
    } else {
        circuit(&mut c, Fp256::FIELD_ID, Fp256::BYTES, lfc1)
    };
    match (lfc1, mode & 2 == 0) {
        (true, true) => drop(decode_lfc1::<Gf2_128>(&bytes)),
        (true, false) => drop(decode_lfc1::<Fp256>(&bytes)),
        (false, true) => drop(decode_lfc2::<Gf2_128>(&bytes)),
        (false, false) => drop(decode_lfc2::<Fp256>(&bytes)),
    }
}
