//! P-256 base-field slice products on AVX-512 IFMA: eight Montgomery
//! products at once, one per 64-bit lane, in radix 2^52.
//!
//! `VPMADD52LUQ`/`VPMADD52HUQ` add the low or high 52 bits of a 52×52-bit
//! product to each lane, so an element is five 52-bit limbs (260 bits) and
//! a product is 25 limb products, each taken twice (low and high half),
//! against the MULX kernel's 16 full products on one element at a time.
//!
//! The elements stay in the field's own representation (four 64-bit limbs,
//! Montgomery form with R = 2^256): each block of eight is transposed to
//! limb-major vectors and split into 52-bit limbs on the way in, and
//! joined and transposed back on the way out. Montgomery reduction in
//! radix 2^52 divides by 2^260, not 2^256; scaling one operand by 16 while
//! splitting it (a shift, no product) makes up the difference:
//! `ã·(16·b̃)·2⁻²⁶⁰ = ã·b̃·2⁻²⁵⁶`. With `ã < p` and `16·b̃ < 2^260` the
//! reduced value is below `2p`, one conditional subtraction from `[0, p)`.
//!
//! P-256's prime is `−1 mod 2^52`, so `−p⁻¹ mod 2^52 = 1` and each
//! reduction digit is the low limb itself; of the prime's five limbs one
//! is zero and the lowest (`2^52 − 1`) folds into a carry, so a reduction
//! step takes six multiply-adds.

use core::arch::x86_64::*;

/// Elements per block: one per 64-bit lane of a 512-bit register.
pub(crate) const LANES: usize = 8;

const MASK52: u64 = (1 << 52) - 1;

/// P-256's prime in radix 2^52: `[2^52 − 1, 2^44 − 1, 0, 2^36, 2^48 − 2^16]`.
const P52: [u64; 5] = [MASK52, (1 << 44) - 1, 0, 1 << 36, 0xffff_ffff_0000];

/// Five 52-bit limbs of eight elements, limb-major.
type Limbs = [__m512i; 5];

/// Four 64-bit limbs of eight elements, limb-major.
type Words = [__m512i; 4];

/// Eight elements' limbs, one block of a kernel's slices.
type Block = [[u64; 4]; LANES];

/// Loads a block and transposes it to limb-major.
#[inline]
#[target_feature(enable = "avx512f")]
fn load8(src: &Block) -> Words {
    let p = src.as_ptr().cast::<__m512i>();
    // SAFETY: a block is 256 contiguous bytes: four unaligned 512-bit
    // loads.
    let (z0, z1, z2, z3) = unsafe {
        (
            _mm512_loadu_si512(p),
            _mm512_loadu_si512(p.add(1)),
            _mm512_loadu_si512(p.add(2)),
            _mm512_loadu_si512(p.add(3)),
        )
    };
    // Limbs 0 and 1 of elements 0–3 (from z0:z1) and 4–7 (from z2:z3).
    let lo01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0);
    let lo23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
    let a01 = _mm512_permutex2var_epi64(z0, lo01, z1);
    let b01 = _mm512_permutex2var_epi64(z2, lo01, z3);
    let a23 = _mm512_permutex2var_epi64(z0, lo23, z1);
    let b23 = _mm512_permutex2var_epi64(z2, lo23, z3);
    let first = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    let second = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    [
        _mm512_permutex2var_epi64(a01, first, b01),
        _mm512_permutex2var_epi64(a01, second, b01),
        _mm512_permutex2var_epi64(a23, first, b23),
        _mm512_permutex2var_epi64(a23, second, b23),
    ]
}

