//! Multi-limb integer helpers and constant-time Montgomery arithmetic over
//! `N` 64-bit little-endian limbs, shared by every prime field.
//!
//! The `const fn`s run at compile time to derive the Montgomery constants
//! from the modulus alone; the runtime functions avoid secret-dependent
//! branches and memory indices (selections use all-ones/all-zero masks).

/// `a + b + carry`, returning (sum, carry-out).
#[inline(always)]
pub(crate) const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// `a − b − borrow` (borrow ∈ {0, 1}), returning (difference, borrow-out).
#[inline(always)]
pub(crate) const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, (t >> 127) as u64)
}

/// `acc + a·b + carry`, returning (low word, high word); never overflows.
#[inline(always)]
pub(crate) const fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = acc as u128 + mul_wide(a, b) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// The full product `a·b`. One instruction on 64-bit targets; on 32-bit
/// ones (wasm32, 32-bit ARM) a `u128` product is a call to a generic
/// library routine, so it is built from four 32×32 → 64-bit products
/// instead (branch-free either way; the choice is made at compile time).
#[inline(always)]
pub(crate) const fn mul_wide(a: u64, b: u64) -> u128 {
    if cfg!(target_pointer_width = "64") {
        (a as u128) * (b as u128)
    } else {
        mul_wide_halves(a, b)
    }
}

/// `a·b` from 32-bit halves: (a₁2³² + a₀)(b₁2³² + b₀).
#[inline(always)]
pub(crate) const fn mul_wide_halves(a: u64, b: u64) -> u128 {
    const LOW: u64 = 0xffff_ffff;
    let (a0, a1) = (a & LOW, a >> 32);
    let (b0, b1) = (b & LOW, b >> 32);
    let (ll, lh, hl, hh) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // The middle column: three terms below 2^32 each, so no overflow.
    let mid = (ll >> 32) + (lh & LOW) + (hl & LOW);
    let lo = (ll & LOW) | (mid << 32);
    let hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    ((hi as u128) << 64) | lo as u128
}

/// `a − b` over N limbs with the final borrow.
#[inline(always)]
pub(crate) const fn sub_n<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut borrow = 0;
    let mut i = 0;
    while i < N {
        let (d, br) = sbb(a[i], b[i], borrow);
        out[i] = d;
        borrow = br;
        i += 1;
    }
    (out, borrow)
}

/// `a + b` over N limbs with the final carry.
#[inline(always)]
pub(crate) const fn add_n<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut carry = 0;
    let mut i = 0;
    while i < N {
        let (s, c) = adc(a[i], b[i], carry);
        out[i] = s;
        carry = c;
        i += 1;
    }
    (out, carry)
}

/// Picks `b` where `mask` is all ones and `a` where it is zero.
#[inline(always)]
pub(crate) fn select_n<const N: usize>(a: &[u64; N], b: &[u64; N], mask: u64) -> [u64; N] {
    let mut out = [0u64; N];
    for i in 0..N {
        out[i] = a[i] ^ ((a[i] ^ b[i]) & mask);
    }
    out
}

/// A prime modulus with its Montgomery constants (R = 2^(64·N)).
#[derive(Debug)]
pub(crate) struct Modulus<const N: usize> {
    /// The prime, little-endian limbs.
    pub p: [u64; N],
    /// `−p⁻¹ mod 2^64`.
    pub inv: u64,
    /// `R mod p`: the Montgomery form of one.
    pub r: [u64; N],
    /// `R² mod p`: converts into Montgomery form with one multiplication.
    pub r2: [u64; N],
    /// `p − 2`: the Fermat inversion exponent.
    pub p_minus_2: [u64; N],
}

