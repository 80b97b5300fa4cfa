//! Carry-less multiplication from 32×32 → 64-bit integer products, for
//! targets whose widest cheap multiply is 64 bits (wasm32, 32-bit ARM and
//! x86), where a `u128` product is a library call.
//!
//! Each 32-bit operand is split into four interleaved bit classes (bits whose
//! index is ≡ k mod 4), eight bits per class. In the integer product of two
//! class parts every set column counts at most 8 pairs, and 8 < 2^4: a
//! column's count fits in the 4 bits up to the next column of the same class,
//! so no carry ever reaches a bit of that class. Masking the sum of the
//! products whose classes add up to `c` (mod 4) to class `c` leaves exactly
//! the carry-less product's bits of that class. Sixteen products give one
//! 32×32 carry-less product; Karatsuba builds 64×64 from three and 128×128
//! from three 64×64 (nine 32×32 products, 144 integer multiplications).
//!
//! Only masks, shifts, XORs and multiplications of secret values: no branch
//! or memory index depends on the operands, so it is constant time wherever
//! the 64-bit multiply is (it is on wasm engines and the CPUs we target).

/// Bits 0, 4, 8, …, 28 of a 32-bit word.
const CLASS0: u32 = 0x1111_1111;

/// The four classes of a 32-bit word, and of the 64-bit product.
const MASK32: [u32; 4] = [CLASS0, CLASS0 << 1, CLASS0 << 2, CLASS0 << 3];
const MASK64: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

/// Carry-less product of two 32-bit polynomials.
#[inline(always)]
pub(crate) fn clmul32(x: u32, y: u32) -> u64 {
    let xs = MASK32.map(|m| u64::from(x & m));
    let ys = MASK32.map(|m| u64::from(y & m));
    // Product class c collects x_a·y_b with a + b ≡ c (mod 4). Each
    // product is < 2^64 (two 32-bit factors), so the wrapping multiply is
    // exact.
    let class = |c: usize| {
        let mut s = 0u64;
        for (a, xa) in xs.iter().enumerate() {
            s ^= xa.wrapping_mul(ys[(c + 4 - a) % 4]);
        }
        s & MASK64[c]
    };
    class(0) | class(1) | class(2) | class(3)
}

/// Carry-less product of two 64-bit polynomials (Karatsuba over 32-bit
/// halves), as (low, high) words.
#[inline(always)]
pub(crate) fn clmul64(x: u64, y: u64) -> (u64, u64) {
    let (x0, x1) = (x as u32, (x >> 32) as u32);
    let (y0, y1) = (y as u32, (y >> 32) as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (lo ^ (mid << 32), hi ^ (mid >> 32))
}

/// Carry-less 128×128 → 256-bit product (Karatsuba over 64-bit halves), as
/// (low, high).
#[inline(always)]
pub(crate) fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let (l0, l1) = clmul64(a0, b0);
    let (h0, h1) = clmul64(a1, b1);
    let (m0, m1) = clmul64(a0 ^ a1, b0 ^ b1);
    // The middle term, shifted up one 64-bit word, straddles the halves.
    let (m0, m1) = (m0 ^ l0 ^ h0, m1 ^ l1 ^ h1);
    let lo = join(l0, l1 ^ m0);
    let hi = join(h0 ^ m1, h1);
    (lo, hi)
}

/// `lo + hi·2^64`.
#[inline(always)]
fn join(lo: u64, hi: u64) -> u128 {
    (u128::from(hi) << 64) | u128::from(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: XOR of `x` shifted by every set bit of `y`.
    fn naive32(x: u32, y: u32) -> u64 {
        (0..32)
            .filter(|i| (y >> i) & 1 == 1)
            .fold(0, |r, i| r ^ (u64::from(x) << i))
    }

    fn naive64(x: u64, y: u64) -> u128 {
        (0..64)
            .filter(|i| (y >> i) & 1 == 1)
            .fold(0, |r, i| r ^ (u128::from(x) << i))
    }

    #[test]
    fn class_masks_partition_the_word() {
        assert_eq!(MASK32.iter().fold(0, |a, m| a | m), u32::MAX);
        assert_eq!(MASK64.iter().fold(0, |a, m| a ^ m), u64::MAX);
        for (m32, m64) in MASK32.iter().zip(MASK64) {
            assert_eq!(u64::from(*m32), m64 & 0xffff_ffff);
        }
    }

    #[test]
    fn clmul32_on_worst_case_columns() {
        // All-ones factors put 8 pairs in the densest columns of each class:
        // the most the carries can carry.
        let cases = [
            (u32::MAX, u32::MAX),
            (CLASS0, CLASS0),
            (CLASS0 << 3, CLASS0 << 3),
            (CLASS0, u32::MAX),
            (1 << 31, 1 << 31),
            (0, u32::MAX),
            (1, 0xdead_beef),
        ];
        for (x, y) in cases {
            assert_eq!(clmul32(x, y), naive32(x, y), "{x:#x} * {y:#x}");
        }
    }

    #[test]
    fn clmul64_matches_definition() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..5_000 {
            let (x, y) = (next(), next());
            let (lo, hi) = clmul64(x, y);
            assert_eq!(join(lo, hi), naive64(x, y), "{x:#x} * {y:#x}");
        }
        for (x, y) in [(u64::MAX, u64::MAX), (1 << 63, 1 << 63), (u64::MAX, 1)] {
            let (lo, hi) = clmul64(x, y);
            assert_eq!(join(lo, hi), naive64(x, y), "{x:#x} * {y:#x}");
        }
    }
}
