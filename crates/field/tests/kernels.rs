//! The slice kernels (`dot`, `axpy`, `mul_assign_slice`, butterflies) must
//! return exactly what the element-by-element loops return, on every
//! length (including empty, odd and unequal ones) and for every field. For
//! GF(2^128) the expected values use the portable product only, so the
//! carry-less-multiply kernels are compared against independent code.
#![allow(clippy::unwrap_used)]

use longfellow_field::held::{WideProducts, WithWideProducts};
use longfellow_field::{Butterfly, Field, Fp128, Fp256, Gf2Kernel, Gf2_128};
use longfellow_test_rng::XorShift64;
use proptest::prelude::*;

fn gf_vec(len: usize) -> impl Strategy<Value = Vec<Gf2_128>> {
    prop::collection::vec(
        prop_oneof![
            1 => Just(0u128),
            1 => Just(u128::MAX),
            8 => any::<u128>(),
        ]
        .prop_map(Gf2_128::from_u128),
        0..=len,
    )
}

fn prime_vec<F: Field>(len: usize) -> impl Strategy<Value = Vec<F>> {
    prop::collection::vec(
        prop_oneof![
            1 => Just(F::ZERO),
            1 => Just(-F::ONE),
            8 => prop::collection::vec(any::<u8>(), F::SAMPLE_BYTES)
                .prop_map(|b| F::from_uniform_bytes(&b).unwrap_or(F::ONE)),
        ],
        0..=len,
    )
}

/// Element-by-element reference with the portable GF(2^128) product.
fn apply_portable(kind: Butterfly, a: &mut Gf2_128, c: &mut Gf2_128, t: Gf2_128) {
    match kind {
        Butterfly::Forward => {
            *a += t.mul_portable(*c);
            *c += *a;
        }
        Butterfly::Backward => {
            *c += *a;
            *a += t.mul_portable(*c);
        }
        Butterfly::Cross => {
            let old_c = *c;
            *c += *a;
            *a += t.mul_portable(old_c);
        }
    }
}

const KINDS: [Butterfly; 3] = [Butterfly::Forward, Butterfly::Backward, Butterfly::Cross];

/// `Σ a_i·b_i` through a held kernel, reduced once.
struct HeldSum<'a, F>(&'a [F], &'a [F]);

impl<F: Field> WithWideProducts<F> for HeldSum<'_, F> {
    type Output = F;
    fn run<P: WideProducts<F>>(self, p: P) -> F {
        p.narrow(HeldParts(self.0, self.1).run(p))
    }
}

/// The same sum left unreduced.
struct HeldParts<'a, F>(&'a [F], &'a [F]);

impl<F: Field> WithWideProducts<F> for HeldParts<'_, F> {
    type Output = F::Wide;
    fn run<P: WideProducts<F>>(self, p: P) -> F::Wide {
        let mut acc = F::Wide::default();
        for (x, y) in self.0.iter().zip(self.1) {
            acc += p.mul_wide(*x, *y);
        }
        acc
    }
}

/// A sum made elsewhere, narrowed by a held kernel.
struct HeldNarrow<W>(W);

impl<F: Field> WithWideProducts<F> for HeldNarrow<F::Wide> {
    type Output = F;
    fn run<P: WideProducts<F>>(self, p: P) -> F {
        p.narrow(self.0)
    }
}

