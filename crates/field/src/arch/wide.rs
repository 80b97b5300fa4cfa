//! The registers an unreduced GF(2^128) sum lives in: SSE registers on
//! x86_64, so that a sum added to on every step of a loop stays there (as
//! `u128`s it moved between integer and vector registers on every product,
//! which cost more than the reductions it saved), `u128`s elsewhere.

#[cfg(target_arch = "x86_64")]
mod repr {
    use super::super::x86_64::clmul128::{to_u128, to_vec};
    use core::arch::x86_64::{__m128i, _mm_setzero_si128, _mm_xor_si128};

    /// (low, middle, high).
    pub(crate) type Parts = [__m128i; 3];

    #[inline(always)]
    pub(crate) fn zero() -> Parts {
        // SAFETY: SSE2 is part of every x86_64 CPU (the target's baseline).
        [unsafe { _mm_setzero_si128() }; 3]
    }

    #[inline(always)]
    pub(crate) fn xor(a: Parts, b: Parts) -> Parts {
        // SAFETY: SSE2 is part of every x86_64 CPU (the target's baseline).
        unsafe {
            [
                _mm_xor_si128(a[0], b[0]),
                _mm_xor_si128(a[1], b[1]),
                _mm_xor_si128(a[2], b[2]),
            ]
        }
    }

    #[inline(always)]
    pub(crate) fn from_u128(p: [u128; 3]) -> Parts {
        p.map(to_vec)
    }

    #[inline(always)]
    pub(crate) fn into_u128(p: Parts) -> [u128; 3] {
        p.map(to_u128)
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod repr {
    /// (low, middle, high).
    pub(crate) type Parts = [u128; 3];

    #[inline(always)]
    pub(crate) fn zero() -> Parts {
        [0; 3]
    }

    #[inline(always)]
    pub(crate) fn xor(a: Parts, b: Parts) -> Parts {
        [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2]]
    }

    #[inline(always)]
    pub(crate) fn from_u128(p: [u128; 3]) -> Parts {
        p
    }

    #[inline(always)]
    pub(crate) fn into_u128(p: Parts) -> [u128; 3] {
        p
    }
}

pub(crate) use repr::{from_u128, into_u128, xor, zero, Parts};