/// Transposes limb-major words back and stores them as a block.
#[inline]
#[target_feature(enable = "avx512f")]
fn store8(dst: &mut Block, w: Words) {
    // Elements 0–3 interleave limbs (0, 1) and (2, 3) of lanes 0–3.
    let lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
    let hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    let e01_lo = _mm512_permutex2var_epi64(w[0], lo, w[1]); // l0,l1 of e0..e3
    let e01_hi = _mm512_permutex2var_epi64(w[0], hi, w[1]); // l0,l1 of e4..e7
    let e23_lo = _mm512_permutex2var_epi64(w[2], lo, w[3]);
    let e23_hi = _mm512_permutex2var_epi64(w[2], hi, w[3]);
    // Element j (of four) takes two words from each: (l0, l1) then (l2, l3).
    let first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);
    let second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    let z0 = _mm512_permutex2var_epi64(e01_lo, first, e23_lo);
    let z1 = _mm512_permutex2var_epi64(e01_lo, second, e23_lo);
    let z2 = _mm512_permutex2var_epi64(e01_hi, first, e23_hi);
    let z3 = _mm512_permutex2var_epi64(e01_hi, second, e23_hi);
    let p = dst.as_mut_ptr().cast::<__m512i>();
    // SAFETY: a block is 256 contiguous bytes.
    unsafe {
        _mm512_storeu_si512(p, z0);
        _mm512_storeu_si512(p.add(1), z1);
        _mm512_storeu_si512(p.add(2), z2);
        _mm512_storeu_si512(p.add(3), z3);
    }
}

/// Splits 256-bit words into 52-bit limbs, multiplied by `2^shift`
/// (`shift` 0 or 4; the value must stay below 2^260).
#[inline]
#[target_feature(enable = "avx512f")]
fn split<const SHIFT: u32>(w: Words) -> Limbs {
    let m = _mm512_set1_epi64(MASK52 as i64);
    let or_shift = |lo: __m512i, hi: __m512i, k: u32| {
        // (hi:lo) >> k, for 0 < k < 64, then masked.
        _mm512_and_si512(
            _mm512_or_si512(
                _mm512_srlv_epi64(lo, _mm512_set1_epi64(i64::from(k))),
                _mm512_sllv_epi64(hi, _mm512_set1_epi64(i64::from(64 - k))),
            ),
            m,
        )
    };
    [
        _mm512_and_si512(
            _mm512_sllv_epi64(w[0], _mm512_set1_epi64(i64::from(SHIFT))),
            m,
        ),
        or_shift(w[0], w[1], 52 - SHIFT),
        or_shift(w[1], w[2], 40 - SHIFT),
        or_shift(w[2], w[3], 28 - SHIFT),
        _mm512_srlv_epi64(w[3], _mm512_set1_epi64(i64::from(16 - SHIFT))),
    ]
}

/// Joins 52-bit limbs (a value below 2^256) into 64-bit words.
#[inline]
#[target_feature(enable = "avx512f")]
fn join(l: Limbs) -> Words {
    let sh = |x: __m512i, k: u32| _mm512_sllv_epi64(x, _mm512_set1_epi64(i64::from(k)));
    let sr = |x: __m512i, k: u32| _mm512_srlv_epi64(x, _mm512_set1_epi64(i64::from(k)));
    [
        _mm512_or_si512(l[0], sh(l[1], 52)),
        _mm512_or_si512(sr(l[1], 12), sh(l[2], 40)),
        _mm512_or_si512(sr(l[2], 24), sh(l[3], 28)),
        _mm512_or_si512(sr(l[3], 36), sh(l[4], 16)),
    ]
}

/// The unreduced product `a·b` of eight lanes added into `t` (ten
/// limb columns): each column takes at most ten 52-bit halves per
/// product, so a few products can share `t` before [`mont_reduce`].
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul_add_wide(t: &mut [__m512i; 10], a: &Limbs, b: &Limbs) {
    for i in 0..5 {
        for j in 0..5 {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[i], b[j]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[i], b[j]);
        }
    }
}

