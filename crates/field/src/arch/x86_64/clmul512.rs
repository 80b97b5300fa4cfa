//! GF(2^128) with AVX-512 VPCLMULQDQ: four 64×64 carry-less products per
//! instruction, four elements per 512-bit register. Tails shorter than a
//! register run on the 128-bit kernels.

use super::clmul128::{self, product, reduce, to_u128, to_vec, POLY};
use crate::{Butterfly, Gf2_128};
use core::arch::x86_64::{
    __m256i, __m512i, _mm256_loadu_si256, _mm512_broadcast_i32x4, _mm512_castsi256_si512,
    _mm512_clmulepi64_epi128 as clmul, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
    _mm512_permutex2var_epi64 as pick2, _mm512_permutexvar_epi64, _mm512_set_epi64,
    _mm512_setzero_si512, _mm512_shuffle_epi32, _mm512_storeu_si512, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi64, _mm512_xor_si512 as xor, _mm_set_epi64x, _mm_xor_si128,
};

/// Four elements from `s[..4]`.
///
/// The slice must hold at least four elements (checked).
#[inline]
#[target_feature(enable = "avx512f")]
fn load4(s: &[Gf2_128]) -> __m512i {
    assert!(s.len() >= 4);
    // SAFETY: `s` holds at least four 16-byte elements, 64 bytes
    // (`Gf2_128` is a transparent `u128`); the load has no alignment
    // requirement.
    unsafe { _mm512_loadu_si512(s.as_ptr().cast::<__m512i>()) }
}

/// Stores four elements into `s[..4]` (at least four, checked).
#[inline]
#[target_feature(enable = "avx512f")]
fn store4(s: &mut [Gf2_128], v: __m512i) {
    assert!(s.len() >= 4);
    // SAFETY: as in `load4`; every bit pattern is a valid element.
    unsafe { _mm512_storeu_si512(s.as_mut_ptr().cast::<__m512i>(), v) }
}

/// `Σ a_i·b_i`: the low, middle and high partial products are summed
/// lane-wise; the lanes and the scalar tail are folded together and
/// reduced once.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
    let n = a.len().min(b.len());
    let (mut lo, mut mid, mut hi) = (
        _mm512_setzero_si512(),
        _mm512_setzero_si512(),
        _mm512_setzero_si512(),
    );
    // Schoolbook: Karatsuba (as in the 256-bit `dot`) measured 5 % slower
    // here on Zen 4, where the 512-bit multiplier keeps up and the extra
    // shuffles do not, and adds a port-5 micro-op per product on Intel
    // cores; on Zen 5, whose multiplier is the bottleneck, it took 172
    // instead of 227 ns for 461 elements.
    for (x, y) in a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4)) {
        let (x, y) = (load4(x), load4(y));
        lo = xor(lo, clmul::<0x00>(x, y));
        hi = xor(hi, clmul::<0x11>(x, y));
        mid = xor(mid, clmul::<0x01>(x, y));
        mid = xor(mid, clmul::<0x10>(x, y));
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

/// Four unreduced products at once, lane by lane: [`product`] on
/// 512-bit registers, as (low, middle, high): schoolbook, for operands
/// that both change (see [`Factor`]).
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn products4(a: __m512i, b: __m512i) -> [__m512i; 3] {
    let lo = clmul::<0x00>(a, b);
    let hi = clmul::<0x11>(a, b);
    let mid = xor(clmul::<0x01>(a, b), clmul::<0x10>(a, b));
    [lo, mid, hi]
}

/// A factor shared by a whole loop (`axpy`'s `u`, a butterfly level's
/// twiddle, `lincomb2`'s coefficients), with its halves' sum taken once:
/// products by it then cost three multiplies (Karatsuba) instead of four,
/// for one shuffle and XOR of the other operand. Where both operands
/// change with every product ([`mul4`], `dot`) Karatsuba needs a second
/// shuffle: the schoolbook form measured as fast or faster on Zen 4 and
/// takes one port-5 micro-op less on Intel cores (on Zen 5, whose
/// multiplier is the bottleneck, Karatsuba took 0.60 instead of 0.71 ns
/// per `mul4` product: a choice to make per CPU, not made here).
#[derive(Clone, Copy)]
struct Factor {
    v: __m512i,
    halves: __m512i,
}

impl Factor {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn new(v: __m512i) -> Self {
        Self {
            v,
            halves: halves_sum(v),
        }
    }

    /// The unreduced products by `b`, lane by lane, as (low, middle, high).
    #[inline]
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    fn products(self, b: __m512i) -> [__m512i; 3] {
        let lo = clmul::<0x00>(self.v, b);
        let hi = clmul::<0x11>(self.v, b);
        let k = clmul::<0x00>(self.halves, halves_sum(b));
        [lo, xor(k, xor(lo, hi)), hi]
    }

    /// The reduced products by `b`.
    #[inline]
    #[target_feature(enable = "avx512f,vpclmulqdq")]
    fn mul(self, b: __m512i) -> __m512i {
        reduce4(self.products(b))
    }
}

/// `v₀ ⊕ v₁` in both halves of each 128-bit lane (0x4E swaps a lane's
/// two 64-bit halves). For a loop-invariant operand the compiler hoists it.
#[inline]
#[target_feature(enable = "avx512f")]
fn halves_sum(v: __m512i) -> __m512i {
    xor(v, _mm512_shuffle_epi32::<0x4E>(v))
}

/// [`reduce`] lane by lane on 512-bit registers.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn reduce4([lo, mid, hi]: [__m512i; 3]) -> __m512i {
    let zero = _mm512_setzero_si512();
    let poly = _mm512_broadcast_i32x4(_mm_set_epi64x(0, POLY));
    // Within each 128-bit lane: `unpacklo(0, v)` is v·x^64 truncated (v's
    // low word moved up), `unpackhi(v, 0)` is v / x^64.
    let up = |v| _mm512_unpacklo_epi64(zero, v);
    let down = |v| _mm512_unpackhi_epi64(v, zero);
    let lo = xor(lo, up(mid));
    let hi = xor(hi, down(mid));
    let t = clmul::<0x01>(hi, poly);
    let lo = xor(lo, up(t));
    let h0 = xor(hi, down(t));
    xor(lo, clmul::<0x00>(h0, poly))
}

