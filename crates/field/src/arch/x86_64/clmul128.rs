//! GF(2^128) with PCLMULQDQ: one 64×64 carry-less product per instruction
//! on 128-bit registers. The products of the wider paths' short tails run
//! here too.
//!
//! Each kernel is a safe `#[target_feature]` function: calling it is
//! `unsafe` only from code compiled without those features, which
//! [`crate::arch`] does after the selection confirmed the CPU has them.

use crate::{Butterfly, Gf2_128};
use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_set_epi64x, _mm_shuffle_epi32, _mm_slli_si128,
    _mm_srli_si128, _mm_xor_si128,
};

/// x^128 ≡ x^7 + x^2 + x + 1, as a 64-bit carry-less multiplier.
pub(super) const POLY: i64 = 0x87;

#[inline(always)]
pub(crate) fn to_u128(v: __m128i) -> u128 {
    // SAFETY: `__m128i` and `u128` are both 16 bytes of plain data with no
    // invalid bit patterns; on little-endian x86_64 lane 0 becomes the low
    // 64 bits.
    unsafe { core::mem::transmute::<__m128i, u128>(v) }
}

#[inline(always)]
pub(crate) fn to_vec(v: u128) -> __m128i {
    // SAFETY: as in `to_u128`, in the other direction.
    unsafe { core::mem::transmute::<u128, __m128i>(v) }
}

/// Unreduced product as three 128-bit parts (low, middle, high): the
/// 256-bit value is `low ⊕ middle·x^64 ⊕ high·x^128`. Products can be
/// summed part-wise before a single [`reduce`].
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(super) fn product(a: __m128i, b: __m128i) -> [__m128i; 3] {
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
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(super) fn reduce([lo, mid, hi]: [__m128i; 3]) -> __m128i {
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
    let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
    let poly = _mm_set_epi64x(0, POLY);
    // hi = h0 + h1·x^64. h1·x^192 ≡ (h1·POLY)·x^64: its low word lands in
    // lo's top half, its ≤ 7 high bits join h0 at x^128.
    let t = _mm_clmulepi64_si128::<0x01>(hi, poly);
    let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(t));
    let h0 = _mm_xor_si128(hi, _mm_srli_si128::<8>(t));
    // h0·x^128 ≡ h0·POLY, at most 71 bits.
    _mm_xor_si128(lo, _mm_clmulepi64_si128::<0x00>(h0, poly))
}

/// `v₀ ⊕ v₁` in both 64-bit halves (0x4E swaps the halves): the operand
/// of Karatsuba's middle multiply.
#[inline]
#[target_feature(enable = "sse2")]
fn halves_sum(v: __m128i) -> __m128i {
    _mm_xor_si128(v, _mm_shuffle_epi32::<0x4e>(v))
}

/// [`product`] by Karatsuba: three carry-less multiplies instead of four,
/// the middle part recovered as `(a₀+a₁)(b₀+b₁) + a₀b₀ + a₁b₁`. Used only
/// with a factor fixed for the whole loop ([`Factor`]), whose halves' sum
/// is taken once: a product then trades one multiply for one shuffle of
/// the other operand. The slice kernels' products are independent, so on
/// Zen 5 they are bound by the multiplier's throughput and the trade pays
/// (`axpy` 2.83 → 2.30 ns per product); on Intel cores before Ice Lake,
/// the CPUs that take this path by default, multiplies and shuffles share
/// port 5 and the trade is even. Where both operands change (`mul_assign`)
/// Karatsuba needs two shuffles per product, one more port-5 micro-op
/// there, so that kernel takes the form the kernel selection chose for the
/// CPU (see [`mul_assign`]).
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
fn product_karatsuba(a: __m128i, b: __m128i, a_halves: __m128i) -> [__m128i; 3] {
    let lo = _mm_clmulepi64_si128::<0x00>(a, b);
    let hi = _mm_clmulepi64_si128::<0x11>(a, b);
    let k = _mm_clmulepi64_si128::<0x00>(a_halves, halves_sum(b));
    [lo, _mm_xor_si128(k, _mm_xor_si128(lo, hi)), hi]
}

/// A factor shared by a whole loop (`axpy`'s `u`, `lincomb2`'s
/// coefficients, the butterflies' twiddle), its halves' sum taken once
/// for [`product_karatsuba`].
#[derive(Clone, Copy)]
struct Factor {
    v: __m128i,
    halves: __m128i,
}