/// Montgomery reduction: `(t + M·p)·2⁻²⁶⁰` for the `M < 2^260` that makes
/// it exact, so congruent to `t·2⁻²⁶⁰` and below `t·2⁻²⁶⁰ + p`,
/// normalised to 52-bit limbs (the top limb keeps what is above 2^208).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mont_reduce(mut t: [__m512i; 10]) -> Limbs {
    let m52 = _mm512_set1_epi64(MASK52 as i64);
    let p1 = _mm512_set1_epi64(P52[1] as i64);
    let p3 = _mm512_set1_epi64(P52[3] as i64);
    let p4 = _mm512_set1_epi64(P52[4] as i64);
    for i in 0..5 {
        // m = t_i mod 2^52; adding m·p clears limb i. Its lowest limb
        // product m·(2^52 − 1) = m·2^52 − m: with t_i − m = (t_i >> 52)·2^52
        // that carries (t_i >> 52) + m into limb i + 1.
        let m = _mm512_and_si512(t[i], m52);
        let carry = _mm512_add_epi64(_mm512_srli_epi64::<52>(t[i]), m);
        t[i + 1] = _mm512_add_epi64(t[i + 1], carry);
        t[i + 1] = _mm512_madd52lo_epu64(t[i + 1], m, p1);
        t[i + 2] = _mm512_madd52hi_epu64(t[i + 2], m, p1);
        t[i + 3] = _mm512_madd52lo_epu64(t[i + 3], m, p3);
        t[i + 4] = _mm512_madd52hi_epu64(t[i + 4], m, p3);
        t[i + 4] = _mm512_madd52lo_epu64(t[i + 4], m, p4);
        t[i + 5] = _mm512_madd52hi_epu64(t[i + 5], m, p4);
    }
    normalise([t[5], t[6], t[7], t[8], t[9]])
}

/// Carries every limb's excess into the next one.
#[inline]
#[target_feature(enable = "avx512f")]
fn normalise(mut r: Limbs) -> Limbs {
    let m52 = _mm512_set1_epi64(MASK52 as i64);
    for k in 0..4 {
        r[k + 1] = _mm512_add_epi64(r[k + 1], _mm512_srli_epi64::<52>(r[k]));
        r[k] = _mm512_and_si512(r[k], m52);
    }
    r
}

/// Limb-wise `a + b`, normalised.
#[inline]
#[target_feature(enable = "avx512f")]
fn add(a: &Limbs, b: &Limbs) -> Limbs {
    let mut s = *a;
    for (x, y) in s.iter_mut().zip(b) {
        *x = _mm512_add_epi64(*x, *y);
    }
    normalise(s)
}

/// `r − p` where that does not borrow, else `r` (normalised limbs, the
/// top one below 2^53): for `r < 2p` the result is `r mod p`.
#[inline]
#[target_feature(enable = "avx512f")]
fn subtract_p_once(r: Limbs) -> Limbs {
    let m52 = _mm512_set1_epi64(MASK52 as i64);
    let mut s = [_mm512_setzero_si512(); 5];
    let mut borrow = _mm512_setzero_si512();
    for k in 0..5 {
        // Limbs are below 2^53, so a difference with borrow is in
        // (−2^53, 2^53): its sign bit is the borrow out.
        let d = _mm512_sub_epi64(
            _mm512_sub_epi64(r[k], _mm512_set1_epi64(P52[k] as i64)),
            borrow,
        );
        borrow = _mm512_srli_epi64::<63>(d);
        s[k] = _mm512_and_si512(d, m52);
    }
    // Lanes whose subtraction borrowed had r < p: they keep r.
    let keep_r = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
    let mut out = s;
    for k in 0..5 {
        out[k] = _mm512_mask_blend_epi64(keep_r, s[k], r[k]);
    }
    out
}

/// Eight Montgomery residues `ã·b̃·2⁻²⁵⁶ mod p`, fully reduced: `a` split
/// as is, `b` split times 16 (see the module documentation).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mont_mul(a: &Limbs, b16: &Limbs) -> Limbs {
    let mut t = [_mm512_setzero_si512(); 10];
    mul_add_wide(&mut t, a, b16);
    // ã < p and 16·b̃ < 16p: below 2p after reduction.
    subtract_p_once(mont_reduce(t))
}