/// The kernels this CPU can run (the portable one always), whatever the
/// process selected: each is compared against the portable reference.
fn kernels() -> Vec<Gf2Kernel> {
    Gf2Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

proptest! {
    #[test]
    fn gf_dot_matches_portable(a in gf_vec(70), b in gf_vec(70)) {
        let want = a.iter().zip(&b).fold(Gf2_128::ZERO, |acc, (x, y)| acc + x.mul_portable(*y));
        prop_assert_eq!(Gf2_128::dot(&a, &b), want);
        prop_assert_eq!(Gf2_128::dot_portable(&a, &b), want);
        for k in kernels() {
            prop_assert_eq!(Gf2_128::dot_on(k, &a, &b), Some(want), "{}", k);
        }
    }

    /// Unreduced sums (`mul_wide`, `widen`, `+=`, one `narrow`) on every
    /// kernel, and mixed across kernels (their parts split the polynomial
    /// differently), against portable products.
    #[test]
    fn gf_wide_sums_match_portable(a in gf_vec(40), b in gf_vec(40), c in any::<u128>()) {
        let c = Gf2_128::from_u128(c);
        let want = a.iter().zip(&b).fold(c, |acc, (x, y)| acc + x.mul_portable(*y));
        let mut acc = Gf2_128::widen(c);
        for (x, y) in a.iter().zip(&b) {
            acc += Gf2_128::mul_wide(*x, *y);
        }
        prop_assert_eq!(Gf2_128::narrow(acc), want);
        let products = want - c;
        for k in kernels() {
            prop_assert_eq!(Gf2_128::wide_sum_on(k, &a, &b), Some(products), "{}", k);
        }
        // The selected kernel's parts narrowed by every kernel: the
        // portable one folds a middle part the hardware kernels fill.
        for k in kernels() {
            prop_assert_eq!(Gf2_128::narrow_on(k, acc), Some(want), "{}", k);
        }
    }

    /// Sums through a held kernel (`with_wide_products`), on every kernel
    /// and on the selected one, against portable products; a held kernel's
    /// sum narrowed by the per-product path and the reverse agree too.
    #[test]
    fn gf_held_wide_sums_match_portable(a in gf_vec(40), b in gf_vec(40)) {
        let want = a.iter().zip(&b).fold(Gf2_128::ZERO, |acc, (x, y)| acc + x.mul_portable(*y));
        let mut selected = <Gf2_128 as Field>::Wide::default();
        for (x, y) in a.iter().zip(&b) {
            selected += Gf2_128::mul_wide(*x, *y);
        }
        for k in kernels() {
            prop_assert_eq!(Gf2_128::with_wide_products_on(k, HeldSum(&a, &b)), Some(want), "{}", k);
            let parts = Gf2_128::with_wide_products_on(k, HeldParts(&a, &b)).unwrap();
            prop_assert_eq!(Gf2_128::narrow(parts), want, "{}", k);
            prop_assert_eq!(Gf2_128::with_wide_products_on(k, HeldNarrow(selected)), Some(want), "{}", k);
        }
        prop_assert_eq!(Gf2_128::with_wide_products(HeldSum(&a, &b)), want);
    }

    /// The default held kernel of the prime fields is their per-product one.
    #[test]
    fn prime_held_wide_sums_match(a in prime_vec::<Fp256>(20), b in prime_vec::<Fp256>(20)) {
        let want = a.iter().zip(&b).fold(Fp256::ZERO, |acc, (x, y)| acc + *x * *y);
        prop_assert_eq!(Fp256::with_wide_products(HeldSum(&a, &b)), want);
    }

    /// `lincomb2` on every kernel (all lengths, unequal ones too) against
    /// portable products.
    #[test]
    fn gf_lincomb2_matches_portable(
        x in gf_vec(40),
        y in gf_vec(40),
        out_len in 0usize..=40,
        a in any::<u128>(),
        b in any::<u128>(),
    ) {
        let (a, b) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
        let n = out_len.min(x.len()).min(y.len());
        let sentinel = Gf2_128::from_u128(0x5a5a);
        let mut want = vec![sentinel; out_len];
        for i in 0..n {
            want[i] = a.mul_portable(x[i]) + b.mul_portable(y[i]);
        }
        let mut got = vec![sentinel; out_len];
        Gf2_128::lincomb2(&mut got, a, &x, b, &y);
        prop_assert_eq!(&got, &want);
        for k in kernels() {
            let mut got = vec![sentinel; out_len];
            prop_assert!(Gf2_128::lincomb2_on(k, &mut got, (a, &x), (b, &y)));
            prop_assert_eq!(&got, &want, "{}", k);
        }
        let (xp, yp): (Vec<Fp256>, Vec<Fp256>) = (0..n as u64)
            .map(|i| (Fp256::from_u64(3 * i + 1), Fp256::from_u64(i * i + 7)))
            .unzip();
        let (ap, bp) = (Fp256::from_u64(out_len as u64 + 5), Fp256::from_u64(n as u64 + 11));
        let mut got = vec![Fp256::ONE; n];
        Fp256::lincomb2(&mut got, ap, &xp, bp, &yp);
        for i in 0..n {
            prop_assert_eq!(got[i], ap * xp[i] + bp * yp[i]);
        }
    }

    /// The prime fields' `Wide` is the field: sums as plain sums.
    #[test]
    fn prime_wide_sums_are_plain_sums(a in prime_vec::<Fp256>(20), b in prime_vec::<Fp256>(20)) {
        let want = a.iter().zip(&b).fold(Fp256::ZERO, |acc, (x, y)| acc + *x * *y);
        let mut acc = Fp256::widen(Fp256::ZERO);
        for (x, y) in a.iter().zip(&b) {
            acc += Fp256::mul_wide(*x, *y);
        }
        prop_assert_eq!(Fp256::narrow(acc), want);
    }

    #[test]
    fn gf_mul_matches_portable(a in any::<u128>(), b in any::<u128>()) {
        let (a, b) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
        let want = a.mul_portable(b);
        prop_assert_eq!(a * b, want);
        for k in kernels() {
            prop_assert_eq!(Gf2_128::mul_on(k, a, b), Some(want), "{}", k);
        }
    }

    #[test]
    fn gf_axpy_and_mul_assign_match_portable(y in gf_vec(40), x in gf_vec(40), u in any::<u128>()) {
        let u = Gf2_128::from_u128(u);
        let mut want = y.clone();
        for (a, b) in want.iter_mut().zip(&x) {
            *a += u.mul_portable(*b);
        }
        let mut got = y.clone();
        Gf2_128::axpy(&mut got, u, &x);
        prop_assert_eq!(&got, &want);
        for k in kernels() {
            let mut got = y.clone();
            prop_assert!(Gf2_128::axpy_on(k, &mut got, u, &x));
            prop_assert_eq!(&got, &want, "{}", k);
        }

        let mut want = y.clone();
        for (a, b) in want.iter_mut().zip(&x) {
            *a = a.mul_portable(*b);
        }
        let mut got = y.clone();
        Gf2_128::mul_assign_slice(&mut got, &x);
        prop_assert_eq!(&got, &want);
        for k in kernels() {
            let mut got = y.clone();
            prop_assert!(Gf2_128::mul_assign_slice_on(k, &mut got, &x));
            prop_assert_eq!(&got, &want, "{}", k);
        }
    }

    #[test]
    fn gf_butterflies_match_portable(
        data in gf_vec(64),
        tw in prop::collection::vec(any::<u128>(), 64),
        log_half in 0usize..5,
    ) {
        let tw: Vec<Gf2_128> = tw.into_iter().map(Gf2_128::from_u128).collect();
        for kind in KINDS {
            // Pairs between two slices with one twiddle.
            let half = data.len() / 2;
            let mut want = data.clone();
            let (lo, hi) = want.split_at_mut(half);
            for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
                apply_portable(kind, a, c, tw[0]);
            }
            let mut got = data.clone();
            let (lo, hi) = got.split_at_mut(half);
            Gf2_128::butterflies(lo, hi, tw[0], kind);
            prop_assert_eq!(&got, &want);
            for k in kernels() {
                let mut got = data.clone();
                let (lo, hi) = got.split_at_mut(half);
                prop_assert!(Gf2_128::butterflies_on(k, lo, hi, tw[0], kind));
                prop_assert_eq!(&got, &want, "{} {:?}", k, kind);
            }

            // A whole level on the largest prefix made of whole chunks.
            let h = 1usize << log_half;
            let len = data.len() / (2 * h) * (2 * h);
            let mut want = data[..len].to_vec();
            for (chunk, t) in want.chunks_exact_mut(2 * h).zip(&tw) {
                let (lo, hi) = chunk.split_at_mut(h);
                for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
                    apply_portable(kind, a, c, *t);
                }
            }
            let mut got = data[..len].to_vec();
            Gf2_128::butterfly_level(&mut got, h, &tw, kind);
            prop_assert_eq!(&got, &want);
            for k in kernels() {
                let mut got = data[..len].to_vec();
                prop_assert!(Gf2_128::butterfly_level_on(k, &mut got, h, &tw, kind));
                prop_assert_eq!(&got, &want, "{} {:?} half {}", k, kind, h);
            }
        }
    }

    #[test]
    fn fp256_kernels_match_loops(a in prime_vec::<Fp256>(40), b in prime_vec::<Fp256>(40)) {
        check_prime_kernels(&a, &b);
    }

    #[test]
    fn fp128_kernels_match_loops(a in prime_vec::<Fp128>(40), b in prime_vec::<Fp128>(40)) {
        check_prime_kernels(&a, &b);
    }
}

