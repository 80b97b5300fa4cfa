//! GF(2^128) with VPCLMULQDQ on 256-bit AVX2 registers: two 64×64
//! carry-less products per instruction, two elements per register. For
//! CPUs with VPCLMULQDQ but without AVX-512 (AMD Zen 3, Intel Alder Lake
//! and later client cores), and for AVX-512 CPUs when the switch turns the
//! 512-bit paths off. Tails shorter than a register run on the 128-bit
//! kernels.

use super::clmul128::{self, product, reduce, to_u128, to_vec, POLY};
use crate::{Butterfly, Gf2_128};
use core::arch::x86_64::{
    __m256i, _mm256_broadcastsi128_si256, _mm256_castsi256_si128,
    _mm256_clmulepi64_epi128 as clmul, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_permute2x128_si256, _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256 as xor, _mm_set_epi64x,
    _mm_xor_si128,
};

/// Two elements from `s[..2]` (at least two, checked).
#[inline]
#[target_feature(enable = "avx2")]
fn load2(s: &[Gf2_128]) -> __m256i {
    assert!(s.len() >= 2);
    // SAFETY: `s` holds at least two 16-byte elements, 32 bytes
    // (`Gf2_128` is a transparent `u128`); the load has no alignment
    // requirement.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast::<__m256i>()) }
}

/// Stores two elements into `s[..2]` (at least two, checked).
#[inline]
#[target_feature(enable = "avx2")]
fn store2(s: &mut [Gf2_128], v: __m256i) {
    assert!(s.len() >= 2);
    // SAFETY: as in `load2`; every bit pattern is a valid element.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast::<__m256i>(), v) }
}

/// `Σ a_i·b_i`: partial products summed lane-wise, the two lanes and an
/// odd last term folded together, one reduction.
///
/// Karatsuba: each 128×128 product takes three carry-less multiplies
/// instead of four — `lo = a₀b₀`, `hi = a₁b₁` and `k = (a₀⊕a₁)(b₀⊕b₁)`,
/// the middle being `k ⊕ lo ⊕ hi`. All three are linear in each pair, so
/// `k` is summed on its own and the middle recovered once at the end. The
/// multiplier is what bounds this loop (the halves' XOR runs on other
/// ports), so a quarter fewer multiplies is a quarter less time.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn dot(a: &[Gf2_128], b: &[Gf2_128]) -> u128 {
    let n = a.len().min(b.len());
    // Two accumulator sets, so that consecutive iterations' XORs do not
    // wait on each other.
    let zero = _mm256_setzero_si256();
    let mut acc = [[zero; 3]; 2];
    let mut quads = a[..n].chunks_exact(4).zip(b[..n].chunks_exact(4));
    for (x, y) in &mut quads {
        for (set, off) in acc.iter_mut().zip([0, 2]) {
            let (x, y) = (load2(&x[off..]), load2(&y[off..]));
            add_karatsuba(set, x, y);
        }
    }
    let whole4 = n - n % 4;
    if n - whole4 >= 2 {
        let (x, y) = (load2(&a[whole4..]), load2(&b[whole4..]));
        add_karatsuba(&mut acc[0], x, y);
    }
    let fold = |i: usize| {
        let v = xor(acc[0][i], acc[1][i]);
        _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
    };
    let (lo, k, hi) = (fold(0), fold(1), fold(2));
    let mut parts = [lo, _mm_xor_si128(k, _mm_xor_si128(lo, hi)), hi];
    if n % 2 == 1 {
        let [l, m, h] = product(to_vec(a[n - 1].0), to_vec(b[n - 1].0));
        parts = [
            _mm_xor_si128(parts[0], l),
            _mm_xor_si128(parts[1], m),
            _mm_xor_si128(parts[2], h),
        ];
    }
    to_u128(reduce(parts))
}

/// Adds the Karatsuba parts of two lane-wise products into `set`:
/// `[Σ lo, Σ k, Σ hi]` (see [`dot`]).
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn add_karatsuba(set: &mut [__m256i; 3], x: __m256i, y: __m256i) {
    set[0] = xor(set[0], clmul::<0x00>(x, y));
    set[1] = xor(set[1], clmul::<0x00>(halves_sum(x), halves_sum(y)));
    set[2] = xor(set[2], clmul::<0x11>(x, y));
}

