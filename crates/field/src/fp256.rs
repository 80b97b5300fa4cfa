//! The P-256 base field, used by the signature circuit.

use crate::limbs::{adc, mac, select_n, sub_n};
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
    /// Because p ≡ −1 mod 2^64, the Montgomery factor −p⁻¹ mod 2^64 is 1 and
    /// each reduction step uses m = t₀ directly. The low two limbs of p form
    /// 2^96 − 1, so adding m·p cancels t₀ and adds m·2^96, i.e. `m << 32`
    /// into limb 1 and `m >> 32` into limb 2; limb 2 of p is zero; only
    /// m·p₃ needs a real multiplication. That is 4 + 1 multiplications per
    /// word of `b` instead of 4 + 4.
    #[inline(always)]
    fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        let [mut t0, mut t1, mut t2, mut t3] = [0u64; 4];
        let mut t4 = 0u64;
        for &bi in b {
            // t += a·bᵢ  (t < 2p before, so t + a·bᵢ < 2^321).
            let (s0, c) = mac(t0, a[0], bi, 0);
            let (s1, c) = mac(t1, a[1], bi, c);
            let (s2, c) = mac(t2, a[2], bi, c);
            let (s3, c) = mac(t3, a[3], bi, c);
            let (s4, s5) = adc(t4, c, 0);
            // t = (t + m·p) / 2^64 with m = s0.
            let m = s0;
            let (r0, c) = adc(s1, m << 32, 0);
            let (r1, c) = adc(s2, m >> 32, c);
            let mp3 = (m as u128) * (P[3] as u128);
            let (r2, c) = adc(s3, mp3 as u64, c);
            let (r3, c) = adc(s4, (mp3 >> 64) as u64, c);
            t0 = r0;
            t1 = r1;
            t2 = r2;
            t3 = r3;
            t4 = s5 + c;
        }
        let t = [t0, t1, t2, t3];
        let (diff, borrow) = sub_n(&t, &P);
        let keep_t = (borrow & (t4 ^ 1)).wrapping_neg();
        select_n(&diff, &t, keep_t)
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