/// Four reduced products at once, lane by lane.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
fn mul4(a: __m512i, b: __m512i) -> __m512i {
    reduce4(products4(a, b))
}

/// `y_i ← y_i + u·x_i`, four at a time.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn axpy(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
    let n = y.len().min(x.len());
    let uv = Factor::new(_mm512_broadcast_i32x4(to_vec(u)));
    let whole = n - n % 4;
    for (yc, xc) in y[..whole]
        .chunks_exact_mut(4)
        .zip(x[..whole].chunks_exact(4))
    {
        let r = xor(load4(yc), uv.mul(load4(xc)));
        store4(yc, r);
    }
    clmul128::axpy(&mut y[whole..n], u, &x[whole..n]);
}

/// `out_i ← a·x_i + b·y_i`, 4 at a time, one reduction per element.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn lincomb2(out: &mut [Gf2_128], a: u128, x: &[Gf2_128], b: u128, y: &[Gf2_128]) {
    let n = out.len().min(x.len()).min(y.len());
    let (av, bv) = (
        Factor::new(_mm512_broadcast_i32x4(to_vec(a))),
        Factor::new(_mm512_broadcast_i32x4(to_vec(b))),
    );
    let whole = n - n % 4;
    for ((oc, xc), yc) in out[..whole]
        .chunks_exact_mut(4)
        .zip(x[..whole].chunks_exact(4))
        .zip(y[..whole].chunks_exact(4))
    {
        let [l0, m0, h0] = av.products(load4(xc));
        let [l1, m1, h1] = bv.products(load4(yc));
        store4(oc, reduce4([xor(l0, l1), xor(m0, m1), xor(h0, h1)]));
    }
    clmul128::lincomb2(&mut out[whole..n], a, &x[whole..n], b, &y[whole..n]);
}

/// `x_i ← x_i·y_i`, four at a time.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
    let n = x.len().min(y.len());
    let whole = n - n % 4;
    for (xc, yc) in x[..whole]
        .chunks_exact_mut(4)
        .zip(y[..whole].chunks_exact(4))
    {
        let r = mul4(load4(xc), load4(yc));
        store4(xc, r);
    }
    clmul128::mul_assign(&mut x[whole..n], &y[whole..n]);
}

/// Butterflies between `lo` and `hi` with one twiddle, four pairs at a
/// time.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn butterflies(lo: &mut [Gf2_128], hi: &mut [Gf2_128], t: u128, kind: Butterfly) {
    let n = lo.len().min(hi.len());
    let whole = n - n % 4;
    let tv = Factor::new(_mm512_broadcast_i32x4(to_vec(t)));
    for (a4, c4) in lo[..whole]
        .chunks_exact_mut(4)
        .zip(hi[..whole].chunks_exact_mut(4))
    {
        let (a, c) = kind.on(load4(a4), load4(c4), |x, y| xor(x, y), |c| tv.mul(c));
        store4(a4, a);
        store4(c4, c);
    }
    clmul128::butterflies(&mut lo[whole..n], &mut hi[whole..n], t, kind);
}

/// One FFT level with halves of at least four elements, four pairs at a
/// time.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
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

/// One FFT level for halves of one or two elements: each eight elements
/// (four or two chunks) are regrouped into a vector of their four `lo`
/// elements and one of their four `hi` elements, with the matching
/// twiddles, and put back after the butterflies. Other halves take
/// [`butterfly_level`].
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn butterfly_level_small(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) {
    if half != 1 && half != 2 {
        return butterfly_level(data, half, twiddles, kind);
    }
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
        let (xs, ys) = block.split_at_mut(4);
        let (x, y) = (load4(xs), load4(ys));
        let t = if half == 1 {
            load4(tw)
        } else {
            // SAFETY: `tw` holds two 16-byte elements (`chunks_per_block`
            // is 2), 32 bytes; unaligned load.
            let pair = unsafe { _mm256_loadu_si256(tw.as_ptr().cast::<__m256i>()) };
            _mm512_permutexvar_epi64(spread_pairs, _mm512_castsi256_si512(pair))
        };
        let a = pick2(x, lo_idx, y);
        let c = pick2(x, hi_idx, y);
        let (a, c) = kind.on(a, c, |x, y| xor(x, y), |c| mul4(t, c));
        store4(xs, pick2(a, back_x, c));
        store4(ys, pick2(a, back_y, c));
    }
    let done = whole / (2 * half);
    for (chunk, t) in tail.chunks_exact_mut(2 * half).zip(&twiddles[done..]) {
        let (lo, hi) = chunk.split_at_mut(half);
        clmul128::butterflies(lo, hi, t.0, kind);
    }
}