/// Two unreduced products at once, lane by lane: [`product`] on
/// 256-bit registers, as (low, middle, high): schoolbook (see
/// [`Factor`] for the three-multiply form).
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn products2(a: __m256i, b: __m256i) -> [__m256i; 3] {
    let lo = clmul::<0x00>(a, b);
    let hi = clmul::<0x11>(a, b);
    let mid = xor(clmul::<0x01>(a, b), clmul::<0x10>(a, b));
    [lo, mid, hi]
}

/// A factor shared by a whole loop (`axpy`'s `u`, a butterfly level's
/// twiddle, `lincomb2`'s coefficients), with its halves' sum taken once:
/// products by it then cost three multiplies (Karatsuba) instead of four,
/// for one shuffle and XOR of the other operand. `mul_assign` folds both
/// of its operands this way too (faster than schoolbook here, unlike in
/// the 512-bit kernel); the butterflies of one-element halves, whose
/// regrouping already loads the shuffle unit, keep [`mul2`].
#[derive(Clone, Copy)]
struct Factor {
    v: __m256i,
    halves: __m256i,
}

impl Factor {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(v: __m256i) -> Self {
        Self {
            v,
            halves: halves_sum(v),
        }
    }

    /// The unreduced products by `b`, lane by lane, as (low, middle, high).
    #[inline]
    #[target_feature(enable = "avx2,vpclmulqdq")]
    fn products(self, b: __m256i) -> [__m256i; 3] {
        let lo = clmul::<0x00>(self.v, b);
        let hi = clmul::<0x11>(self.v, b);
        let k = clmul::<0x00>(self.halves, halves_sum(b));
        [lo, xor(k, xor(lo, hi)), hi]
    }

    /// The reduced products by `b`.
    #[inline]
    #[target_feature(enable = "avx2,vpclmulqdq")]
    fn mul(self, b: __m256i) -> __m256i {
        reduce2(self.products(b))
    }
}

/// `v₀ ⊕ v₁` in both halves of each lane (0x4E swaps the two 64-bit
/// halves of a lane). For a loop-invariant operand the compiler hoists it.
#[inline]
#[target_feature(enable = "avx2")]
fn halves_sum(v: __m256i) -> __m256i {
    xor(v, _mm256_shuffle_epi32::<0x4E>(v))
}

/// [`reduce`] lane by lane on 256-bit registers.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn reduce2([lo, mid, hi]: [__m256i; 3]) -> __m256i {
    let zero = _mm256_setzero_si256();
    let poly = _mm256_broadcastsi128_si256(_mm_set_epi64x(0, POLY));
    // Within each 128-bit lane: `unpacklo(0, v)` is v·x^64 truncated (v's
    // low word moved up), `unpackhi(v, 0)` is v / x^64.
    let up = |v| _mm256_unpacklo_epi64(zero, v);
    let down = |v| _mm256_unpackhi_epi64(v, zero);
    let lo = xor(lo, up(mid));
    let hi = xor(hi, down(mid));
    let t = clmul::<0x01>(hi, poly);
    let lo = xor(lo, up(t));
    let h0 = xor(hi, down(t));
    xor(lo, clmul::<0x00>(h0, poly))
}

/// Two reduced products at once, lane by lane.
#[inline]
#[target_feature(enable = "avx2,vpclmulqdq")]
fn mul2(a: __m256i, b: __m256i) -> __m256i {
    reduce2(products2(a, b))
}

/// `y_i ← y_i + u·x_i`, two at a time.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn axpy(y: &mut [Gf2_128], u: u128, x: &[Gf2_128]) {
    let n = y.len().min(x.len());
    let uv = Factor::new(_mm256_broadcastsi128_si256(to_vec(u)));
    let whole = n - n % 2;
    for (yc, xc) in y[..whole]
        .chunks_exact_mut(2)
        .zip(x[..whole].chunks_exact(2))
    {
        let r = xor(load2(yc), uv.mul(load2(xc)));
        store2(yc, r);
    }
    clmul128::axpy(&mut y[whole..n], u, &x[whole..n]);
}