/// `x_i ← x_i·y_i` for the first `8·⌊len/8⌋` elements; returns how many
/// were done.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA; every element must be
/// a fully reduced Montgomery residue.
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn mul_assign_slice(x: &mut [[u64; 4]], y: &[[u64; 4]]) -> usize {
    let (xb, yb) = (x.as_chunks_mut::<LANES>().0, y.as_chunks::<LANES>().0);
    for (xc, yc) in xb.iter_mut().zip(yb) {
        let a = split::<0>(load8(xc));
        let b = split::<4>(load8(yc));
        store8(xc, join(mont_mul(&a, &b)));
    }
    xb.len().min(yb.len()) * LANES
}

/// Eight copies of one element, split times 16.
#[inline]
#[target_feature(enable = "avx512f")]
fn broadcast16(u: &[u64; 4]) -> Limbs {
    split::<4>([
        _mm512_set1_epi64(u[0] as i64),
        _mm512_set1_epi64(u[1] as i64),
        _mm512_set1_epi64(u[2] as i64),
        _mm512_set1_epi64(u[3] as i64),
    ])
}

/// `y_i ← y_i + u·x_i` for the first `8·⌊len/8⌋` elements; returns how
/// many were done.
///
/// # Safety
/// As [`mul_assign_slice`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn axpy(y: &mut [[u64; 4]], u: &[u64; 4], x: &[[u64; 4]]) -> usize {
    let u16 = broadcast16(u);
    let (yb, xb) = (y.as_chunks_mut::<LANES>().0, x.as_chunks::<LANES>().0);
    for (yc, xc) in yb.iter_mut().zip(xb) {
        let prod = mont_mul(&split::<0>(load8(xc)), &u16);
        let sum = add(&prod, &split::<0>(load8(yc)));
        store8(yc, join(subtract_p_once(sum)));
    }
    yb.len().min(xb.len()) * LANES
}

/// `out_i ← a·x_i + b·y_i` for the first `8·⌊len/8⌋` elements, one
/// reduction per element; returns how many were done.
///
/// # Safety
/// As [`mul_assign_slice`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn lincomb2(
    out: &mut [[u64; 4]],
    a: &[u64; 4],
    x: &[[u64; 4]],
    b: &[u64; 4],
    y: &[[u64; 4]],
) -> usize {
    let (a16, b16) = (broadcast16(a), broadcast16(b));
    let ob = out.as_chunks_mut::<LANES>().0;
    let (xb, yb) = (x.as_chunks::<LANES>().0, y.as_chunks::<LANES>().0);
    for ((oc, xc), yc) in ob.iter_mut().zip(xb).zip(yb) {
        let mut t = [_mm512_setzero_si512(); 10];
        mul_add_wide(&mut t, &split::<0>(load8(xc)), &a16);
        mul_add_wide(&mut t, &split::<0>(load8(yc)), &b16);
        // Two products below 16p² each: reduced below 3p, so two
        // conditional subtractions.
        store8(oc, join(subtract_p_once(subtract_p_once(mont_reduce(t)))));
    }
    ob.len().min(xb.len()).min(yb.len()) * LANES
}

/// Blocks whose unreduced products share one accumulator in [`dot`]:
/// each product adds at most ten 52-bit halves to a column, so 256 of
/// them stay below 2^64.
const DOT_GROUP: usize = 256;