fn check_prime_kernels<F: Field>(a: &[F], b: &[F]) {
    let want = a.iter().zip(b).fold(F::ZERO, |acc, (&x, &y)| acc + x * y);
    assert_eq!(F::dot(a, b), want);
    let u = a.first().copied().unwrap_or(F::ONE);
    let mut got = b.to_vec();
    F::axpy(&mut got, u, a);
    let want: Vec<F> = b
        .iter()
        .enumerate()
        .map(|(i, &y)| a.get(i).map_or(y, |&x| y + u * x))
        .collect();
    assert_eq!(got, want);
    let mut got = b.to_vec();
    F::mul_assign_slice(&mut got, a);
    let want: Vec<F> = b
        .iter()
        .enumerate()
        .map(|(i, &y)| a.get(i).map_or(y, |&x| y * x))
        .collect();
    assert_eq!(got, want);
    // Random values and unequal lengths (the common prefix is written).
    let v = b.first().copied().unwrap_or(F::ONE);
    let mut got = b.to_vec();
    F::lincomb2(&mut got, u, a, v, b);
    let want: Vec<F> = b
        .iter()
        .enumerate()
        .map(|(i, &y)| a.get(i).map_or(y, |&x| u * x + v * y))
        .collect();
    assert_eq!(got, want);
    // Pairs as elements of F[i]/(i² + 1); the common prefix is written.
    let pairs = |v: &[F]| -> Vec<[F; 2]> { v.chunks_exact(2).map(|c| [c[0], c[1]]).collect() };
    let (pa, pb) = (pairs(a), pairs(b));
    let mut got = pb.clone();
    F::mul_assign_gaussian_slice(&mut got, &pa);
    let want: Vec<[F; 2]> = pb
        .iter()
        .enumerate()
        .map(|(i, &[c, d])| {
            pa.get(i)
                .map_or([c, d], |&[a, b]| [a * c - b * d, a * d + b * c])
        })
        .collect();
    assert_eq!(got, want);
}

