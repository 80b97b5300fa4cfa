//! Constant-time GF(2^128) multiplication without special instructions:
//! a carry-less product from ordinary integer multiplications on masked
//! operands, then the reduction modulo x^128 + x^7 + x^2 + x + 1.
//!
//! Two variants of the same idea, chosen by the width of the target's cheap
//! integer product: [`comb64`] (five bit classes, 64×64 → 128-bit products)
//! where that product is one instruction, [`comb32`] (four bit classes,
//! 32×32 → 64-bit products) on 32-bit targets such as wasm32, where a `u128`
//! product is a library call. Both are compiled and tested everywhere; the
//! textbook shift-and-add product below is the oracle they are tested
//! against.

use super::{comb32, comb64};

/// Carry-less 128×128 → 256-bit product, as (low, high): the variant this
/// target multiplies fastest.
#[inline(always)]
pub(crate) fn clmul128(a: u128, b: u128) -> (u128, u128) {
    if WIDE_PRODUCTS {
        comb64::clmul128(a, b)
    } else {
        comb32::clmul128(a, b)
    }
}

/// Whether a 64×64 → 128-bit integer product is cheap on this target (a
/// compile-time constant, so only one variant is code in the hot path).
const WIDE_PRODUCTS: bool = cfg!(target_pointer_width = "64");

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

    /// Both variants against the oracle, whichever this target uses.
    fn variants(a: u128, b: u128) -> [u128; 2] {
        [comb64::clmul128(a, b), comb32::clmul128(a, b)].map(|(lo, hi)| reduce(lo, hi))
    }

    #[test]
    fn mul_matches_schoolbook() {
        let mut s = XorShift64(0x0123_4567_89ab_cdef);
        let mut cases = vec![(u128::MAX, u128::MAX), (1 << 127, 1 << 127), (0, u128::MAX)];
        for _ in 0..20_000 {
            cases.push((s.next_u128(), s.next_u128()));
        }
        for (a, b) in cases {
            let want = mul_schoolbook(a, b);
            assert_eq!(mul(a, b), want, "{a:#x} * {b:#x}");
            assert_eq!(variants(a, b), [want; 2], "{a:#x} * {b:#x}");
        }
    }
}
