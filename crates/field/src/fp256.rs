//! The P-256 base field, used by the signature circuit.

use crate::prime::prime_field;

prime_field!(
    /// An element of GF(p) for the P-256 base prime
    /// p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (circuit field ID 1).
    Fp256,
    limbs = 4,
    modulus = [
        0xffff_ffff_ffff_ffff,
        0x0000_0000_ffff_ffff,
        0x0000_0000_0000_0000,
        0xffff_ffff_0000_0001,
    ],
    field_id = 1
);

impl Fp256 {
    #[inline(always)]
    fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        Self::MODULUS.mul(a, b)
    }
}
