//! Carry-less multiplication from 64×64 → 128-bit integer products, for
//! 64-bit targets where that product is one instruction (x86_64 MUL,
//! aarch64 MUL + UMULH).
//!
//! Integer multiplication computes a carry-less product if the carries never
//! reach a bit that matters. Splitting each 64-bit operand into five "comb"
//! masks (bits whose index is ≡ k mod 5) leaves at most 13 set bits per
//! part, so any column of a part×part integer product sums at most 13 ones:
//! its carries occupy the next 4 bits only and never reach the next bit of
//! the same residue class, 5 positions up. Masking each product to its
//! residue class therefore recovers the exact carry-less partial product.
//! 25 products per 64×64, 75 per 128×128 (Karatsuba). The code is
//! branch-free and uses no secret-dependent indices.
//!
//! On 32-bit targets each `u128` product is a library call; [`super::comb32`]
//! is the variant for them.

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
        let mut s = 0x9e37_79b9_7f4a_7c15;
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
            cases.push((xorshift(&mut s), xorshift(&mut s)));
        }
        for (x, y) in cases {
            assert_eq!(clmul64(x, y), naive(x, y), "{x:#x} * {y:#x}");
        }
    }
}
