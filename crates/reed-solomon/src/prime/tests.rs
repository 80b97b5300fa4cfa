//! Unit tests of the FFT machinery against definitions.

use longfellow_field::{Field, Fp128, Fp256};
use longfellow_test_rng::XorShift64Star;

use super::fft::{bit_reverse, dif, dit, twiddle_table};
use super::fp2::Fp2;
use super::roots::{fp2_two_adic_root, prime_two_adic_root, BigUint};

/// Deterministic pseudo-random elements (xorshift64*), no external RNG.
fn elements<F: Field>(count: usize, seed: u64) -> Vec<F> {
    let mut s = XorShift64Star(seed | 1);
    (0..count)
        .map(|_| {
            let mut x = F::ZERO;
            for _ in 0..4 {
                x = x * F::from_u64(1 << 32) + F::from_u64(s.next_u64() >> 32);
            }
            x
        })
        .collect()
}

#[test]
fn p256_plus_one_has_two_adicity_96() {
    // p + 1 = 2^256 − 2^224 + 2^192 + 2^96 = 2^96·(odd).
    let pp1 = BigUint::modulus_minus_one::<Fp256>().add_small(2);
    assert_eq!(pp1.trailing_zeros(), 96);
    // p − 1 is 2·odd: the reason the FFT cannot run in Fp256 itself.
    assert_eq!(BigUint::modulus_minus_one::<Fp256>().trailing_zeros(), 1);
}

#[test]
fn fp2_root_has_exact_order_and_norm_one() {
    let (g, v) = fp2_two_adic_root::<Fp256>().expect("root exists");
    assert_eq!(v, 96);
    let minus_one = -Fp2::<Fp256>::ONE;
    assert_eq!(g.square_times(v - 1), minus_one);
    assert_eq!(g.square_times(v), Fp2::ONE);
    assert_eq!(g.norm(), Fp256::ONE);
    // The order-2^31 root the reference works with, and an FFT-sized one.
    for log in [31u32, 12, 13] {
        let w = g.square_times(v - log);
        assert_eq!(w.square_times(log - 1), minus_one, "order 2^{log}");
        assert_eq!(w * w.conj(), Fp2::ONE, "conj is the inverse");
    }
}

#[test]
fn fp128_root_has_exact_order() {
    // p = 2^128 − 2^108 + 1, so p − 1 = 2^108·(2^20 − 1).
    let (g, v) = prime_two_adic_root::<Fp128>().expect("root exists");
    assert_eq!(v, 108);
    let mut x = g;
    for _ in 0..v - 1 {
        x = x.square();
    }
    assert_eq!(x, -Fp128::ONE);
    assert_eq!(x.square(), Fp128::ONE);
}

#[test]
fn big_uint_shift_and_pow() {
    let x = BigUint::modulus_minus_one::<Fp128>(); // 2^128 − 2^108
    let odd = x.shr(108);
    // (2^20 − 1) as an exponent of 2 in Fp128: 2^(2^20−1) = 2^(2^20) / 2.
    let two = Fp128::from_u64(2);
    let mut expect = two;
    for _ in 0..20 {
        expect = expect.square();
    }
    expect *= two.invert().expect("test setup");
    assert_eq!(odd.pow(two, Fp128::ONE), expect);
    // Carry propagation through add_small: (p − 1) + 2 then − back via shr.
    assert_eq!(x.clone().add_small(2).trailing_zeros(), 1);
}

#[test]
fn fp2_multiplication_matches_schoolbook() {
    let e = elements::<Fp256>(4, 7);
    let (a, b) = (Fp2::new(e[0], e[1]), Fp2::new(e[2], e[3]));
    let p = a * b;
    assert_eq!(p.re, e[0] * e[2] - e[1] * e[3]);
    assert_eq!(p.im, e[0] * e[3] + e[1] * e[2]);
    let i = Fp2::new(Fp256::ZERO, Fp256::ONE);
    assert_eq!(i * i, -Fp2::ONE);
    assert_eq!(a.mul_i(), a * i);
    assert_eq!(a.mul_neg_i(), a * (-i));
}

/// `Σ_j a[j]·w^{jt}` straight from the definition.
fn naive_dft<T: super::fft::Ring>(a: &[T], w: T, one: T, zero: T) -> Vec<T> {
    let mut wt = one;
    (0..a.len())
        .map(|_| {
            let mut acc = zero;
            let mut p = one;
            for x in a {
                acc = acc + *x * p;
                p = p * wt;
            }
            wt = wt * w;
            acc
        })
        .collect()
}

#[test]
fn dif_matches_definition_and_dit_inverts() {
    let (g, v) = fp2_two_adic_root::<Fp256>().expect("test setup");
    // Up to 256 points: radix-4 steps of 64 butterflies, more than one
    // block of twiddle products (`fft::BLOCK`).
    for log in 0..=8u32 {
        let size = 1usize << log;
        // Table for a larger order, as the packed convolution uses it.
        let table_order = 4 * size;
        let w_table = g.square_times(v - table_order.trailing_zeros());
        let w = w_table.square_times(2); // order `size`
        let tw = twiddle_table(w_table, Fp2::ONE, table_order);
        let tw_inv = twiddle_table(w_table.conj(), Fp2::ONE, table_order);
        for nonzero in [0, 1, size / 2, size.saturating_sub(1), size] {
            let e = elements::<Fp256>(2 * size, 100 + nonzero as u64);
            let mut a: Vec<_> = (0..size)
                .map(|j| {
                    if j < nonzero {
                        Fp2::new(e[2 * j], e[2 * j + 1])
                    } else {
                        Fp2::ZERO
                    }
                })
                .collect();
            let orig = a.clone();
            let expect = naive_dft(&orig, w, Fp2::ONE, Fp2::ZERO);
            let iota = w_table.square_times(table_order.trailing_zeros() - 2);
            dif(&mut a, &tw, nonzero, |x| x * iota);
            for (t, x) in expect.iter().enumerate() {
                assert_eq!(a[bit_reverse(t, log)], *x, "size {size} t {t}");
            }
            dit(&mut a, &tw_inv, |x| x * iota.conj());
            let s = Fp256::from_u64(size as u64).invert().expect("test setup");
            let back: Vec<_> = a.iter().map(|x| x.scale(s)).collect();
            assert_eq!(back, orig);
        }
    }
}
