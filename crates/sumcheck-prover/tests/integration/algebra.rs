//! The small algebraic building blocks against direct definitions.
#![allow(clippy::unwrap_used)]

use longfellow_field::{Field, Fp128, Gf2_128};
use longfellow_random::{random_element, MdocLcg};
use longfellow_sumcheck::{eq2_table, eq_table, log2_ceil, Lagrange};
use longfellow_sumcheck_prover::{bind_in_place, bind_into, round_coefficients};
use proptest::prelude::*;

fn eq_direct<F: Field>(g: &[F], i: usize) -> F {
    g.iter().enumerate().fold(F::ONE, |acc, (l, &q)| {
        acc * if (i >> l) & 1 == 1 { q } else { F::ONE - q }
    })
}

fn check_eq<F: Field>(seed: u64, logn: usize, n: usize) {
    let mut rng = MdocLcg::new(seed);
    let g: Vec<F> = (0..logn).map(|_| random_element(&mut rng)).collect();
    let mut t = Vec::new();
    eq_table(&g, n, &mut t);
    assert_eq!(t.len(), n);
    for (i, v) in t.iter().enumerate() {
        assert_eq!(*v, eq_direct(&g, i));
    }
}

fn check_eq2<F: Field>(seed: u64, logn: usize, n: usize) {
    let mut rng = MdocLcg::new(seed);
    let g0: Vec<F> = (0..logn).map(|_| random_element(&mut rng)).collect();
    let g1: Vec<F> = (0..logn).map(|_| random_element(&mut rng)).collect();
    let alpha: F = random_element(&mut rng);
    let mut t = vec![F::ONE; 3];
    eq2_table(&g0, &g1, alpha, n, &mut t);
    assert_eq!(t.len(), n);
    for (i, v) in t.iter().enumerate() {
        assert_eq!(
            *v,
            eq_direct(&g0, i) + alpha * eq_direct(&g1, i),
            "index {i}"
        );
    }
}

/// Values of `t ↦ Σ bind(a,t)[i]·bind(b,t)[i]` at t, by binding both arrays.
fn bound_dot<F: Field>(a: &[F], b: &[F], t: F) -> F {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    bind_into(a, t, &mut x);
    bind_into(b, t, &mut y);
    x.iter().zip(&y).fold(F::ZERO, |s, (p, q)| s + *p * *q)
}

fn check_round<F: Field>(seed: u64, n: usize) {
    let mut rng = MdocLcg::new(seed);
    let a: Vec<F> = (0..n).map(|_| random_element(&mut rng)).collect();
    let b: Vec<F> = (0..n).map(|_| random_element(&mut rng)).collect();
    let lag = Lagrange::<F>::new();
    let (a0, a2) = round_coefficients(&a, &b);
    let claim = bound_dot(&a, &b, F::ZERO) + bound_dot(&a, &b, F::ONE);
    let [p0, p1, p2] = lag.round_values(a0, a2, claim);
    assert_eq!(p0, bound_dot(&a, &b, F::ZERO));
    assert_eq!(p1, bound_dot(&a, &b, F::ONE));
    assert_eq!(p2, bound_dot(&a, &b, F::from_index(2)));
    let r: F = random_element(&mut rng);
    assert_eq!(lag.eval(p0, p1, p2, r), bound_dot(&a, &b, r));
}

proptest! {
    #[test]
    fn eq_table_fp128(seed in any::<u64>(), logn in 0usize..7, frac in 0.0f64..1.0) {
        let n = ((frac * (1usize << logn) as f64) as usize).max(1);
        check_eq::<Fp128>(seed, logn, n);
    }

    #[test]
    fn eq_table_gf2_128(seed in any::<u64>(), logn in 0usize..7, frac in 0.0f64..1.0) {
        let n = ((frac * (1usize << logn) as f64) as usize).max(1);
        check_eq::<Gf2_128>(seed, logn, n);
    }

    #[test]
    fn eq2_table_fp128(seed in any::<u64>(), logn in 0usize..9, frac in 0.0f64..1.0) {
        let n = (frac * (1usize << logn) as f64) as usize;
        check_eq2::<Fp128>(seed, logn, n);
    }

    #[test]
    fn eq2_table_gf2_128(seed in any::<u64>(), logn in 0usize..9, frac in 0.0f64..1.0) {
        let n = (frac * (1usize << logn) as f64) as usize;
        check_eq2::<Gf2_128>(seed, logn, n);
    }

    #[test]
    fn bind_in_place_matches_bind_into(seed in any::<u64>(), n in 0usize..300) {
        let mut rng = MdocLcg::new(seed);
        let v: Vec<Gf2_128> = (0..n).map(|_| random_element(&mut rng)).collect();
        let r: Gf2_128 = random_element(&mut rng);
        // Pair by pair from the definition (a missing partner is zero).
        let expected: Vec<Gf2_128> = v
            .chunks(2)
            .map(|p| {
                let hi = p.get(1).copied().unwrap_or(Gf2_128::ZERO);
                p[0] + r * (hi - p[0])
            })
            .collect();
        let mut into = Vec::new();
        bind_into(&v, r, &mut into);
        prop_assert_eq!(&into, &expected);
        let mut inplace = v.clone();
        bind_in_place(&mut inplace, r);
        prop_assert_eq!(inplace, expected);
    }

    #[test]
    fn round_poly_fp128(seed in any::<u64>(), n in 1usize..300) {
        check_round::<Fp128>(seed, n);
    }

    #[test]
    fn round_poly_gf2_128(seed in any::<u64>(), n in 1usize..300) {
        check_round::<Gf2_128>(seed, n);
    }
}

#[test]
fn lagrange_nodes() {
    fn at_nodes<F: Field>() {
        let lag = Lagrange::<F>::new();
        assert_eq!(lag.basis(F::ZERO), [F::ONE, F::ZERO, F::ZERO]);
        assert_eq!(lag.basis(F::ONE), [F::ZERO, F::ONE, F::ZERO]);
        assert_eq!(lag.basis(F::from_index(2)), [F::ZERO, F::ZERO, F::ONE]);
    }
    at_nodes::<Fp128>();
    at_nodes::<Gf2_128>();
}

#[test]
fn log2_ceil_values() {
    let want = [
        (0, 0),
        (1, 0),
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (1024, 10),
        (1025, 11),
    ];
    for (n, k) in want {
        assert_eq!(log2_ceil(n), k, "n = {n}");
    }
}
