//! The P-256 routines (dispatched, portable and assembly products, square,
//! dot, addition, subtraction, negation) against the generic `Modulus` code
//! shared with the other prime fields (the CIOS product for products).

use super::*;
use crate::Field;
use proptest::prelude::*;

use longfellow_test_rng::XorShift64;

/// The reference: the generic N-limb CIOS product.
fn generic(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    Fp256::MODULUS.mul(a, b)
}

const P_MINUS_1: [u64; 4] = [P[0] - 1, P[1], P[2], P[3]];

/// Reduced values that stress the carries and the final subtraction:
/// the extremes of [0, p), single high bits, all-ones limbs under p, the
/// Montgomery residues of ±1 and ±2, and values just below p.
fn edge_values() -> Vec<[u64; 4]> {
    let r = Fp256::MODULUS.r;
    let mut v = vec![
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        [u64::MAX, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 0, 1],
        [0, 0, 0, 1 << 63],
        [u64::MAX, u64::MAX, u64::MAX, 0],
        [u64::MAX, u64::MAX, u64::MAX, P[3] - 1],
        [0, 0, 0, P[3]],
        [u64::MAX, P[1] - 1, 0, P[3]],
        [u64::MAX, P[1], 0, P[3] - 1],
        [0, P[1] + 1, 0, P[3] - 1],
        P_MINUS_1,
        [P[0] - 2, P[1], P[2], P[3]],
        [P[0] - 0xffff, P[1], P[2], P[3]],
        r,
        Fp256::MODULUS.r2,
        Fp256::MODULUS.neg(&r),
        TWO_POW_320,
    ];
    let two_r = Fp256::MODULUS.add(&r, &r);
    v.push(two_r);
    v.push(Fp256::MODULUS.neg(&two_r));
    for x in v.clone() {
        assert_eq!(Fp256::MODULUS.is_reduced(&x), 1, "{x:x?}");
    }
    v
}

/// Reduced limbs: mostly uniform, sometimes an edge value.
fn reduced() -> impl Strategy<Value = [u64; 4]> {
    prop_oneof![
        3 => any::<[u64; 4]>().prop_filter("below p", |x| Fp256::MODULUS.is_reduced(x) == 1),
        1 => proptest::sample::select(edge_values()),
        // Near p from below.
        1 => (0u64..1 << 20).prop_map(|d| Fp256::MODULUS.sub(&P_MINUS_1, &[d, 0, 0, 0])),
    ]
}