impl Factor {
    #[inline]
    #[target_feature(enable = "sse2")]
    fn new(v: u128) -> Self {
        let v = to_vec(v);
        Self {
            v,
            halves: halves_sum(v),
        }
    }

    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn products(self, b: __m128i) -> [__m128i; 3] {
        product_karatsuba(self.v, b, self.halves)
    }

    #[inline]
    #[target_feature(enable = "pclmulqdq,sse2")]
    fn mul(self, b: u128) -> u128 {
        to_u128(reduce(self.products(to_vec(b))))
    }
}

/// [`product`] as inline assembly, for the same reason as [`mul_inline`]:
/// the parts (low, middle, high) of the unreduced product.
///
/// # Safety
/// The CPU must support PCLMULQDQ (SSE2 is part of x86_64).
#[inline(always)]
pub(crate) unsafe fn product_inline(a: u128, b: u128) -> [__m128i; 3] {
    let (lo, mid, hi): (__m128i, __m128i, __m128i);
    // SAFETY: register-only arithmetic on the declared operands; the
    // caller guarantees PCLMULQDQ exists.
    unsafe {
        core::arch::asm!(
            "movdqa {lo}, {a}",
            "pclmulqdq {lo}, {b}, 0x00",
            "movdqa {hi}, {a}",
            "pclmulqdq {hi}, {b}, 0x11",
            "movdqa {mid}, {a}",
            "pclmulqdq {mid}, {b}, 0x01",
            "pclmulqdq {a}, {b}, 0x10",
            "pxor {mid}, {a}",
            a = inout(xmm_reg) to_vec(a) => _,
            b = in(xmm_reg) to_vec(b),
            lo = out(xmm_reg) lo,
            mid = out(xmm_reg) mid,
            hi = out(xmm_reg) hi,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    [lo, mid, hi]
}

/// [`reduce`] as inline assembly (see [`mul_inline`]).
///
/// # Safety
/// The CPU must support PCLMULQDQ (SSE2 is part of x86_64).
#[inline(always)]
pub(crate) unsafe fn reduce_inline([lo, mid, hi]: [__m128i; 3]) -> u128 {
    let poly = to_vec(POLY as u128);
    let out: __m128i;
    // SAFETY: register-only arithmetic on the declared operands; the
    // caller guarantees PCLMULQDQ exists.
    unsafe {
        core::arch::asm!(
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
            lo = inout(xmm_reg) lo => out,
            mid = inout(xmm_reg) mid => _,
            hi = inout(xmm_reg) hi => _,
            poly = in(xmm_reg) poly,
            t = out(xmm_reg) _,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    to_u128(out)
}

/// The reduced product as inline assembly, so that it inlines into callers
/// compiled without the `pclmulqdq` target feature (a `#[target_feature]`
/// function cannot), leaving one well-predicted branch on the cached
/// selection per product: [`product_inline`] then [`reduce_inline`], the
/// parts passed in registers.
///
/// # Safety
/// The CPU must support PCLMULQDQ (SSE2 is part of x86_64).
#[inline(always)]
pub(crate) unsafe fn mul_inline(a: u128, b: u128) -> u128 {
    // SAFETY: the caller guarantees PCLMULQDQ, which both need.
    unsafe { reduce_inline(product_inline(a, b)) }
}

/// `Σ a_i·b_i` with one reduction.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
    // Karatsuba with the middle term fixed up once at the end: sum a0·b0,
    // a1·b1 and (a0+a1)·(b0+b1) separately (3 multiplications per term
    // instead of 4); middle = Σ(a0+a1)(b0+b1) + Σa0b0 + Σa1b1. Two
    // independent accumulator sets keep both multipliers busy.
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

/// Adds a0·b0, (a0+a1)·(b0+b1) and a1·b1 into `acc`.
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
fn karatsuba_accumulate(acc: &mut [__m128i; 3], a: __m128i, b: __m128i) {
    let (a_sum, b_sum) = (halves_sum(a), halves_sum(b));
    acc[0] = _mm_xor_si128(acc[0], _mm_clmulepi64_si128::<0x00>(a, b));
    acc[1] = _mm_xor_si128(acc[1], _mm_clmulepi64_si128::<0x00>(a_sum, b_sum));
    acc[2] = _mm_xor_si128(acc[2], _mm_clmulepi64_si128::<0x11>(a, b));
}

/// `y_i ← y_i + u·x_i`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn axpy(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
    let u = Factor::new(u);
    for (a, b) in y.iter_mut().zip(x) {
        a.0 ^= u.mul(b.0);
    }
}

/// `out_i ← a·x_i + b·y_i`, one reduction per element.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn lincomb2(out: &mut [Gf2_128], a: u128, x: &[Gf2_128], b: u128, y: &[Gf2_128]) {
    let (a, b) = (Factor::new(a), Factor::new(b));
    for ((o, p), q) in out.iter_mut().zip(x).zip(y) {
        let [l0, m0, h0] = a.products(to_vec(p.0));
        let [l1, m1, h1] = b.products(to_vec(q.0));
        let parts = [
            _mm_xor_si128(l0, l1),
            _mm_xor_si128(m0, m1),
            _mm_xor_si128(h0, h1),
        ];
        o.0 = to_u128(reduce(parts));
    }
}

/// `x_i ← x_i·y_i`, in the form the kernel selection chose for this CPU
/// (`KernelInfo::gf2_karatsuba_both`: Karatsuba on AMD cores, whose
/// carry-less multiplier is the scarce unit; schoolbook elsewhere, where
/// Karatsuba's second shuffle is one more port-5 micro-op).
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
    if crate::arch::select::gf2_karatsuba_both() {
        mul_assign_karatsuba(x, y);
    } else {
        mul_assign_schoolbook(x, y);
    }
}

/// `x_i ← x_i·y_i` with four carry-less multiplies per product.
#[target_feature(enable = "pclmulqdq,sse2")]
fn mul_assign_schoolbook(x: &mut [Gf2_128], y: &[Gf2_128]) {
    for (a, b) in x.iter_mut().zip(y) {
        a.0 = to_u128(reduce(product(to_vec(a.0), to_vec(b.0))));
    }
}

/// `x_i ← x_i·y_i` by Karatsuba: each `x_i` taken as a [`Factor`] for one
/// product, three multiplies and two shuffles.
#[target_feature(enable = "pclmulqdq,sse2")]
fn mul_assign_karatsuba(x: &mut [Gf2_128], y: &[Gf2_128]) {
    for (a, b) in x.iter_mut().zip(y) {
        a.0 = Factor::new(a.0).mul(b.0);
    }
}

/// Butterflies between `lo` and `hi` with one twiddle.
#[inline]
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn butterflies(lo: &mut [Gf2_128], hi: &mut [Gf2_128], t: u128, kind: Butterfly) {
    let t = Factor::new(t);
    let pairs = lo.iter_mut().zip(hi.iter_mut());
    // The additions stay in vector registers with the product: moving
    // each product to general registers for a `u128` XOR cost as much as
    // Karatsuba's saved multiply.
    let by_t = |v: __m128i| reduce(t.products(v));
    for (a, c) in pairs {
        let (av, cv) = kind.on(to_vec(a.0), to_vec(c.0), |x, y| _mm_xor_si128(x, y), by_t);
        (a.0, c.0) = (to_u128(av), to_u128(cv));
    }
}

/// One FFT level: chunk `i` of `2·half` elements uses `twiddles[i]`.
#[target_feature(enable = "pclmulqdq,sse2")]
pub(crate) fn butterfly_level(
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

#[cfg(test)]
mod tests {
    use super::*;
    use longfellow_test_rng::XorShift64;

    fn have() -> bool {
        std::arch::is_x86_feature_detected!("pclmulqdq")
    }

    /// Operands with every bit pattern class: zero, all ones, single high
    /// and low bits, and pseudo-random ones.
    fn values(n: usize, seed: u64) -> Vec<Gf2_128> {
        let mut rng = XorShift64(seed);
        let mut v: Vec<Gf2_128> = (0..n)
            .map(|_| Gf2_128::from_u128(rng.next_u128()))
            .collect();
        for (i, e) in [0, u128::MAX, 1, 1 << 127, 1 << 63, 1 << 64]
            .into_iter()
            .enumerate()
        {
            v[i] = Gf2_128::from_u128(e);
        }
        v
    }

    /// Both forms of `mul_assign`, whichever the selection takes here,
    /// against the portable product.
    #[test]
    fn both_mul_assign_forms_match_the_portable_product() {
        if !have() {
            return;
        }
        let (x, y) = (values(67, 1), values(67, 2));
        let want: Vec<Gf2_128> = x.iter().zip(&y).map(|(a, b)| a.mul_portable(*b)).collect();
        type Form = unsafe fn(&mut [Gf2_128], &[Gf2_128]);
        let forms: [Form; 2] = [mul_assign_schoolbook, mul_assign_karatsuba];
        for form in forms {
            let mut got = x.clone();
            // SAFETY: `have()` confirmed PCLMULQDQ; SSE2 is part of x86_64.
            unsafe { form(&mut got, &y) };
            assert_eq!(got, want);
        }
    }
}
