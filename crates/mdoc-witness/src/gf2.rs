//! The little GF(2^128) arithmetic the witness needs (MAC tags and the
//! subfield encoding of packed SHA-256 words), on plain `u128` values.
//!
//! Element convention (shared with `longfellow_field::Gf2_128`): bit i of the
//! `u128` is the coefficient of x^i, modulo x^128 + x^7 + x^2 + x + 1, and the
//! wire encoding is the 16-byte little-endian form of that `u128`.

/// Generator of the GF(2^16) subfield used by Longfellow:
/// x^((2^128 - 1) / (2^16 - 1)). Its first sixteen powers form the subfield
/// basis behind `inj`.
pub const SUBFIELD_GENERATOR: u128 = 0x5c59_7187_7501_d4b8_f187_1e01_b64f_da4c;

/// Product in GF(2^128): carry-less multiply, then fold the high half back
/// with x^128 = x^7 + x^2 + x + 1. Not constant-time; the inputs are the
/// prover's own values.
pub fn mul(a: u128, b: u128) -> u128 {
    let (mut lo, mut hi) = (0u128, 0u128);
    for i in 0..128 {
        if (b >> i) & 1 == 1 {
            lo ^= a << i;
            if i > 0 {
                hi ^= a >> (128 - i);
            }
        }
    }
    // Fold hi·x^128 = hi·(x^7 + x^2 + x + 1); the bits shifted past 2^128 by
    // the fold (at most 7 of them) are folded once more.
    let spill = (hi >> 121) ^ (hi >> 126) ^ (hi >> 127);
    lo ^ hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7) ^ spill ^ (spill << 1) ^ (spill << 2) ^ (spill << 7)
}

/// a^e by square-and-multiply.
pub fn pow(a: u128, mut e: u128) -> u128 {
    let (mut acc, mut base) = (1u128, a);
    while e != 0 {
        if e & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    acc
}

/// The sixteen subfield basis elements g^0 .. g^15.
pub fn subfield_basis() -> [u128; 16] {
    let mut basis = [1u128; 16];
    for i in 1..16 {
        basis[i] = mul(basis[i - 1], SUBFIELD_GENERATOR);
    }
    basis
}

/// inj(j) = Σ bit_i(j)·β_i: the j-th evaluation point of the subfield.
pub fn inject(basis: &[u128; 16], j: u16) -> u128 {
    basis
        .iter()
        .enumerate()
        .filter(|(i, _)| (j >> i) & 1 == 1)
        .fold(0, |acc, (_, b)| acc ^ b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn generator_is_the_documented_power_of_x() {
        // (2^128 - 1) / (2^16 - 1) = Σ_{k<8} 2^(16k).
        let e = (0..8).fold(0u128, |acc, k| acc | 1u128 << (16 * k));
        assert_eq!(pow(2, e), SUBFIELD_GENERATOR);
        // g has order dividing 2^16 - 1 and not 1.
        assert_eq!(pow(SUBFIELD_GENERATOR, 0xffff), 1);
        assert_ne!(SUBFIELD_GENERATOR, 1);
    }

    #[test]
    fn x_to_the_128_reduces() {
        let x127 = 1u128 << 127;
        assert_eq!(mul(x127, 2), 0x87);
        // x^127 · x^127 = x^254 = x^126 · x^128: check against repeated doubling.
        let mut v = x127;
        for _ in 0..127 {
            v = mul(v, 2);
        }
        assert_eq!(mul(x127, x127), v);
    }

    #[test]
    fn inject_matches_the_field_crates_evaluation_points() {
        use longfellow_field::{Field, Gf2_128};
        let basis = subfield_basis();
        for j in (0u16..=0xffff).step_by(97).chain([1, 2, 15, 0xffff]) {
            let theirs = Gf2_128::from_index(u64::from(j)).to_repr();
            assert_eq!(inject(&basis, j).to_le_bytes(), theirs, "j = {j}");
        }
    }

    proptest! {
        #[test]
        fn mul_agrees_with_the_field_crate(a: u128, b: u128) {
            use longfellow_field::{Field, Gf2_128};
            let fa = Gf2_128::from_bytes(&a.to_le_bytes()).expect("any 16 bytes");
            let fb = Gf2_128::from_bytes(&b.to_le_bytes()).expect("any 16 bytes");
            prop_assert_eq!((fa * fb).to_repr(), mul(a, b).to_le_bytes());
        }

        #[test]
        fn mul_commutes_and_distributes(a: u128, b: u128, c: u128) {
            prop_assert_eq!(mul(a, b), mul(b, a));
            prop_assert_eq!(mul(a, b ^ c), mul(a, b) ^ mul(a, c));
            prop_assert_eq!(mul(mul(a, b), c), mul(a, mul(b, c)));
            prop_assert_eq!(mul(a, 1), a);
        }
    }
}
