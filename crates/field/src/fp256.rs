//! The P-256 base field, used by the signature circuit.

use crate::limbs::{adc, mac};
use crate::prime::prime_field;

prime_field!(
    /// An element of GF(p) for the P-256 base prime
    /// p = 2^256 − 2^224 + 2^192 + 2^96 − 1 (circuit field ID 1).
    Fp256,
    limbs = 4,
    modulus = P,
    field_id = 1
);

const P: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

impl Fp256 {
    /// `self^(p−2)` (the inverse; zero maps to zero) by a fixed addition
    /// chain: 255 squarings and 12 multiplications, independent of the value.
    ///
    /// p − 2 = ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff
    /// fffffffd (hex, by 32-bit words). With xₖ = self^(2^k − 1), each step
    /// `r ← r^(2^n)·xₖ` appends n bits to the exponent, ending in k ones.
    fn fermat_inverse(&self) -> Self {
        let x1 = *self;
        let x2 = x1.square_times(1) * x1;
        let x3 = x2.square_times(1) * x1;
        let x6 = x3.square_times(3) * x3;
        let x12 = x6.square_times(6) * x6;
        let x15 = x12.square_times(3) * x3;
        let x30 = x15.square_times(15) * x15;
        let x32 = x30.square_times(2) * x2;
        // ffffffff | 00000001 | 00000000×3 ffffffff | ffffffff | fffffffd
        let r = x32;
        let r = r.square_times(32) * x1;
        let r = r.square_times(128) * x32;
        let r = r.square_times(32) * x32;
        let r = r.square_times(30) * x30;
        r.square_times(2) * x1
    }

    /// Montgomery product specialised to the shape of p (constant time).
    ///
    /// The 16 word products are independent (good for the pipeline); then
    /// REDC runs on the low half only, and the high half (< p, as a·b < p²)
    /// is added with one modular addition: (lo + M·p)/2^256 ≤ p.
    ///
    /// Because p ≡ −1 mod 2^64, the Montgomery factor −p⁻¹ mod 2^64 is 1 and
    /// each reduction step uses m = t₀ directly. The low two limbs of p form
    /// 2^96 − 1, so adding m·p cancels t₀ and adds m·2^96, i.e. `m << 32`
    /// into limb 1 and `m >> 32` into limb 2; limb 2 of p is zero; only
    /// m·p₃ needs a real multiplication: 16 + 4 multiplications in all
    /// instead of 32.
    #[inline(always)]
    fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        // 512-bit product, row by row.
        let mut w = [0u64; 8];
        for (i, &ai) in a.iter().enumerate() {
            let mut carry = 0;
            for (j, &bj) in b.iter().enumerate() {
                let (lo, hi) = mac(w[i + j], ai, bj, carry);
                w[i + j] = lo;
                carry = hi;
            }
            w[i + 4] = carry;
        }
        // (low + M·p)/2^256 ≤ p, one word of M at a time with m = t₀.
        let mut t = [w[0], w[1], w[2], w[3]];
        for _ in 0..4 {
            let m = t[0];
            let (r0, c) = adc(t[1], m << 32, 0);
            let (r1, c) = adc(t[2], m >> 32, c);
            let mp3 = (m as u128) * (P[3] as u128);
            let (r2, c) = adc(t[3], mp3 as u64, c);
            let r3 = ((mp3 >> 64) as u64) + c;
            t = [r0, r1, r2, r3];
        }
        Self::MODULUS.add(&t, &[w[4], w[5], w[6], w[7]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn addition_chain_matches_square_and_multiply() {
        let mut s = 0x0f1e_2d3c_4b5a_6978;
        for _ in 0..200 {
            let a = Fp256([0; 4].map(|_: u64| xorshift(&mut s)));
            if Fp256::MODULUS.is_reduced(&a.0) == 0 {
                continue;
            }
            assert_eq!(a.fermat_inverse(), a.pow_p_minus_2());
        }
        assert_eq!(Fp256::default().fermat_inverse(), Fp256::default());
    }

    /// The specialised product equals the generic CIOS product on reduced
    /// inputs, including the extremes.
    #[test]
    fn special_mul_matches_generic_cios() {
        let pm1 = [P[0] - 1, P[1], P[2], P[3]];
        let mut cases = vec![([0u64; 4], pm1), (pm1, pm1), (Fp256::MODULUS.r, pm1)];
        let mut s = 0x1357_9bdf_2468_ace0;
        while cases.len() < 50_000 {
            let a = [0; 4].map(|_: u64| xorshift(&mut s));
            let b = [0; 4].map(|_: u64| xorshift(&mut s));
            if Fp256::MODULUS.is_reduced(&a) == 1 && Fp256::MODULUS.is_reduced(&b) == 1 {
                cases.push((a, b));
            }
        }
        for (a, b) in cases {
            assert_eq!(
                Fp256::mont_mul(&a, &b),
                Fp256::MODULUS.mul(&a, &b),
                "{a:x?} {b:x?}"
            );
        }
    }
}