/// `Σ ã_i·b̃_i·2⁻²⁵⁶` over the first `8·⌊len/8⌋` elements as an integer
/// below 2^320 that is congruent to it modulo `p` (not reduced), and how
/// many elements that covers. The caller adds the rest and reduces.
///
/// Each group of [`DOT_GROUP`] blocks sums its 512-bit products per lane
/// and is reduced once (below 257·p), then summed over the lanes into
/// 128-bit column totals.
///
/// # Safety
/// As [`mul_assign_slice`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn dot(a: &[[u64; 4]], b: &[[u64; 4]]) -> ([u64; 5], usize) {
    let (ab, bb) = (a.as_chunks::<LANES>().0, b.as_chunks::<LANES>().0);
    let n = ab.len().min(bb.len()) * LANES;
    let mut columns = [0u128; 5];
    for (ag, bg) in ab.chunks(DOT_GROUP).zip(bb.chunks(DOT_GROUP)) {
        let mut t = [_mm512_setzero_si512(); 10];
        for (ac, bc) in ag.iter().zip(bg) {
            mul_add_wide(&mut t, &split::<0>(load8(ac)), &split::<4>(load8(bc)));
        }
        let r = mont_reduce(t);
        for (c, limb) in columns.iter_mut().zip(r) {
            // Eight lanes below 2^57 each.
            *c += _mm512_reduce_add_epi64(limb) as u64 as u128;
        }
    }
    (columns_to_words(&columns), n)
}

/// `Σ columns[k]·2^(52k)` as five 64-bit words (the sum must be below
/// 2^320; each column is shifted exactly, whatever its size).
fn columns_to_words(columns: &[u128; 5]) -> [u64; 5] {
    let mut words = [0u64; 6];
    for (k, &c) in columns.iter().enumerate() {
        let (word, s) = (52 * k / 64, 52 * k % 64);
        let (lo, hi) = (c as u64, (c >> 64) as u64);
        // c·2^s = lo·2^s + hi·2^(64+s), three words from `word` on.
        let parts = if s == 0 {
            [lo, hi, 0]
        } else {
            [lo << s, (lo >> (64 - s)) | (hi << s), hi >> (64 - s)]
        };
        let mut carry = false;
        for (i, w) in words[word..].iter_mut().enumerate() {
            let part = parts.get(i).copied().unwrap_or(0);
            let (s1, c1) = w.overflowing_add(part);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *w = s2;
            carry = c1 || c2;
        }
    }
    debug_assert_eq!(words[5], 0, "the sum exceeds 2^320");
    [words[0], words[1], words[2], words[3], words[4]]
}

/// Products in `F[i]/(i² + 1)` of the pairs `(x_{2k}, x_{2k+1})` and
/// `(y_{2k}, y_{2k+1})` (real part first), for the first `8·⌊len/8⌋`
/// elements, four pairs per block; returns how many elements were done.
///
/// Each block computes `(a + bi)(c + di)` lane by lane as
/// `c·(a, b) + (−d, d)·(b, a)`: the real lanes take `ac − bd`, the
/// imaginary ones `bc + ad`, both sums of two products reduced once. That
/// is four base products where the scalar loop takes three, but eight
/// lanes at a time.
///
/// # Safety
/// As [`mul_assign_slice`].
#[target_feature(enable = "avx512f,avx512ifma")]
pub(crate) unsafe fn mul_assign_gaussian(x: &mut [[u64; 4]], y: &[[u64; 4]]) -> usize {
    let swap = _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1);
    let real_of = _mm512_set_epi64(6, 6, 4, 4, 2, 2, 0, 0);
    let imaginary_of = _mm512_set_epi64(7, 7, 5, 5, 3, 3, 1, 1);
    // Lanes 0, 2, 4, 6 hold real parts.
    let real_lanes: __mmask8 = 0b0101_0101;
    let (xb, yb) = (x.as_chunks_mut::<LANES>().0, y.as_chunks::<LANES>().0);
    for (xc, yc) in xb.iter_mut().zip(yb) {
        let ab16 = split::<4>(load8(xc));
        let ba16 = ab16.map(|l| _mm512_permutexvar_epi64(swap, l));
        let cd = load8(yc);
        let c = split::<0>(cd.map(|w| _mm512_permutexvar_epi64(real_of, w)));
        let d = split::<0>(cd.map(|w| _mm512_permutexvar_epi64(imaginary_of, w)));
        let d_signed = negate_where(real_lanes, d);
        let mut t = [_mm512_setzero_si512(); 10];
        mul_add_wide(&mut t, &c, &ab16);
        mul_add_wide(&mut t, &d_signed, &ba16);
        // Two products below 16p² each: below 3p after reduction.
        store8(xc, join(subtract_p_once(subtract_p_once(mont_reduce(t)))));
    }
    xb.len().min(yb.len()) * LANES
}

