//! Hardware carry-less multiplication (x86_64 PCLMULQDQ, aarch64 PMULL),
//! selected at run time. This is the only module of the crate that uses
//! `unsafe`: calling a `#[target_feature]` function is sound only once the
//! feature is known to be present, which [`clmul128`] checks first.
#![allow(unsafe_code)]

/// Carry-less 128×128 → 256-bit product as (low, high), or `None` when the
/// CPU lacks a carry-less multiply instruction.
#[inline(always)]
pub(crate) fn clmul128(a: u128, b: u128) -> Option<(u128, u128)> {
    #[cfg(target_arch = "x86_64")]
    {
        if has_clmul() {
            // SAFETY: `has_clmul` confirmed PCLMULQDQ and SSE2 support, the
            // only target features `x86::clmul128` enables.
            return Some(unsafe { x86::clmul128(a, b) });
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if has_clmul() {
            // SAFETY: `has_clmul` confirmed NEON and PMULL (the "aes"
            // feature), the only target features `arm::clmul128` enables.
            return Some(unsafe { arm::clmul128(a, b) });
        }
    }
    let _ = (a, b);
    None
}

/// Whether the hardware path is used (for tests and benchmarks).
pub(crate) fn has_clmul() -> bool {
    detect::cached()
}

/// Whether the build itself targets CPUs with carry-less multiplication.
const ENABLED_AT_COMPILE_TIME: bool = cfg!(any(
    all(
        target_arch = "x86_64",
        target_feature = "pclmulqdq",
        target_feature = "sse2"
    ),
    all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_feature = "aes"
    )
));

#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "aarch64")))]
mod detect {
    use core::sync::atomic::{AtomicU8, Ordering};

    const UNKNOWN: u8 = 0;
    const PRESENT: u8 = 1;
    const ABSENT: u8 = 2;

    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[inline(always)]
    pub(super) fn cached() -> bool {
        // Builds that already target such CPUs skip detection entirely, which
        // also lets the `#[target_feature]` functions inline.
        if super::ENABLED_AT_COMPILE_TIME {
            return true;
        }
        match STATE.load(Ordering::Relaxed) {
            PRESENT => true,
            ABSENT => false,
            _ => {
                let found = probe();
                STATE.store(if found { PRESENT } else { ABSENT }, Ordering::Relaxed);
                found
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    fn probe() -> bool {
        std::arch::is_x86_feature_detected!("pclmulqdq")
            && std::arch::is_x86_feature_detected!("sse2")
    }

    #[cfg(target_arch = "aarch64")]
    fn probe() -> bool {
        std::arch::is_aarch64_feature_detected!("neon")
            && std::arch::is_aarch64_feature_detected!("pmull")
    }
}

#[cfg(not(all(feature = "std", any(target_arch = "x86_64", target_arch = "aarch64"))))]
mod detect {
    /// Without `std` there is no run-time detection: use the instruction only
    /// when the build already targets CPUs that have it.
    #[inline(always)]
    pub(super) fn cached() -> bool {
        super::ENABLED_AT_COMPILE_TIME
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{__m128i, _mm_clmulepi64_si128, _mm_set_epi64x, _mm_xor_si128};

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let va = _mm_set_epi64x((a >> 64) as i64, a as i64);
        let vb = _mm_set_epi64x((b >> 64) as i64, b as i64);
        let lo = _mm_clmulepi64_si128::<0x00>(va, vb);
        let hi = _mm_clmulepi64_si128::<0x11>(va, vb);
        let mid = _mm_xor_si128(
            _mm_clmulepi64_si128::<0x01>(va, vb),
            _mm_clmulepi64_si128::<0x10>(va, vb),
        );
        let (lo, hi, mid) = (to_u128(lo), to_u128(hi), to_u128(mid));
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }

    #[inline(always)]
    fn to_u128(v: __m128i) -> u128 {
        // SAFETY: `__m128i` and `u128` are both 16 bytes of plain data with
        // no invalid bit patterns; on little-endian x86_64 lane 0 becomes the
        // low 64 bits.
        unsafe { core::mem::transmute::<__m128i, u128>(v) }
    }
}

#[cfg(target_arch = "aarch64")]
mod arm {
    use core::arch::aarch64::vmull_p64;

    /// # Safety
    /// The CPU must support NEON and PMULL (the "aes" target feature).
    #[target_feature(enable = "neon,aes")]
    pub(super) unsafe fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let (a0, a1) = (a as u64, (a >> 64) as u64);
        let (b0, b1) = (b as u64, (b >> 64) as u64);
        let lo: u128 = vmull_p64(a0, b0);
        let hi: u128 = vmull_p64(a1, b1);
        let mid: u128 = vmull_p64(a0, b1) ^ vmull_p64(a1, b0);
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }
}