/// `out_i ← a·x_i + b·y_i`, 2 at a time, one reduction per element.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn lincomb2(out: &mut [Gf2_128], a: u128, x: &[Gf2_128], b: u128, y: &[Gf2_128]) {
    let n = out.len().min(x.len()).min(y.len());
    let (av, bv) = (
        Factor::new(_mm256_broadcastsi128_si256(to_vec(a))),
        Factor::new(_mm256_broadcastsi128_si256(to_vec(b))),
    );
    let whole = n - n % 2;
    for ((oc, xc), yc) in out[..whole]
        .chunks_exact_mut(2)
        .zip(x[..whole].chunks_exact(2))
        .zip(y[..whole].chunks_exact(2))
    {
        let [l0, m0, h0] = av.products(load2(xc));
        let [l1, m1, h1] = bv.products(load2(yc));
        store2(oc, reduce2([xor(l0, l1), xor(m0, m1), xor(h0, h1)]));
    }
    clmul128::lincomb2(&mut out[whole..n], a, &x[whole..n], b, &y[whole..n]);
}

/// `x_i ← x_i·y_i`, two at a time.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn mul_assign(x: &mut [Gf2_128], y: &[Gf2_128]) {
    let n = x.len().min(y.len());
    let whole = n - n % 2;
    for (xc, yc) in x[..whole]
        .chunks_exact_mut(2)
        .zip(y[..whole].chunks_exact(2))
    {
        // Karatsuba with both operands folded: 13 % faster than
        // schoolbook here (unlike the 512-bit kernel's).
        let r = Factor::new(load2(xc)).mul(load2(yc));
        store2(xc, r);
    }
    clmul128::mul_assign(&mut x[whole..n], &y[whole..n]);
}

/// Butterflies between `lo` and `hi` with one twiddle, two pairs at a
/// time.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn butterflies(lo: &mut [Gf2_128], hi: &mut [Gf2_128], t: u128, kind: Butterfly) {
    let n = lo.len().min(hi.len());
    let whole = n - n % 2;
    let tv = Factor::new(_mm256_broadcastsi128_si256(to_vec(t)));
    for (a2, c2) in lo[..whole]
        .chunks_exact_mut(2)
        .zip(hi[..whole].chunks_exact_mut(2))
    {
        let (a, c) = kind.on(load2(a2), load2(c2), |x, y| xor(x, y), |c| tv.mul(c));
        store2(a2, a);
        store2(c2, c);
    }
    clmul128::butterflies(&mut lo[whole..n], &mut hi[whole..n], t, kind);
}

/// One FFT level. Halves of two or more elements fill whole registers;
/// halves of one element are regrouped two chunks at a time: `[a0 c0]`
/// and `[a1 c1]` become `[a0 a1]` and `[c0 c1]` with twiddles `[t0 t1]`,
/// and are put back after the butterflies.
#[target_feature(enable = "avx2,vpclmulqdq,pclmulqdq,sse2")]
pub(crate) fn butterfly_level(
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) {
    if half >= 2 {
        for (chunk, t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
            let (lo, hi) = chunk.split_at_mut(half);
            butterflies(lo, hi, t.0, kind);
        }
        return;
    }
    if half != 1 {
        return clmul128::butterfly_level(data, half, twiddles, kind);
    }
    let whole = data.len() / 4 * 4;
    let (head, tail) = data.split_at_mut(whole);
    for (block, tw) in head.chunks_exact_mut(4).zip(twiddles.chunks_exact(2)) {
        let (xs, ys) = block.split_at_mut(2);
        let (x, y) = (load2(xs), load2(ys));
        // 0x20: low lanes of both; 0x31: high lanes of both.
        let a = _mm256_permute2x128_si256::<0x20>(x, y);
        let c = _mm256_permute2x128_si256::<0x31>(x, y);
        let t = load2(tw);
        let (a, c) = kind.on(a, c, |x, y| xor(x, y), |c| mul2(t, c));
        store2(xs, _mm256_permute2x128_si256::<0x20>(a, c));
        store2(ys, _mm256_permute2x128_si256::<0x31>(a, c));
    }
    let done = whole / 2;
    for (chunk, t) in tail.chunks_exact_mut(2).zip(&twiddles[done..]) {
        let (lo, hi) = chunk.split_at_mut(1);
        clmul128::butterflies(lo, hi, t.0, kind);
    }
}
