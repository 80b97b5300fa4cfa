//! Byte-exact agreement with Google's C++ reference implementation.
//!
//! The expected digests were produced by a small C++ driver, kept outside
//! this repository because it compiles the reference's code, which
//! runs the reference's own `ReedSolomon` (binomial convolution with the
//! `Fp256²` FFT, root `kRootX/kRootY` of order 2^31) and `LCH14ReedSolomon`
//! on the rows generated below, and hashes all `n` output elements
//! (canonical little-endian encodings, concatenated) with SHA-256.
//!
//! Inputs: one 64-bit LCG, `s ← s·6364136223846793005 + 1442695040888963407`
//! from `s = 0x1234567`, one byte `s >> 56` per step, drawn in the order of
//! the table below (P-256 sizes first). A P-256 element is 32 such bytes
//! (little-endian) with the top bit of the last one cleared, so it is < p;
//! a GF(2^128) element is 16 bytes.

use longfellow_field::{Fp256, Gf2_128};
use longfellow_reed_solomon::{RsEncoder, RsField};
use longfellow_test_rng::Lcg64;
use sha2::{Digest, Sha256};

fn check<F: RsField>(lcg: &mut Lcg64, k: usize, n: usize, digest: &str) {
    let mut row = vec![F::ZERO; n];
    for x in &mut row[..k] {
        let mut bytes: Vec<u8> = (0..F::BYTES).map(|_| lcg.byte()).collect();
        if F::BYTES == 32 {
            bytes[31] &= 0x7f;
        }
        *x = F::from_bytes(&bytes).expect("below the modulus");
    }
    F::rs_encoder(k, n).expect("valid sizes").extend(&mut row);
    let mut h = Sha256::new();
    for x in &row {
        h.update(x.to_repr().as_ref());
    }
    assert_eq!(hex::encode(h.finalize()), digest, "k = {k}, n = {n}");
}

#[test]
fn matches_cpp_reference() {
    let mut lcg = Lcg64::mmix(0x1234567);
    let p256: &[(usize, usize, &str)] = &[
        (
            455,
            4096,
            "0b2cfbd03e82cf7eaa4f52d05693330c531a3237303633aa620b100fb2ddcff6",
        ),
        (
            909,
            4096,
            "2671d37cd337648bed4fd387f140f884afb5e2681583c92cb29b13685991e0bb",
        ),
        (
            455,
            909,
            "710adbb547cc752f6747e0e2dfcb3819d99c52bae99073ee95deb1d7114d66ed",
        ),
        (
            1,
            5,
            "ca3f95d987216f82c31bd19d053aece1c347ec250619022b445f0b60b99377c3",
        ),
        (
            7,
            9,
            "5388b1a3d95a2a33086b7d1c23a0c831224e3c3de63f130d6bd161d2850446ed",
        ),
    ];
    for &(k, n, d) in p256 {
        check::<Fp256>(&mut lcg, k, n, d);
    }
    let gf: &[(usize, usize, &str)] = &[
        (
            461,
            4151,
            "e3c594240dfff829e5653b6073f1742c134beb088f780ee53b478c211c0fbb89",
        ),
        (
            921,
            4151,
            "b6428d77ee36c3a56755cb13b71c76f9899df85f2dd6823b475715b572601846",
        ),
        (
            461,
            921,
            "e56d977e384cdceb95fe36e6306a849df634d1643fd89919fca6577de49c18b7",
        ),
        (
            1,
            5,
            "06e545e1a6e47df29bbda45614d21ec1a131a572079c9428b6c02ebcd9daeb0b",
        ),
        (
            7,
            9,
            "5aa47e270423e634ad2895ca6bdf491e1b757c963e5bd750af0c34b21bf34051",
        ),
    ];
    for &(k, n, d) in gf {
        check::<Gf2_128>(&mut lcg, k, n, d);
    }
}