/// Long sums: many unreduced products accumulate before the one reduction.
#[test]
fn gf_dot_long_vectors() {
    let mut s = XorShift64(0x9e37_79b9_7f4a_7c15);
    // The wide kernels take 8 (512-bit) or 4 (256-bit) terms or more and
    // leave a short tail; these lengths cover every tail.
    eprintln!("kernels: {}", longfellow_field::kernels());
    for len in [0usize, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1000, 4151] {
        let a: Vec<Gf2_128> = (0..len)
            .map(|_| Gf2_128::from_u128(s.next_u128()))
            .collect();
        let b: Vec<Gf2_128> = (0..len)
            .map(|_| Gf2_128::from_u128(s.next_u128()))
            .collect();
        let want = a
            .iter()
            .zip(&b)
            .fold(Gf2_128::ZERO, |acc, (x, y)| acc + x.mul_portable(*y));
        assert_eq!(Gf2_128::dot(&a, &b), want, "len {len}");
        for k in kernels() {
            assert_eq!(Gf2_128::dot_on(k, &a, &b), Some(want), "len {len}, {k}");
        }
    }
}

/// Lengths and halves large enough for every wide kernel's main loop and
/// every tail, on each kernel this CPU has.
#[test]
fn gf_slice_kernels_long_vectors() {
    let mut s = XorShift64(0x5851_f42d_4c95_7f2d);
    let mut next = || {
        let x = s.next_u64();
        Gf2_128::from_u128(((x as u128) << 64) | x.rotate_left(17) as u128)
    };
    for len in [13usize, 64, 257] {
        let x: Vec<Gf2_128> = (0..len).map(|_| next()).collect();
        let y: Vec<Gf2_128> = (0..len).map(|_| next()).collect();
        let u = next();
        let want_axpy: Vec<Gf2_128> = y
            .iter()
            .zip(&x)
            .map(|(a, b)| *a + u.mul_portable(*b))
            .collect();
        let want_mul: Vec<Gf2_128> = y.iter().zip(&x).map(|(a, b)| a.mul_portable(*b)).collect();
        for k in kernels() {
            let mut got = y.clone();
            assert!(Gf2_128::axpy_on(k, &mut got, u, &x));
            assert_eq!(got, want_axpy, "axpy len {len}, {k}");
            let mut got = y.clone();
            assert!(Gf2_128::mul_assign_slice_on(k, &mut got, &x));
            assert_eq!(got, want_mul, "mul_assign len {len}, {k}");
        }
    }
    let data: Vec<Gf2_128> = (0..512).map(|_| next()).collect();
    let tw: Vec<Gf2_128> = (0..256).map(|_| next()).collect();
    for kind in KINDS {
        for half in [1usize, 2, 4, 8, 16, 256] {
            let mut want = data.clone();
            for (chunk, t) in want.chunks_exact_mut(2 * half).zip(&tw) {
                let (lo, hi) = chunk.split_at_mut(half);
                for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
                    apply_portable(kind, a, c, *t);
                }
            }
            for k in kernels() {
                let mut got = data.clone();
                assert!(Gf2_128::butterfly_level_on(k, &mut got, half, &tw, kind));
                assert_eq!(got, want, "{kind:?} half {half}, {k}");
            }
        }
    }
}

