//! CPU-specific arithmetic selected at run time: carry-less multiplication
//! for GF(2^128) (x86_64 PCLMULQDQ, aarch64 PMULL) and the P-256 base field
//! product in x86_64 assembly (BMI2 MULX with the two ADX carry chains).
//! This is the only module of the crate that uses `unsafe`: calling a
//! `#[target_feature]` function, or running an instruction from an
//! extension, is sound only once the feature is known to be present, which
//! every safe entry point here checks first.
#![allow(unsafe_code)]

use crate::{Butterfly, Gf2_128};

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

/// Reduced GF(2^128) product, or `None` without hardware support.
#[inline(always)]
pub(crate) fn gf_mul(a: u128, b: u128) -> Option<u128> {
    #[cfg(target_arch = "x86_64")]
    {
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            return Some(unsafe { x86::mul_inline(a, b) });
        }
    }
    clmul128(a, b).map(|(lo, hi)| crate::gf2_128::portable::reduce(lo, hi))
}

// Whole-slice GF(2^128) kernels. Each returns `false` (having done nothing)
// when there is no vectorised version for this CPU, and the caller then runs
// its portable loop. One feature check per call; the loop runs inside a
// `#[target_feature]` function, so every product is inlined.

/// `Σ a_i·b_i` with one reduction at the end.
#[inline]
pub(crate) fn gf_dot(a: &[Gf2_128], b: &[Gf2_128]) -> Option<Gf2_128> {
    gf_dot_with(a, b, true)
}

/// [`gf_dot`], optionally without the 512-bit path (so tests can reach the
/// 128-bit one on CPUs that have both).
#[inline]
pub(crate) fn gf_dot_with(a: &[Gf2_128], b: &[Gf2_128], allow_wide: bool) -> Option<Gf2_128> {
    #[cfg(target_arch = "x86_64")]
    {
        if allow_wide && wide::has_wide_clmul() && a.len().min(b.len()) >= 8 {
            // SAFETY: AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2 are present
            // (checked just above).
            return Some(Gf2_128(unsafe { x86::dot_wide(a, b) }));
        }
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            return Some(Gf2_128(unsafe { x86::dot(a, b) }));
        }
    }
    let _ = (a, b, allow_wide);
    None
}

/// Whether the 512-bit carry-less multiply is used for `dot` (tests).
pub(crate) fn has_wide_clmul() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        wide::has_wide_clmul()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Run-time detection of AVX-512F with VPCLMULQDQ (four 64×64 carry-less
/// products per instruction), cached like [`detect`].
#[cfg(target_arch = "x86_64")]
mod wide {
    #[cfg(feature = "std")]
    pub(super) fn has_wide_clmul() -> bool {
        use core::sync::atomic::AtomicU8;
        static STATE: AtomicU8 = AtomicU8::new(super::detect::UNKNOWN);
        super::detect::cached_probe(&STATE, || {
            super::has_clmul()
                && std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("vpclmulqdq")
        })
    }

    #[cfg(not(feature = "std"))]
    pub(super) fn has_wide_clmul() -> bool {
        cfg!(all(
            target_feature = "avx512f",
            target_feature = "vpclmulqdq"
        )) && super::has_clmul()
    }
}

/// `y_i ← y_i + u·x_i`.
#[inline]
pub(crate) fn gf_axpy(y: &mut [Gf2_128], u: Gf2_128, x: &[Gf2_128]) -> bool {
    gf_axpy_with(y, u, x, true)
}

/// [`gf_axpy`], optionally without the 512-bit path.
#[inline]
pub(crate) fn gf_axpy_with(y: &mut [Gf2_128], u: Gf2_128, x: &[Gf2_128], allow_wide: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if allow_wide && wide::has_wide_clmul() && y.len().min(x.len()) >= 8 {
            // SAFETY: AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2 are present
            // (checked just above).
            unsafe { x86::axpy_wide(y, u.0, x) };
            return true;
        }
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            unsafe { x86::axpy(y, u.0, x) };
            return true;
        }
    }
    let _ = (y, u, x, allow_wide);
    false
}

/// `x_i ← x_i·y_i`.
#[inline]
pub(crate) fn gf_mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) -> bool {
    gf_mul_assign_with(x, y, true)
}

/// [`gf_mul_assign`], optionally without the 512-bit path.
#[inline]
pub(crate) fn gf_mul_assign_with(x: &mut [Gf2_128], y: &[Gf2_128], allow_wide: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if allow_wide && wide::has_wide_clmul() && x.len().min(y.len()) >= 8 {
            // SAFETY: AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2 are present
            // (checked just above).
            unsafe { x86::mul_assign_wide(x, y) };
            return true;
        }
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            unsafe { x86::mul_assign(x, y) };
            return true;
        }
    }
    let _ = (x, y, allow_wide);
    false
}

/// Butterflies between `lo` and `hi` with one twiddle.
#[inline]
pub(crate) fn gf_butterflies(
    lo: &mut [Gf2_128],
    hi: &mut [Gf2_128],
    t: Gf2_128,
    kind: Butterfly,
) -> bool {
    gf_butterflies_with(lo, hi, t, kind, true)
}

/// [`gf_butterflies`], optionally without the 512-bit path.
#[inline]
pub(crate) fn gf_butterflies_with(
    lo: &mut [Gf2_128],
    hi: &mut [Gf2_128],
    t: Gf2_128,
    kind: Butterfly,
    allow_wide: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if allow_wide && wide::has_wide_clmul() && lo.len().min(hi.len()) >= 8 {
            // SAFETY: AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2 are present
            // (checked just above).
            unsafe { x86::butterflies_wide(lo, hi, t.0, kind) };
            return true;
        }
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            unsafe { x86::butterflies(lo, hi, t.0, kind) };
            return true;
        }
    }
    let _ = (lo, hi, t, kind, allow_wide);
    false
}

