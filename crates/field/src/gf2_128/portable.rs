//! Constant-time carry-less multiplication without special instructions,
//! and the reduction modulo x^128 + x^7 + x^2 + x + 1.
//!
//! Integer multiplication computes a carry-less product if the carries never
//! reach a bit that matters. Splitting each 64-bit operand into five "comb"
//! masks (bits whose index is ≡ k mod 5) leaves at most 13 set bits per
//! part, so any column of a part×part integer product sums at most 13 ones:
//! its carries occupy the next 4 bits only and never reach the next bit of
//! the same residue class, 5 positions up. Masking each product to its
//! residue class therefore recovers the exact carry-less partial product.
//! The code is branch-free and uses no secret-dependent indices.

/// Bits 0, 5, 10, …, 60 of a 64-bit word.
const COMB64: u64 = comb64();

/// `MASK128[c]` has the bits of a 128-bit word whose index is ≡ c mod 5.
const MASK128: [u128; 5] = mask128();

const fn comb64() -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 64 {
        m |= 1 << i;
        i += 5;
    }
    m
}

const fn mask128() -> [u128; 5] {
    let mut out = [0u128; 5];
    let mut i = 0;
    while i < 128 {
        out[i % 5] |= 1 << i;
        i += 1;
    }
    out
}

/// Carry-less product of two 64-bit polynomials.
#[inline(always)]
pub(crate) fn clmul64(x: u64, y: u64) -> u128 {
    let xs = [
        x & COMB64,
        x & (COMB64 << 1),
        x & (COMB64 << 2),
        x & (COMB64 << 3),
        x & (COMB64 << 4),
    ];
    let ys = [
        y & COMB64,
        y & (COMB64 << 1),
        y & (COMB64 << 2),
        y & (COMB64 << 3),
        y & (COMB64 << 4),
    ];
    let mut r = 0u128;
    for (a, xa) in xs.iter().enumerate() {
        for (b, yb) in ys.iter().enumerate() {
            r ^= ((*xa as u128) * (*yb as u128)) & MASK128[(a + b) % 5];
        }
    }
    r
}

/// Carry-less 128×128 → 256-bit product (Karatsuba over 64-bit halves),
/// returned as (low, high).
#[inline(always)]
pub(crate) fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

/// Reduces `hi·x^128 + lo` modulo x^128 + x^7 + x^2 + x + 1.
#[inline(always)]
pub(crate) fn reduce(lo: u128, hi: u128) -> u128 {
    // x^128 ≡ x^7 + x^2 + x + 1: fold hi down once; the ≤ 7 bits that spill
    // past x^127 are folded once more (their image fits in 14 bits).
    let spill = (hi >> 127) ^ (hi >> 126) ^ (hi >> 121);
    let fold = hi ^ (hi << 1) ^ (hi << 2) ^ (hi << 7);
    let fold2 = spill ^ (spill << 1) ^ (spill << 2) ^ (spill << 7);
    lo ^ fold ^ fold2
}

/// Full field product without special instructions.
#[inline(always)]
pub(crate) fn mul(a: u128, b: u128) -> u128 {
    let (lo, hi) = clmul128(a, b);
    reduce(lo, hi)
}

/// Textbook shift-and-add product, usable in `const` context. Branches on
/// the bits of `b`, so only for public inputs (constants, tests).
pub(crate) const fn mul_schoolbook(mut a: u128, b: u128) -> u128 {
    let mut r = 0u128;
    let mut i = 0;
    while i < 128 {
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
        let carry = a >> 127;
        a = (a << 1) ^ (carry * 0x87);
        i += 1;
    }
    r
}

/// `a^e` with [`mul_schoolbook`], for compile-time constants.
pub(crate) const fn pow_schoolbook(a: u128, e: u128) -> u128 {
    let mut acc = 1u128;
    let mut i = 128;
    while i > 0 {
        i -= 1;
        acc = mul_schoolbook(acc, acc);
        if (e >> i) & 1 == 1 {
            acc = mul_schoolbook(acc, a);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use longfellow_test_rng::XorShift64;

    #[test]
    fn clmul64_matches_bitwise_definition() {
        let naive = |x: u64, y: u64| {
            let mut r = 0u128;
            for i in 0..64 {
                if (y >> i) & 1 == 1 {
                    r ^= (x as u128) << i;
                }
            }
            r
        };
        let mut s = XorShift64(0x9e37_79b9_7f4a_7c15);
        let mut cases = vec![
            (0, 0),
            (u64::MAX, u64::MAX),
            (1, u64::MAX),
            (COMB64, COMB64),
        ];
        for k in 0..5 {
            cases.push((COMB64 << k, u64::MAX));
            cases.push((u64::MAX, COMB64 << k));
        }
        for _ in 0..20_000 {
            cases.push((s.next_u64(), s.next_u64()));
        }
        for (x, y) in cases {
            assert_eq!(clmul64(x, y), naive(x, y), "{x:#x} * {y:#x}");
        }
    }

    #[test]
    fn mul_matches_schoolbook() {
        let mut s = XorShift64(0x0123_4567_89ab_cdef);
        let mut cases = vec![(u128::MAX, u128::MAX), (1 << 127, 1 << 127), (0, u128::MAX)];
        for _ in 0..20_000 {
            cases.push((s.next_u128(), s.next_u128()));
        }
        for (a, b) in cases {
            assert_eq!(mul(a, b), mul_schoolbook(a, b), "{a:#x} * {b:#x}");
        }
    }
}