impl<const N: usize> Modulus<N> {
    /// Derives all constants from an odd modulus `p` whose top limb is non-zero.
    pub const fn new(p: [u64; N]) -> Self {
        assert!(p[0] & 1 == 1, "modulus must be odd");
        assert!(p[N - 1] != 0, "modulus must fill its top limb");
        // Newton iteration for p⁻¹ mod 2^64: each step doubles the correct bits.
        let mut x: u64 = 1;
        let mut i = 0;
        while i < 6 {
            x = x.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(x)));
            i += 1;
        }
        let inv = x.wrapping_neg();
        // R mod p and R² mod p by repeated modular doubling of 1.
        let mut r = [0u64; N];
        r[0] = 1;
        let mut k = 0;
        while k < 64 * N {
            r = double_mod(&r, &p);
            k += 1;
        }
        let mut r2 = r;
        let mut k = 0;
        while k < 64 * N {
            r2 = double_mod(&r2, &p);
            k += 1;
        }
        let mut two = [0u64; N];
        two[0] = 2;
        let (p_minus_2, _) = sub_n(&p, &two);
        Modulus {
            p,
            inv,
            r,
            r2,
            p_minus_2,
        }
    }

    /// Bit length of the modulus.
    pub const fn bits(&self) -> u32 {
        64 * (N as u32) - self.p[N - 1].leading_zeros()
    }

    /// `(a + b) mod p` for reduced inputs.
    #[inline(always)]
    pub fn add(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let (sum, carry) = add_n(a, b);
        let (diff, borrow) = sub_n(&sum, &self.p);
        // Keep the unreduced sum only if it did not overflow and was below p.
        let keep_sum = (borrow & (carry ^ 1)).wrapping_neg();
        select_n(&diff, &sum, keep_sum)
    }

    /// `(a − b) mod p` for reduced inputs.
    #[inline(always)]
    pub fn sub(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let (diff, borrow) = sub_n(a, b);
        let mask = borrow.wrapping_neg();
        let addend = self.p.map(|limb| limb & mask);
        add_n(&diff, &addend).0
    }

    /// `−a mod p` for a reduced input.
    #[inline(always)]
    pub fn neg(&self, a: &[u64; N]) -> [u64; N] {
        let (diff, _) = sub_n(&self.p, a);
        let mut acc = 0u64;
        for limb in a {
            acc |= limb;
        }
        // All ones iff a ≠ 0, so that −0 stays 0 rather than p.
        let nonzero = ((acc | acc.wrapping_neg()) >> 63).wrapping_neg();
        let mut out = [0u64; N];
        for i in 0..N {
            out[i] = diff[i] & nonzero;
        }
        out
    }

    /// Montgomery product `a·b·R⁻¹ mod p` (CIOS), for reduced inputs.
    #[inline(always)]
    pub fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let mut t = [0u64; N];
        let mut t_hi = 0u64;
        for bi in b.iter() {
            let mut carry = 0;
            for j in 0..N {
                let (lo, hi) = mac(t[j], a[j], *bi, carry);
                t[j] = lo;
                carry = hi;
            }
            let (s, top) = adc(t_hi, carry, 0);
            let m = t[0].wrapping_mul(self.inv);
            let (_, mut carry) = mac(t[0], m, self.p[0], 0);
            for j in 1..N {
                let (lo, hi) = mac(t[j], m, self.p[j], carry);
                t[j - 1] = lo;
                carry = hi;
            }
            let (s, c) = adc(s, carry, 0);
            t[N - 1] = s;
            t_hi = top + c;
        }
        // t + t_hi·R < 2p: one conditional subtraction.
        let (diff, borrow) = sub_n(&t, &self.p);
        let keep_t = (borrow & (t_hi ^ 1)).wrapping_neg();
        select_n(&diff, &t, keep_t)
    }

    /// `1` if `a < p`, else `0`.
    #[inline(always)]
    pub fn is_reduced(&self, a: &[u64; N]) -> u64 {
        sub_n(a, &self.p).1
    }

    /// Into Montgomery form.
    #[inline(always)]
    pub fn to_mont(&self, a: &[u64; N]) -> [u64; N] {
        self.mul(a, &self.r2)
    }

    /// Out of Montgomery form.
    #[inline(always)]
    pub fn out_of_mont(&self, a: &[u64; N]) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        self.mul(a, &one)
    }

    /// `a^e` in Montgomery form for a public exponent `e` (the sequence of
    /// operations depends only on `e`).
    pub fn pow_public(&self, a: &[u64; N], e: &[u64; N]) -> [u64; N] {
        let mut acc = self.r;
        for i in (0..64 * N).rev() {
            acc = self.mul(&acc, &acc);
            if (e[i / 64] >> (i % 64)) & 1 == 1 {
                acc = self.mul(&acc, a);
            }
        }
        acc
    }
}

/// `2a mod p` for `a < p` (compile-time helper).
pub(crate) const fn double_mod<const N: usize>(a: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut carry = 0;
    let mut i = 0;
    while i < N {
        out[i] = (a[i] << 1) | carry;
        carry = a[i] >> 63;
        i += 1;
    }
    let (diff, borrow) = sub_n(&out, p);
    if carry == 1 || borrow == 0 {
        diff
    } else {
        out
    }
}

/// Little-endian bytes (at most `8·N`) to limbs; missing bytes are zero.
#[inline(always)]
pub(crate) fn limbs_from_le<const N: usize>(bytes: &[u8]) -> [u64; N] {
    let mut out = [0u64; N];
    for (i, b) in bytes.iter().take(8 * N).enumerate() {
        out[i / 8] |= (*b as u64) << (8 * (i % 8));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_wide_halves_is_the_full_product() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut cases = vec![
            (u64::MAX, u64::MAX),
            (u64::MAX, 1),
            (0, u64::MAX),
            (1 << 63, 1 << 63),
            (0xffff_ffff, 0xffff_ffff),
            (0xffff_ffff_0000_0000, 0xffff_ffff),
        ];
        cases.extend((0..10_000).map(|_| (next(), next())));
        for (a, b) in cases {
            assert_eq!(
                mul_wide_halves(a, b),
                (a as u128) * (b as u128),
                "{a:#x}·{b:#x}"
            );
            assert_eq!(mul_wide(a, b), (a as u128) * (b as u128));
        }
    }
}