/// One FFT level (shape already checked by the caller).
#[inline]
pub(crate) fn gf_butterfly_level(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) -> bool {
    gf_butterfly_level_with(data, half, twiddles, kind, true)
}

/// [`gf_butterfly_level`], optionally without the 512-bit path.
#[inline]
pub(crate) fn gf_butterfly_level_with(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
    allow_wide: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // Halves of four or more elements fill whole 512-bit vectors;
        // halves of one or two are regrouped, eight elements at a time.
        if allow_wide && wide::has_wide_clmul() {
            if half >= 4 {
                // SAFETY: AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2 are
                // present (checked just above).
                unsafe { x86::butterfly_level_wide(data, half, twiddles, kind) };
                return true;
            }
            if half == 1 || half == 2 {
                // SAFETY: as above.
                unsafe { x86::butterfly_level_small_wide(data, half, twiddles, kind) };
                return true;
            }
        }
        if has_clmul() {
            // SAFETY: PCLMULQDQ and SSE2 are present (checked just above).
            unsafe { x86::butterfly_level(data, half, twiddles, kind) };
            return true;
        }
    }
    let _ = (data, half, twiddles, kind, allow_wide);
    false
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

    pub(super) const UNKNOWN: u8 = 0;
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
        cached_probe(&STATE, probe)
    }

    /// The result of `probe`, run once and remembered in `state` (which
    /// starts at [`UNKNOWN`]); a race only runs the probe twice.
    #[inline(always)]
    pub(super) fn cached_probe(state: &AtomicU8, probe: impl FnOnce() -> bool) -> bool {
        match state.load(Ordering::Relaxed) {
            PRESENT => true,
            ABSENT => false,
            _ => {
                let found = probe();
                state.store(if found { PRESENT } else { ABSENT }, Ordering::Relaxed);
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
    use crate::{Butterfly, Gf2_128};
    use core::arch::x86_64::{
        __m128i, _mm_clmulepi64_si128, _mm_set_epi64x, _mm_shuffle_epi32, _mm_slli_si128,
        _mm_srli_si128, _mm_xor_si128,
    };

    /// x^128 ≡ x^7 + x^2 + x + 1, as a 64-bit carry-less multiplier.
    const POLY: i64 = 0x87;

    #[inline(always)]
    fn to_u128(v: __m128i) -> u128 {
        // SAFETY: `__m128i` and `u128` are both 16 bytes of plain data with
        // no invalid bit patterns; on little-endian x86_64 lane 0 becomes the
        // low 64 bits.
        unsafe { core::mem::transmute::<__m128i, u128>(v) }
    }

    #[inline(always)]
    fn to_vec(v: u128) -> __m128i {
        // SAFETY: as in `to_u128`, in the other direction.
        unsafe { core::mem::transmute::<u128, __m128i>(v) }
    }

    /// Unreduced product as three 128-bit parts (low, middle, high): the
    /// 256-bit value is `low ⊕ middle·x^64 ⊕ high·x^128`. Products can be
    /// summed part-wise before a single [`reduce`].
    ///
    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn product(a: __m128i, b: __m128i) -> [__m128i; 3] {
        let lo = _mm_clmulepi64_si128::<0x00>(a, b);
        let hi = _mm_clmulepi64_si128::<0x11>(a, b);
        let mid = _mm_xor_si128(
            _mm_clmulepi64_si128::<0x01>(a, b),
            _mm_clmulepi64_si128::<0x10>(a, b),
        );
        [lo, mid, hi]
    }

    /// Reduces a [`product`] (or a sum of them) modulo the field polynomial
    /// with two more carry-less multiplications by `POLY`.
    ///
    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn reduce([lo, mid, hi]: [__m128i; 3]) -> __m128i {
        let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
        let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
        let poly = _mm_set_epi64x(0, POLY);
        // hi = h0 + h1·x^64. h1·x^192 ≡ (h1·POLY)·x^64: its low word lands
        // in lo's top half, its ≤ 7 high bits join h0 at x^128.
        let t = _mm_clmulepi64_si128::<0x01>(hi, poly);
        let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(t));
        let h0 = _mm_xor_si128(hi, _mm_srli_si128::<8>(t));
        // h0·x^128 ≡ h0·POLY, at most 71 bits.
        _mm_xor_si128(lo, _mm_clmulepi64_si128::<0x00>(h0, poly))
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn mul_vec(a: __m128i, b: __m128i) -> __m128i {
        reduce(product(a, b))
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn clmul128(a: u128, b: u128) -> (u128, u128) {
        let [lo, mid, hi] = product(to_vec(a), to_vec(b));
        let (lo, hi, mid) = (to_u128(lo), to_u128(hi), to_u128(mid));
        (lo ^ (mid << 64), hi ^ (mid >> 64))
    }

    /// The reduced product as inline assembly, so that it inlines into
    /// callers compiled without the `pclmulqdq` target feature (a
    /// `#[target_feature]` function cannot), leaving one well-predicted
    /// branch on the cached detection result per product. Same steps as
    /// [`product`] then [`reduce`].
    ///
    /// # Safety
    /// The CPU must support PCLMULQDQ (SSE2 is part of x86_64).
    #[inline(always)]
    pub(super) unsafe fn mul_inline(a: u128, b: u128) -> u128 {
        let poly = to_vec(POLY as u128);
        let out: __m128i;
        core::arch::asm!(
            "movdqa {lo}, {a}",
            "pclmulqdq {lo}, {b}, 0x00",
            "movdqa {hi}, {a}",
            "pclmulqdq {hi}, {b}, 0x11",
            "movdqa {mid}, {a}",
            "pclmulqdq {mid}, {b}, 0x01",
            "pclmulqdq {a}, {b}, 0x10",
            "pxor {mid}, {a}",
            "movdqa {t}, {mid}",
            "pslldq {t}, 8",
            "pxor {lo}, {t}",
            "psrldq {mid}, 8",
            "pxor {hi}, {mid}",
            // hi = h0 + h1·x^64: fold h1 (its spill joins h0), then h0.
            "movdqa {t}, {hi}",
            "pclmulqdq {t}, {poly}, 0x01",
            "movdqa {mid}, {t}",
            "pslldq {mid}, 8",
            "pxor {lo}, {mid}",
            "psrldq {t}, 8",
            "pxor {hi}, {t}",
            "pclmulqdq {hi}, {poly}, 0x00",
            "pxor {lo}, {hi}",
            a = inout(xmm_reg) to_vec(a) => _,
            b = in(xmm_reg) to_vec(b),
            poly = in(xmm_reg) poly,
            lo = out(xmm_reg) out,
            hi = out(xmm_reg) _,
            mid = out(xmm_reg) _,
            t = out(xmm_reg) _,
            options(pure, nomem, nostack, preserves_flags),
        );
        to_u128(out)
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
        // Karatsuba with the middle term fixed up once at the end: sum
        // a0·b0, a1·b1 and (a0+a1)·(b0+b1) separately (3 multiplications
        // per term instead of 4); middle = Σ(a0+a1)(b0+b1) + Σa0b0 + Σa1b1.
        // Two independent accumulator sets keep both multipliers busy.
        let zero = to_vec(0);
        let mut acc = [[zero; 3]; 2];
        let mut pairs = a.chunks_exact(2).zip(b.chunks_exact(2));
        for (x, y) in &mut pairs {
            for (lane, (xi, yi)) in x.iter().zip(y).enumerate() {
                karatsuba_accumulate(&mut acc[lane], to_vec(xi.0), to_vec(yi.0));
            }
        }
        let n = a.len().min(b.len());
        if n % 2 == 1 {
            karatsuba_accumulate(&mut acc[0], to_vec(a[n - 1].0), to_vec(b[n - 1].0));
        }
        let [lo, cross, hi] = [0, 1, 2].map(|i| _mm_xor_si128(acc[0][i], acc[1][i]));
        let mid = _mm_xor_si128(cross, _mm_xor_si128(lo, hi));
        to_u128(reduce([lo, mid, hi]))
    }

    /// [`dot`] four terms per instruction: each 512-bit register holds four
    /// elements, whose low, middle and high partial products are summed
    /// lane-wise; the lanes and the scalar tail are folded together and
    /// reduced once.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn dot_wide(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
        use core::arch::x86_64::{
            __m512i, _mm512_clmulepi64_epi128, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
            _mm512_setzero_si512, _mm512_xor_si512,
        };
        let n = a.len().min(b.len());
        let (mut lo, mut mid, mut hi) = (
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
            _mm512_setzero_si512(),
        );
        for (x, y) in a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4)) {
            // SAFETY: each chunk is four 16-byte elements, 64 bytes; the
            // load has no alignment requirement.
            let x = _mm512_loadu_si512(x.as_ptr().cast::<__m512i>());
            let y = _mm512_loadu_si512(y.as_ptr().cast::<__m512i>());
            lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128::<0x00>(x, y));
            hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128::<0x11>(x, y));
            mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128::<0x01>(x, y));
            mid = _mm512_xor_si512(mid, _mm512_clmulepi64_epi128::<0x10>(x, y));
        }
        let fold = |v: __m512i| {
            _mm_xor_si128(
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<0>(v),
                    _mm512_extracti32x4_epi32::<1>(v),
                ),
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<2>(v),
                    _mm512_extracti32x4_epi32::<3>(v),
                ),
            )
        };
        let mut parts = [fold(lo), fold(mid), fold(hi)];
        for i in n - n % 4..n {
            let [l, m, h] = product(to_vec(a[i].0), to_vec(b[i].0));
            parts = [
                _mm_xor_si128(parts[0], l),
                _mm_xor_si128(parts[1], m),
                _mm_xor_si128(parts[2], h),
            ];
        }
        to_u128(reduce(parts))
    }

    /// Four reduced products at once, lane by lane: the steps of
    /// [`product`] and [`reduce`] on 512-bit registers.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and VPCLMULQDQ.
    #[inline]
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    unsafe fn mul4(
        a: core::arch::x86_64::__m512i,
        b: core::arch::x86_64::__m512i,
    ) -> core::arch::x86_64::__m512i {
        use core::arch::x86_64::{
            _mm512_broadcast_i32x4, _mm512_clmulepi64_epi128 as clmul, _mm512_setzero_si512,
            _mm512_unpackhi_epi64, _mm512_unpacklo_epi64, _mm512_xor_si512 as xor,
        };
        let zero = _mm512_setzero_si512();
        let poly = _mm512_broadcast_i32x4(_mm_set_epi64x(0, POLY));
        // Within each 128-bit lane: `unpacklo(0, v)` is v·x^64 truncated
        // (v's low word moved up), `unpackhi(v, 0)` is v / x^64.
        let up = |v| _mm512_unpacklo_epi64(zero, v);
        let down = |v| _mm512_unpackhi_epi64(v, zero);
        let lo = clmul::<0x00>(a, b);
        let hi = clmul::<0x11>(a, b);
        let mid = xor(clmul::<0x01>(a, b), clmul::<0x10>(a, b));
        let lo = xor(lo, up(mid));
        let hi = xor(hi, down(mid));
        let t = clmul::<0x01>(hi, poly);
        let lo = xor(lo, up(t));
        let h0 = xor(hi, down(t));
        xor(lo, clmul::<0x00>(h0, poly))
    }

    /// [`axpy`] four elements at a time.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn axpy_wide(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
        use core::arch::x86_64::{
            __m512i, _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_storeu_si512,
            _mm512_xor_si512,
        };
        let n = y.len().min(x.len());
        let uv = _mm512_broadcast_i32x4(to_vec(u));
        let whole = n - n % 4;
        for (yc, xc) in y[..whole]
            .chunks_exact_mut(4)
            .zip(x[..whole].chunks_exact(4))
        {
            // SAFETY: each chunk is four 16-byte elements, 64 bytes;
            // unaligned loads and stores.
            let xv = _mm512_loadu_si512(xc.as_ptr().cast::<__m512i>());
            let yv = _mm512_loadu_si512(yc.as_ptr().cast::<__m512i>());
            let r = _mm512_xor_si512(yv, mul4(uv, xv));
            _mm512_storeu_si512(yc.as_mut_ptr().cast::<__m512i>(), r);
        }
        axpy(&mut y[whole..n], u, &x[whole..n]);
    }

    /// [`mul_assign`] four elements at a time.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn mul_assign_wide(x: &mut [Gf2_128], y: &[Gf2_128]) {
        use core::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_storeu_si512};
        let n = x.len().min(y.len());
        let whole = n - n % 4;
        for (xc, yc) in x[..whole]
            .chunks_exact_mut(4)
            .zip(y[..whole].chunks_exact(4))
        {
            // SAFETY: each chunk is four 16-byte elements, 64 bytes;
            // unaligned loads and stores.
            let xv = _mm512_loadu_si512(xc.as_ptr().cast::<__m512i>());
            let yv = _mm512_loadu_si512(yc.as_ptr().cast::<__m512i>());
            _mm512_storeu_si512(xc.as_mut_ptr().cast::<__m512i>(), mul4(xv, yv));
        }
        mul_assign(&mut x[whole..n], &y[whole..n]);
    }

    /// Adds a0·b0, (a0+a1)·(b0+b1) and a1·b1 into `acc`.
    ///
    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    unsafe fn karatsuba_accumulate(acc: &mut [__m128i; 3], a: __m128i, b: __m128i) {
        // Low qword of v ^ swap(v) is v0 + v1.
        let a_sum = _mm_xor_si128(a, _mm_shuffle_epi32::<0x4e>(a));
        let b_sum = _mm_xor_si128(b, _mm_shuffle_epi32::<0x4e>(b));
        acc[0] = _mm_xor_si128(acc[0], _mm_clmulepi64_si128::<0x00>(a, b));
        acc[1] = _mm_xor_si128(acc[1], _mm_clmulepi64_si128::<0x00>(a_sum, b_sum));
        acc[2] = _mm_xor_si128(acc[2], _mm_clmulepi64_si128::<0x11>(a, b));
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn axpy(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
        let u = to_vec(u);
        for (a, b) in y.iter_mut().zip(x) {
            a.0 ^= to_u128(mul_vec(u, to_vec(b.0)));
        }
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
        for (a, b) in x.iter_mut().zip(y) {
            a.0 = to_u128(mul_vec(to_vec(a.0), to_vec(b.0)));
        }
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn butterflies(
        lo: &mut [Gf2_128],
        hi: &mut [Gf2_128],
        t: u128,
        kind: Butterfly,
    ) {
        let t = to_vec(t);
        let pairs = lo.iter_mut().zip(hi.iter_mut());
        // Additions are u128 XORs; only the product uses vector registers.
        match kind {
            Butterfly::Forward => {
                for (a, c) in pairs {
                    a.0 ^= to_u128(mul_vec(t, to_vec(c.0)));
                    c.0 ^= a.0;
                }
            }
            Butterfly::Backward => {
                for (a, c) in pairs {
                    c.0 ^= a.0;
                    a.0 ^= to_u128(mul_vec(t, to_vec(c.0)));
                }
            }
            Butterfly::Cross => {
                for (a, c) in pairs {
                    let old_c = c.0;
                    c.0 ^= a.0;
                    a.0 ^= to_u128(mul_vec(t, to_vec(old_c)));
                }
            }
        }
    }

    /// # Safety
    /// The CPU must support PCLMULQDQ and SSE2.
    #[target_feature(enable = "pclmulqdq,sse2")]
    pub(super) unsafe fn butterfly_level(
        data: &mut [Gf2_128],
        half: usize,
        twiddles: &[Gf2_128],
        kind: Butterfly,
    ) {
        for (chunk, t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
            let (lo, hi) = chunk.split_at_mut(half);
            butterflies(lo, hi, t.0, kind);
        }
    }

    /// The butterfly `kind` on four pairs `(a, c)` at once, twiddles `t`.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and VPCLMULQDQ.
    #[inline]
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    unsafe fn butterfly4(
        a: core::arch::x86_64::__m512i,
        c: core::arch::x86_64::__m512i,
        t: core::arch::x86_64::__m512i,
        kind: Butterfly,
    ) -> (core::arch::x86_64::__m512i, core::arch::x86_64::__m512i) {
        use core::arch::x86_64::_mm512_xor_si512 as xor;
        match kind {
            Butterfly::Forward => {
                let a = xor(a, mul4(t, c));
                (a, xor(c, a))
            }
            Butterfly::Backward => {
                let c = xor(c, a);
                (xor(a, mul4(t, c)), c)
            }
            Butterfly::Cross => (xor(a, mul4(t, c)), xor(c, a)),
        }
    }

    /// [`butterflies`] four pairs at a time.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn butterflies_wide(
        lo: &mut [Gf2_128],
        hi: &mut [Gf2_128],
        t: u128,
        kind: Butterfly,
    ) {
        use core::arch::x86_64::{
            __m512i, _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_storeu_si512,
        };
        let n = lo.len().min(hi.len());
        let whole = n - n % 4;
        let tv = _mm512_broadcast_i32x4(to_vec(t));
        for (a4, c4) in lo[..whole]
            .chunks_exact_mut(4)
            .zip(hi[..whole].chunks_exact_mut(4))
        {
            // SAFETY: each chunk is four 16-byte elements, 64 bytes;
            // unaligned loads and stores.
            let a = _mm512_loadu_si512(a4.as_ptr().cast::<__m512i>());
            let c = _mm512_loadu_si512(c4.as_ptr().cast::<__m512i>());
            let (a, c) = butterfly4(a, c, tv, kind);
            _mm512_storeu_si512(a4.as_mut_ptr().cast::<__m512i>(), a);
            _mm512_storeu_si512(c4.as_mut_ptr().cast::<__m512i>(), c);
        }
        butterflies(&mut lo[whole..n], &mut hi[whole..n], t, kind);
    }

    /// [`butterfly_level`] for halves of one or two elements: each eight
    /// elements (four or two chunks) are regrouped into a vector of their
    /// four `lo` elements and one of their four `hi` elements, with the
    /// matching twiddles, and put back after the butterflies.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2, and
    /// `half` must be 1 or 2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn butterfly_level_small_wide(
        data: &mut [Gf2_128],
        half: usize,
        twiddles: &[Gf2_128],
        kind: Butterfly,
    ) {
        use core::arch::x86_64::{
            __m256i, __m512i, _mm256_loadu_si256, _mm512_castsi256_si512, _mm512_loadu_si512,
            _mm512_permutex2var_epi64 as pick2, _mm512_permutexvar_epi64, _mm512_set_epi64,
            _mm512_storeu_si512,
        };
        // Indices of 64-bit words in (x, y) = 16 words; `_mm512_set_epi64`
        // lists them from the highest lane down.
        let (lo_idx, hi_idx, back_x, back_y) = if half == 1 {
            // x = [a0 c0 a1 c1], y = [a2 c2 a3 c3].
            (
                _mm512_set_epi64(13, 12, 9, 8, 5, 4, 1, 0),
                _mm512_set_epi64(15, 14, 11, 10, 7, 6, 3, 2),
                _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0),
                _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4),
            )
        } else {
            // x = [a0 a1 c0 c1], y = [a2 a3 c2 c3].
            (
                _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0),
                _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4),
                _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0),
                _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4),
            )
        };
        // For half = 2, twiddles [t0 t1] become [t0 t0 t1 t1].
        let spread_pairs = _mm512_set_epi64(3, 2, 3, 2, 1, 0, 1, 0);
        let chunks_per_block = 4 / half;
        let whole = data.len() / 8 * 8;
        let (head, tail) = data.split_at_mut(whole);
        for (block, tw) in head
            .chunks_exact_mut(8)
            .zip(twiddles.chunks_exact(chunks_per_block))
        {
            // SAFETY: `block` is eight 16-byte elements (two 64-byte
            // vectors) and `tw` holds four (half = 1) or two (half = 2)
            // elements; unaligned loads and stores.
            let x = _mm512_loadu_si512(block.as_ptr().cast::<__m512i>());
            let y = _mm512_loadu_si512(block.as_ptr().add(4).cast::<__m512i>());
            let t = if half == 1 {
                _mm512_loadu_si512(tw.as_ptr().cast::<__m512i>())
            } else {
                let pair = _mm256_loadu_si256(tw.as_ptr().cast::<__m256i>());
                _mm512_permutexvar_epi64(spread_pairs, _mm512_castsi256_si512(pair))
            };
            let a = pick2(x, lo_idx, y);
            let c = pick2(x, hi_idx, y);
            let (a, c) = butterfly4(a, c, t, kind);
            _mm512_storeu_si512(block.as_mut_ptr().cast::<__m512i>(), pick2(a, back_x, c));
            _mm512_storeu_si512(
                block.as_mut_ptr().add(4).cast::<__m512i>(),
                pick2(a, back_y, c),
            );
        }
        let done = whole / (2 * half);
        for (chunk, t) in tail.chunks_exact_mut(2 * half).zip(&twiddles[done..]) {
            let (lo, hi) = chunk.split_at_mut(half);
            butterflies(lo, hi, t.0, kind);
        }
    }

    /// [`butterfly_level`] for halves of at least four elements, four
    /// pairs at a time.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE2.
    #[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
    pub(super) unsafe fn butterfly_level_wide(
        data: &mut [Gf2_128],
        half: usize,
        twiddles: &[Gf2_128],
        kind: Butterfly,
    ) {
        for (chunk, t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
            let (lo, hi) = chunk.split_at_mut(half);
            butterflies_wide(lo, hi, t.0, kind);
        }
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

// ---------------------------------------------------------------------------
// P-256 base field: Montgomery arithmetic with MULX/ADCX/ADOX.
//
// LLVM compiles the portable u128 limb code with `mul` (fixed rax/rdx) and
// materialises every carry with setb/movzx. MULX leaves the flags alone and
// ADCX/ADOX carry through CF and OF separately, so a row of the schoolbook
// product runs two independent carry chains: about 1.5 times fewer cycles.

/// Proof that the CPU has BMI2 and ADX, the only way to reach the P-256
/// assembly: [`P256Asm::detect`] is its sole constructor, so holding one
/// makes the kernels safe to call. Callers detect once per slice kernel
/// rather than once per product. Uninhabited off x86_64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256Asm(AsmWitness);

#[cfg(target_arch = "x86_64")]
type AsmWitness = ();
#[cfg(not(target_arch = "x86_64"))]
type AsmWitness = core::convert::Infallible;

impl P256Asm {
    /// The token if this CPU runs the assembly (cached detection).
    #[inline(always)]
    pub(crate) fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if adx::available() {
                return Some(Self(()));
            }
        }
        None
    }

    /// `a·b` as eight little-endian limbs (any 256-bit inputs).
    #[inline(always)]
    pub(crate) fn wide_mul(self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { p256_x86::wide_mul(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            match self.0 {}
        }
    }

    /// The Montgomery product `a·b·2⁻²⁵⁶ mod p` of reduced inputs, fully
    /// reduced.
    #[inline(always)]
    pub(crate) fn mont_mul(self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { p256_x86::mont_mul(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            match self.0 {}
        }
    }

    /// The Montgomery square `a²·2⁻²⁵⁶ mod p` of a reduced input, fully
    /// reduced.
    #[inline(always)]
    pub(crate) fn mont_square(self, a: &[u64; 4]) -> [u64; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { p256_x86::mont_square(a) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = a;
            match self.0 {}
        }
    }
}

/// `(a + b) mod p` for reduced P-256 inputs, in baseline x86_64
/// instructions (no detection needed): the sum with its carry, a copy minus
/// p, and CMOV of the copy unless the subtraction borrowed.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn p256_add(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    let [s0, s1, s2, s3] = *b;
    // SAFETY: register-only arithmetic on the declared operands, using
    // instructions every x86_64 CPU has.
    unsafe {
        core::arch::asm!(
            "xor {c:e}, {c:e}",
            "add {r0}, {s0}",
            "adc {r1}, {s1}",
            "adc {r2}, {s2}",
            "adc {r3}, {s3}",
            "adc {c}, 0",
            "mov {s0}, {r0}",
            "mov {s1}, {r1}",
            "mov {s2}, {r2}",
            "mov {s3}, {r3}",
            "sub {s0}, -1",
            "sbb {s1}, {p1}",
            "sbb {s2}, 0",
            "sbb {s3}, {p3}",
            "sbb {c}, 0",
            "cmovnc {r0}, {s0}",
            "cmovnc {r1}, {s1}",
            "cmovnc {r2}, {s2}",
            "cmovnc {r3}, {s3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            s0 = inout(reg) s0 => _,
            s1 = inout(reg) s1 => _,
            s2 = inout(reg) s2 => _,
            s3 = inout(reg) s3 => _,
            c = out(reg) _,
            p1 = in(reg) 0xffff_ffffu64,
            p3 = in(reg) 0xffff_ffff_0000_0001u64,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `(a − b) mod p` for reduced P-256 inputs, in baseline x86_64
/// instructions: the difference, then p masked by the borrow added back.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn p256_sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    let [s0, s1, s2, s3] = *b;
    // SAFETY: register-only arithmetic on the declared operands, using
    // instructions every x86_64 CPU has.
    unsafe {
        core::arch::asm!(
            "sub {r0}, {s0}",
            "sbb {r1}, {s1}",
            "sbb {r2}, {s2}",
            "sbb {r3}, {s3}",
            // m = all ones on borrow. p & m = (m, m mod 2^32, 0, p3 & m),
            // and p3 = −(2^32 − 1) mod 2^64, so p3 & m = −(m mod 2^32).
            "sbb {m}, {m}",
            "mov {s1:e}, {m:e}",
            "mov {s3}, {s1}",
            "neg {s3}",
            "add {r0}, {m}",
            "adc {r1}, {s1}",
            "adc {r2}, 0",
            "adc {r3}, {s3}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            s0 = in(reg) s0,
            s1 = inout(reg) s1 => _,
            s2 = in(reg) s2,
            s3 = inout(reg) s3 => _,
            m = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// Run-time detection of BMI2 (MULX) and ADX (ADCX/ADOX), cached like
/// [`detect`]; builds that already target such CPUs skip it.
#[cfg(target_arch = "x86_64")]
mod adx {
    const AT_COMPILE_TIME: bool = cfg!(all(target_feature = "bmi2", target_feature = "adx"));

    #[cfg(feature = "std")]
    #[inline(always)]
    pub(super) fn available() -> bool {
        use core::sync::atomic::AtomicU8;
        static STATE: AtomicU8 = AtomicU8::new(super::detect::UNKNOWN);
        AT_COMPILE_TIME
            || super::detect::cached_probe(&STATE, || {
                std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("adx")
            })
    }

    #[cfg(not(feature = "std"))]
    #[inline(always)]
    pub(super) fn available() -> bool {
        AT_COMPILE_TIME
    }
}

/// Assembly text for the P-256 kernels, shared by the product, the square
/// and the bare 512-bit product. Register operands: `{a}` and `{b}` point
/// at the inputs' limbs, `w0`…`w7` hold the 512-bit product, `t` and `h`
/// take each MULX's low and high word; rdx is MULX's implicit multiplier.
#[cfg(target_arch = "x86_64")]
mod p256_text {
    /// One row `w[i..=i+4] += a·rdx` for i ≥ 1: the low words of the four
    /// products ride the OF chain (ADOX), the high words the CF chain
    /// (ADCX). `$top` (w[i+4]) starts at zero, which also clears both flags;
    /// the last OF carry enters it through `t` zeroed by MOV (which keeps
    /// the flags). Neither chain carries out of w[i+4]: the partial product
    /// fits.
    macro_rules! row {
        ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $top:literal) => {
            concat!(
                "xor {",
                $top,
                ":e}, {",
                $top,
                ":e}\n",
                "mulx {h}, {t}, [{a}]\n",
                "adox {",
                $w0,
                "}, {t}\n",
                "adcx {",
                $w1,
                "}, {h}\n",
                "mulx {h}, {t}, [{a} + 8]\n",
                "adox {",
                $w1,
                "}, {t}\n",
                "adcx {",
                $w2,
                "}, {h}\n",
                "mulx {h}, {t}, [{a} + 16]\n",
                "adox {",
                $w2,
                "}, {t}\n",
                "adcx {",
                $w3,
                "}, {h}\n",
                "mulx {h}, {t}, [{a} + 24]\n",
                "adox {",
                $w3,
                "}, {t}\n",
                "adcx {",
                $top,
                "}, {h}\n",
                "mov {t:e}, 0\n",
                "adox {",
                $top,
                "}, {t}\n",
            )
        };
    }

    /// `w0…w7 = a·b`, row by row (b's limbs in rdx).
    macro_rules! product {
        () => {
            concat!(
                "mov rdx, [{b}]\n",
                "mulx {w1}, {w0}, [{a}]\n",
                "mulx {w2}, {t}, [{a} + 8]\n",
                "add {w1}, {t}\n",
                "mulx {w3}, {t}, [{a} + 16]\n",
                "adc {w2}, {t}\n",
                "mulx {w4}, {t}, [{a} + 24]\n",
                "adc {w3}, {t}\n",
                "adc {w4}, 0\n",
                "mov rdx, [{b} + 8]\n",
                $crate::arch::p256_text::row!("w1", "w2", "w3", "w4", "w5"),
                "mov rdx, [{b} + 16]\n",
                $crate::arch::p256_text::row!("w2", "w3", "w4", "w5", "w6"),
                "mov rdx, [{b} + 24]\n",
                $crate::arch::p256_text::row!("w3", "w4", "w5", "w6", "w7"),
            )
        };
    }

    /// `w0…w7 = a²`: the six cross products once, then doubled on the CF
    /// chain while the four squares go in on the OF chain.
    macro_rules! square {
        () => {
            concat!(
                // a0·(a1, a2, a3) into w1..w4.
                "mov rdx, [{a}]\n",
                "mulx {w2}, {w1}, [{a} + 8]\n",
                "mulx {w3}, {t}, [{a} + 16]\n",
                "add {w2}, {t}\n",
                "mulx {w4}, {t}, [{a} + 24]\n",
                "adc {w3}, {t}\n",
                "adc {w4}, 0\n",
                // a1·(a2, a3) into w3..w5; w7 = 0 serves as the zero.
                "mov rdx, [{a} + 8]\n",
                "xor {w7:e}, {w7:e}\n",
                "mulx {h}, {t}, [{a} + 16]\n",
                "adox {w3}, {t}\n",
                "adcx {w4}, {h}\n",
                "mulx {w5}, {t}, [{a} + 24]\n",
                "adox {w4}, {t}\n",
                "adcx {w5}, {w7}\n",
                "adox {w5}, {w7}\n",
                // a2·a3 into w5..w6.
                "mov rdx, [{a} + 16]\n",
                "mulx {w6}, {t}, [{a} + 24]\n",
                "add {w5}, {t}\n",
                "adc {w6}, 0\n",
                // 2·cross (CF) + squares (OF).
                "mov rdx, [{a}]\n",
                "xor {t:e}, {t:e}\n",
                "mulx {h}, {w0}, rdx\n",
                "adcx {w1}, {w1}\n",
                "adox {w1}, {h}\n",
                "mov rdx, [{a} + 8]\n",
                "mulx {h}, {t}, rdx\n",
                "adcx {w2}, {w2}\n",
                "adox {w2}, {t}\n",
                "adcx {w3}, {w3}\n",
                "adox {w3}, {h}\n",
                "mov rdx, [{a} + 16]\n",
                "mulx {h}, {t}, rdx\n",
                "adcx {w4}, {w4}\n",
                "adox {w4}, {t}\n",
                "adcx {w5}, {w5}\n",
                "adox {w5}, {h}\n",
                "mov rdx, [{a} + 24]\n",
                "mulx {h}, {t}, rdx\n",
                "adcx {w6}, {w6}\n",
                "adox {w6}, {t}\n",
                "adcx {w7}, {w7}\n",
                "adox {w7}, {h}\n",
            )
        };
    }

    /// One Montgomery step on the low half with m = `$m` (−p⁻¹ ≡ 1 mod
    /// 2^64): adding m·p zeroes `$m`'s limb, and the rest of m·p is
    /// m·2^96 (`m << 32` and `m >> 32` into the next two limbs) plus
    /// m·p₃·2^192. The window `$x1 $x2 $x3` absorbs it; hi(m·p₃) plus the
    /// carry becomes the new top limb `$hi` (it cannot overflow), `$lo` is
    /// scratch. p₃ is in `{a}`, `{b}` is scratch.
    macro_rules! redc_step {
        ($m:literal, $x1:literal, $x2:literal, $x3:literal, $hi:literal, $lo:literal) => {
            concat!(
                "mov rdx, {",
                $m,
                "}\n",
                "mulx {",
                $hi,
                "}, {",
                $lo,
                "}, {a}\n",
                "mov {b}, rdx\n",
                "shl {b}, 32\n",
                "shr rdx, 32\n",
                "add {",
                $x1,
                "}, {b}\n",
                "adc {",
                $x2,
                "}, rdx\n",
                "adc {",
                $x3,
                "}, {",
                $lo,
                "}\n",
                "adc {",
                $hi,
                "}, 0\n",
            )
        };
    }

    /// Montgomery reduction of `w0…w7` to `(h, t, w0, w1)`, fully reduced.
    /// Four steps turn the low half L into (L + M·p)/2^256 ≤ p; the high
    /// half H < p (as a·b < p²) is added, and one conditional subtraction
    /// (CMOV on the borrow) brings the sum, below 2p, under p. Overwrites
    /// `{a}` and `{b}`.
    macro_rules! reduce {
        () => {
            concat!(
                "mov {a}, 0xffffffff00000001\n",
                $crate::arch::p256_text::redc_step!("w0", "w1", "w2", "w3", "h", "t"),
                $crate::arch::p256_text::redc_step!("w1", "w2", "w3", "h", "t", "w0"),
                $crate::arch::p256_text::redc_step!("w2", "w3", "h", "t", "w0", "w1"),
                $crate::arch::p256_text::redc_step!("w3", "h", "t", "w0", "w1", "w2"),
                // (w2: carry, h, t, w0, w1) = reduced low half + H.
                "xor {w2:e}, {w2:e}\n",
                "add {h}, {w4}\n",
                "adc {t}, {w5}\n",
                "adc {w0}, {w6}\n",
                "adc {w1}, {w7}\n",
                "adc {w2}, 0\n",
                // Minus p = (2^64 − 1, 2^32 − 1, 0, p₃); keep the sum on borrow.
                "mov {w4}, {h}\n",
                "mov {w5}, {t}\n",
                "mov {w6}, {w0}\n",
                "mov {w7}, {w1}\n",
                "mov {b:e}, 0xffffffff\n",
                "sub {w4}, -1\n",
                "sbb {w5}, {b}\n",
                "sbb {w6}, 0\n",
                "sbb {w7}, {a}\n",
                "sbb {w2}, 0\n",
                "cmovnc {h}, {w4}\n",
                "cmovnc {t}, {w5}\n",
                "cmovnc {w0}, {w6}\n",
                "cmovnc {w1}, {w7}\n",
            )
        };
    }

    pub(crate) use {product, redc_step, reduce, row, square};
}

#[cfg(target_arch = "x86_64")]
mod p256_x86 {
    use core::arch::asm;

    /// # Safety
    /// The CPU must support BMI2 and ADX.
    #[inline(always)]
    pub(super) unsafe fn wide_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
        let (w0, w1, w2, w3, w4, w5, w6, w7): (u64, u64, u64, u64, u64, u64, u64, u64);
        // SAFETY: reads 32 bytes through each of two valid references and
        // writes only the declared registers; the caller guarantees the
        // instructions exist.
        unsafe {
            asm!(
                crate::arch::p256_text::product!(),
                a = in(reg) a.as_ptr(),
                b = in(reg) b.as_ptr(),
                w0 = out(reg) w0,
                w1 = out(reg) w1,
                w2 = out(reg) w2,
                w3 = out(reg) w3,
                w4 = out(reg) w4,
                w5 = out(reg) w5,
                w6 = out(reg) w6,
                w7 = out(reg) w7,
                t = out(reg) _,
                h = out(reg) _,
                out("rdx") _,
                options(pure, readonly, nostack),
            );
        }
        [w0, w1, w2, w3, w4, w5, w6, w7]
    }

    /// The Montgomery kernels: `$text` leaves a 512-bit value in
    /// `w0`…`w7` (reading through `{a}`, and through `{b}` if the text uses
    /// it, whose operand is `$b`), then `reduce!` brings it to the four
    /// result limbs `(h, t, w0, w1)`, overwriting `{a}` and `{b}`.
    macro_rules! mont_asm {
        ($text:expr, $a:expr, b = $($b:tt)+) => {{
            let (r0, r1, r2, r3): (u64, u64, u64, u64);
            asm!(
                $text,
                crate::arch::p256_text::reduce!(),
                a = inout(reg) $a => _,
                b = $($b)+,
                w0 = out(reg) r2,
                w1 = out(reg) r3,
                w2 = out(reg) _,
                w3 = out(reg) _,
                w4 = out(reg) _,
                w5 = out(reg) _,
                w6 = out(reg) _,
                w7 = out(reg) _,
                t = out(reg) r1,
                h = out(reg) r0,
                out("rdx") _,
                options(pure, readonly, nostack),
            );
            [r0, r1, r2, r3]
        }};
    }

    /// # Safety
    /// The CPU must support BMI2 and ADX.
    #[inline(always)]
    pub(super) unsafe fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        // SAFETY: as in `wide_mul`.
        unsafe {
            mont_asm!(
                crate::arch::p256_text::product!(),
                a.as_ptr(),
                b = inout(reg) b.as_ptr() => _
            )
        }
    }

    /// # Safety
    /// The CPU must support BMI2 and ADX.
    #[inline(always)]
    pub(super) unsafe fn mont_square(a: &[u64; 4]) -> [u64; 4] {
        // SAFETY: reads 32 bytes through a valid reference and writes only
        // the declared registers; the caller guarantees the instructions
        // exist.
        unsafe { mont_asm!(crate::arch::p256_text::square!(), a.as_ptr(), b = out(reg) _) }
    }
}