/// On x86_64, every kernel whose instructions the CPU has is available,
/// so the comparisons above ran on all of them.
#[cfg(target_arch = "x86_64")]
#[test]
fn every_kernel_this_cpu_has_is_tested() {
    use std::arch::is_x86_feature_detected as has;
    let clmul = has!("pclmulqdq");
    assert!(Gf2Kernel::Portable.is_available());
    assert_eq!(Gf2Kernel::Clmul128.is_available(), clmul);
    assert_eq!(
        Gf2Kernel::Clmul256.is_available(),
        clmul && has!("avx2") && has!("vpclmulqdq")
    );
    assert_eq!(
        Gf2Kernel::Clmul512.is_available(),
        clmul && has!("avx512f") && has!("vpclmulqdq")
    );
    eprintln!("kernels tested: {:?}", kernels());
}

#[test]
#[should_panic(expected = "whole chunks")]
fn butterfly_level_rejects_partial_chunks() {
    let mut data = vec![Gf2_128::ONE; 6];
    Gf2_128::butterfly_level(&mut data, 2, &[Gf2_128::ONE; 2], Butterfly::Forward);
}

/// The largest residues, many times over: the unreduced accumulator's top
/// word and both final subtractions are exercised.
#[test]
fn fp256_dot_extremes() {
    let m1 = -Fp256::ONE;
    let m2 = m1 + m1;
    for len in [1usize, 2, 3, 17, 5000] {
        for (x, y) in [(m1, m1), (m1, m2), (m2, Fp256::ONE)] {
            let a = vec![x; len];
            let b = vec![y; len];
            let want = a
                .iter()
                .zip(&b)
                .fold(Fp256::ZERO, |acc, (&p, &q)| acc + p * q);
            assert_eq!(Fp256::dot(&a, &b), want, "len {len}");
        }
    }
    let mut s = XorShift64(0x0123_4567_89ab_cdef);
    let a: Vec<Fp256> = (0..3000)
        .map(|_| {
            let mut bytes = [0u8; 32];
            for chunk in bytes.chunks_exact_mut(8) {
                chunk.copy_from_slice(&s.next_u64().to_le_bytes());
            }
            Fp256::from_uniform_bytes(&bytes).unwrap_or(m1)
        })
        .collect();
    let want = a.iter().fold(Fp256::ZERO, |acc, &p| acc + p * p);
    assert_eq!(Fp256::dot(&a, &a), want);
}

/// On aarch64, the PMULL kernel is available exactly when the CPU (or the
/// emulator) reports PMULL, and nothing wider exists.
#[cfg(target_arch = "aarch64")]
#[test]
fn every_kernel_this_cpu_has_is_tested() {
    let pmull = std::arch::is_aarch64_feature_detected!("pmull");
    assert_eq!(Gf2Kernel::Clmul128.is_available(), pmull);
    assert!(!Gf2Kernel::Clmul256.is_available());
    assert!(!Gf2Kernel::Clmul512.is_available());
    eprintln!("kernels tested: {:?}", kernels());
}