fn check_all_products(a: &[u64; 4], b: &[u64; 4]) {
    let want = generic(a, b);
    assert_eq!(Fp256::mont_mul(a, b), want, "dispatched {a:x?} {b:x?}");
    assert_eq!(
        Fp256::mont_mul_portable(a, b),
        want,
        "portable {a:x?} {b:x?}"
    );
    if let Some(asm) = P256Asm::detect() {
        assert_eq!(asm.mont_mul(a, b), want, "asm {a:x?} {b:x?}");
    }
    let sq = generic(a, a);
    assert_eq!(Fp256::mont_square(a), sq, "square {a:x?}");
    assert_eq!(Fp256(*a).square(), Fp256(sq));
    if let Some(asm) = P256Asm::detect() {
        assert_eq!(asm.mont_square(a), sq, "asm square {a:x?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn products_match_generic_cios(a in reduced(), b in reduced()) {
        check_all_products(&a, &b);
    }

    /// The 512-bit product is exact for any 256-bit inputs, reduced or not.
    #[test]
    fn wide_products_agree(a in any::<[u64; 4]>(), b in any::<[u64; 4]>()) {
        let want = Fp256::wide_mul(&a, &b);
        // Independent check of the low 128 bits with u128 arithmetic.
        let low = |x: &[u64; 4]| (x[0] as u128) | ((x[1] as u128) << 64);
        prop_assert_eq!(low(&a).wrapping_mul(low(&b)), low(&[want[0], want[1], 0, 0]));
        if let Some(asm) = P256Asm::detect() {
            prop_assert_eq!(asm.wide_mul(&a, &b), want);
        }
    }

    #[test]
    fn dot_matches_loop(
        pairs in proptest::collection::vec((reduced(), reduced()), 0..40)
    ) {
        let (a, b): (Vec<Fp256>, Vec<Fp256>) =
            pairs.into_iter().map(|(x, y)| (Fp256(x), Fp256(y))).unzip();
        let want = a
            .iter()
            .zip(&b)
            .fold(Fp256::ZERO, |acc, (x, y)| acc + x.mul_generic(*y));
        prop_assert_eq!(Fp256::dot(&a, &b), want);
        prop_assert_eq!(Fp256::dot_portable(&a, &b), want);
    }
}

#[test]
fn edge_products_match_generic_cios() {
    let edges = edge_values();
    for a in &edges {
        for b in &edges {
            check_all_products(a, b);
        }
    }
}

/// Long dependent chains, as in exponentiation: any slip compounds.
#[test]
fn product_chains_match_generic_cios() {
    let mut s = XorShift64(0x1357_9bdf_2468_ace0);
    for _ in 0..200 {
        let mut x = [0; 4].map(|_: u64| s.next_u64());
        x[3] >>= 1;
        let y = [0; 4].map(|_: u64| s.next_u64() >> 1);
        let mut fast = x;
        for _ in 0..500 {
            fast = Fp256::mont_square(&Fp256::mont_mul(&fast, &y));
        }
        let mut want = x;
        for _ in 0..500 {
            let t = generic(&want, &y);
            want = generic(&t, &t);
        }
        assert_eq!(fast, want);
    }
}

#[test]
fn addition_chain_matches_square_and_multiply() {
    let mut s = XorShift64(0x0f1e_2d3c_4b5a_6978);
    for _ in 0..200 {
        let a = Fp256([0; 4].map(|_: u64| s.next_u64()));
        if Fp256::MODULUS.is_reduced(&a.0) == 0 {
            continue;
        }
        assert_eq!(a.fermat_inverse(), a.pow_p_minus_2());
    }
    assert_eq!(Fp256::default().fermat_inverse(), Fp256::default());
}

/// The x86_64 machines this runs on in CI have BMI2 and ADX; make sure the
/// assembly is what the tests above exercised there (unless the switch
/// asked for portable code).
#[test]
fn assembly_is_used_where_available() {
    let soft = crate::kernels().request == crate::KernelRequest::Soft;
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    assert_eq!(
        Fp256::uses_asm_mul(),
        !soft
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("adx")
    );
    #[cfg(not(target_arch = "x86_64"))]
    assert!(!Fp256::uses_asm_mul());
    let _ = soft;
}

fn check_add_sub_neg(a: &[u64; 4], b: &[u64; 4]) {
    let m = &Fp256::MODULUS;
    assert_eq!(Fp256::add_limbs(a, b), m.add(a, b), "add {a:x?} {b:x?}");
    assert_eq!(Fp256::sub_limbs(a, b), m.sub(a, b), "sub {a:x?} {b:x?}");
    assert_eq!(Fp256::neg_limbs(a), m.neg(a), "neg {a:x?}");
    assert_eq!(Fp256(*a) + Fp256(*b), Fp256(m.add(a, b)));
    assert_eq!(Fp256(*a) - Fp256(*b), Fp256(m.sub(a, b)));
    assert_eq!(-Fp256(*a), Fp256(m.neg(a)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn add_sub_neg_match_generic(a in reduced(), b in reduced()) {
        check_add_sub_neg(&a, &b);
    }
}

#[test]
fn edge_add_sub_neg_match_generic() {
    let edges = edge_values();
    for a in &edges {
        for b in &edges {
            check_add_sub_neg(a, b);
        }
    }
}