/// `p − v` in the lanes of `lanes`, `v` elsewhere, for normalised `v < p`
/// (the result is at most `p`, which the products accept).
#[inline]
#[target_feature(enable = "avx512f")]
fn negate_where(lanes: __mmask8, v: Limbs) -> Limbs {
    let m52 = _mm512_set1_epi64(MASK52 as i64);
    let mut borrow = _mm512_setzero_si512();
    let mut out = v;
    for k in 0..5 {
        let d = _mm512_sub_epi64(
            _mm512_sub_epi64(_mm512_set1_epi64(P52[k] as i64), v[k]),
            borrow,
        );
        borrow = _mm512_srli_epi64::<63>(d);
        out[k] = _mm512_mask_blend_epi64(lanes, v[k], _mm512_and_si512(d, m52));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Field, Fp256};

    fn sample(n: usize, seed: u64) -> Vec<Fp256> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                let mut bytes = [0u8; 32];
                for b in bytes.iter_mut() {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    *b = (s >> 56) as u8;
                }
                Fp256::from_uniform_bytes(&bytes).unwrap_or(Fp256::ONE)
            })
            .collect()
    }

    fn have() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma")
    }

    /// Random residues, then the extremes: 0, 1, 2, p − 1, p − 2, and
    /// residues with all-ones and all-zero limbs where reduced values allow.
    fn values(n: usize, seed: u64) -> Vec<Fp256> {
        let mut v = sample(n, seed);
        let m1 = -Fp256::ONE;
        let edges = [
            Fp256::ZERO,
            Fp256::ONE,
            Fp256::ONE + Fp256::ONE,
            m1,
            m1 - Fp256::ONE,
            Fp256::from_u64(u64::MAX),
            -Fp256::from_u64(u64::MAX),
        ];
        for (k, e) in edges.iter().enumerate() {
            v[(k * 13 + seed as usize) % n] = *e;
        }
        v
    }

    fn words(v: &[Fp256]) -> Vec<[u64; 4]> {
        v.iter().map(|e| e.residue()).collect()
    }

    #[test]
    fn ifma_kernels_match_the_scalar_products() {
        if !have() {
            eprintln!("skip: this CPU has no AVX-512 IFMA");
            return;
        }
        let n = 203; // 25 blocks and a tail the kernels leave alone
        let (x, y, z) = (values(n, 1), values(n, 2), values(n, 3));
        let done = n / LANES * LANES;
        for (u, v) in [
            (z[0], z[1]),
            (-Fp256::ONE, -Fp256::ONE),
            (Fp256::ZERO, Fp256::ONE),
        ] {
            let mut got = words(&x);
            // SAFETY: the CPU was checked above.
            assert_eq!(unsafe { mul_assign_slice(&mut got, &words(&y)) }, done);
            let mut got_axpy = words(&y);
            // SAFETY: as above.
            let ax = unsafe { axpy(&mut got_axpy, &u.residue(), &words(&x)) };
            assert_eq!(ax, done);
            let mut got_lc = words(&z);
            // SAFETY: as above.
            let lc = unsafe {
                lincomb2(
                    &mut got_lc,
                    &u.residue(),
                    &words(&x),
                    &v.residue(),
                    &words(&y),
                )
            };
            assert_eq!(lc, done);
            for i in 0..n {
                let (want_mul, want_axpy, want_lc) = if i < done {
                    (x[i] * y[i], y[i] + u * x[i], u * x[i] + v * y[i])
                } else {
                    (x[i], y[i], z[i])
                };
                assert_eq!(got[i], want_mul.residue(), "product {i}");
                assert_eq!(got_axpy[i], want_axpy.residue(), "axpy {i}");
                assert_eq!(got_lc[i], want_lc.residue(), "lincomb2 {i}");
            }
        }
    }

    #[test]
    fn ifma_gaussian_products_match_the_scalar_loop() {
        if !have() {
            eprintln!("skip: this CPU has no AVX-512 IFMA");
            return;
        }
        // 51 pairs: twelve blocks of four and a tail of three.
        let (x, y) = (values(102, 4), values(102, 5));
        let mut got = words(&x);
        // SAFETY: the CPU was checked above.
        let done = unsafe { mul_assign_gaussian(&mut got, &words(&y)) };
        assert_eq!(done, 96);
        for k in 0..51 {
            let (a, b, c, d) = (x[2 * k], x[2 * k + 1], y[2 * k], y[2 * k + 1]);
            let want = if 2 * k < done {
                [a * c - b * d, a * d + b * c]
            } else {
                [a, b]
            };
            assert_eq!(got[2 * k], want[0].residue(), "real part of pair {k}");
            assert_eq!(
                got[2 * k + 1],
                want[1].residue(),
                "imaginary part of pair {k}"
            );
        }
    }

    #[test]
    fn ifma_dot_is_congruent_to_the_sum_of_products() {
        if !have() {
            eprintln!("skip: this CPU has no AVX-512 IFMA");
            return;
        }
        // Two groups and a part (DOT_GROUP blocks each), a tail of five;
        // then all p − 1, the largest products.
        let m1 = -Fp256::ONE;
        for (a, b) in [
            (values(4117, 6), values(4117, 7)),
            (vec![m1; 4104], vec![m1; 4104]),
        ] {
            // SAFETY: the CPU was checked above.
            let (words, done) = unsafe { dot(&words(&a), &words(&b)) };
            assert_eq!(done, a.len() / LANES * LANES);
            let want = a[..done]
                .iter()
                .zip(&b[..done])
                .fold(Fp256::ZERO, |acc, (&x, &y)| acc + x * y);
            assert_eq!(residue_mod_p(words), want.residue());
        }
    }

    /// A 320-bit integer reduced modulo p one bit at a time from the top
    /// (slow and obvious: the test's reference).
    fn residue_mod_p(words: [u64; 5]) -> [u64; 4] {
        let p = [
            0xffff_ffff_ffff_ffffu64,
            0x0000_0000_ffff_ffff,
            0,
            0xffff_ffff_0000_0001,
        ];
        // Shift-and-subtract, one bit at a time from the top.
        let mut r = [0u64; 5];
        for bit in (0..320).rev() {
            // r = 2r + bit
            let mut carry = (words[bit / 64] >> (bit % 64)) & 1;
            for w in r.iter_mut() {
                let next = *w >> 63;
                *w = (*w << 1) | carry;
                carry = next;
            }
            // if r ≥ p: r −= p
            let ge = r[4] != 0
                || (0..4)
                    .rev()
                    .map(|i| r[i].cmp(&p[i]))
                    .find(|o| o.is_ne())
                    .is_none_or(|o| o.is_gt());
            if ge {
                let mut borrow = 0u64;
                for i in 0..5 {
                    let pi = if i < 4 { p[i] } else { 0 };
                    let (d1, b1) = r[i].overflowing_sub(pi);
                    let (d2, b2) = d1.overflowing_sub(borrow);
                    r[i] = d2;
                    borrow = u64::from(b1 || b2);
                }
            }
        }
        [r[0], r[1], r[2], r[3]]
    }
}
