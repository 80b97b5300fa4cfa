//! The fused bind-and-coefficients pass must give exactly what binding and
//! then computing the next half-round's coefficients give: on one thread
//! the fused pass itself (whose coefficient ranges trail the binding by a
//! lag, so groups straddle their edges), on several the split path.

use super::*;
use longfellow_field::{Fp256, Gf2_128};

use longfellow_test_rng::SplitMix64;

/// Test inputs from SplitMix64: no test depends on a seed's luck.
struct Gen(SplitMix64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn element<F: Field>(&mut self) -> F {
        F::from_u64(self.next()) * F::from_u64(self.next()) + F::from_u64(self.next())
    }
}

/// `n` distinct entries with hands below `1 << bits`, in Morton order;
/// `density` (per 256) of the slots are kept, so partners are frequent at
/// high density and rare at low.
fn form<F: Field>(g: &mut Gen, bits: u32, density: u64, n_max: usize) -> HQuad<F> {
    let mut keys = Vec::new();
    for h0 in 0..1u32 << bits {
        for h1 in 0..1u32 << bits {
            if g.next() % 256 < density {
                keys.push([h0, h1]);
            }
        }
    }
    keys.sort_by_key(|k| morton(k[0], k[1]));
    keys.truncate(n_max);
    let v = keys.iter().map(|_| g.element()).collect();
    HQuad { h: keys, v }
}

/// The coefficients from their definition, one entry at a time: entry
/// `(k, y)` of `hand` (other hand `y`) adds `Q·x[y]·w[k]` to `a0` when `k`
/// is even, and `±Q·x[y]·(w[k|1] − w[k&!1])` to `a2` (minus for even `k`).
fn plain_coefficients<F: Field>(
    quad: &HQuad<F>,
    hand: usize,
    w_hand: &[F],
    w_other: &[F],
) -> (F, F) {
    let wire = |i: usize| w_hand.get(i).copied().unwrap_or(F::ZERO);
    let (mut a0, mut a2) = (F::ZERO, F::ZERO);
    for (key, q) in quad.entries() {
        let k = key[hand] as usize;
        let qx = q * w_other[key[1 - hand] as usize];
        let w_diff = wire(k | 1) - wire(k & !1);
        if k & 1 == 0 {
            a0 += qx * wire(k);
            a2 -= qx * w_diff;
        } else {
            a2 += qx * w_diff;
        }
    }
    (a0, a2)
}

fn check<F: Field>(seed: u64, bits: u32, density: u64, n_max: usize) {
    let mut g = Gen(SplitMix64(seed));
    let quad: HQuad<F> = form(&mut g, bits, density, n_max);
    let width = 1usize << bits;
    for hand in 0..2 {
        let next = 1 - hand;
        // The bound hand's wires are half as many; the next hand's last
        // wire is left out (where there are two) to reach the missing-wire
        // case.
        let w_bound: Vec<F> = (0..(width / 2).max(1)).map(|_| g.element()).collect();
        let w_next: Vec<F> = (0..(width - 1).max(1)).map(|_| g.element()).collect();
        let r: F = g.element();

        let mut expected = quad.clone();
        expected.bind_h(hand, r);
        let want = expected.round_coefficients(next, w_next.as_slice(), w_bound.as_slice());
        let plain = plain_coefficients(&expected, next, &w_next, &w_bound);
        assert!(
            want == plain,
            "seed {seed} bits {bits} hand {hand}: grouped sums"
        );

        for threads in [1, 2, 3, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            let mut fused = quad.clone();
            let got = pool.install(|| {
                fused.bind_h_and_coefficients(hand, r, w_next.as_slice(), w_bound.as_slice())
            });
            let case =
                format!("seed {seed} bits {bits} density {density} hand {hand}, {threads} threads");
            assert_eq!(fused.h, expected.h, "{case}: keys");
            assert_eq!(fused.v, expected.v, "{case}: values");
            assert!(got == want, "{case}: coefficients");
        }
    }
}

#[test]
fn fused_pass_matches_separate_passes_gf2_128() {
    for seed in 0..4 {
        // Dense forms: most entries have partners in both hands.
        check::<Gf2_128>(seed, 7, 230, usize::MAX);
        // Sparse forms: mostly lone entries, ranges end on either parity.
        check::<Gf2_128>(seed + 10, 9, 40, usize::MAX);
        check::<Gf2_128>(seed + 20, 8, 128, 9000 + 7 * seed as usize);
    }
}

#[test]
fn fused_pass_matches_separate_passes_small_forms() {
    for seed in 0..16 {
        for (bits, density) in [(0, 256), (1, 200), (2, 100), (3, 30)] {
            check::<Gf2_128>(seed, bits, density, usize::MAX);
        }
    }
}

#[test]
fn fused_pass_matches_separate_passes_fp256() {
    check::<Fp256>(1, 7, 200, usize::MAX);
    check::<Fp256>(2, 9, 50, usize::MAX);
}

/// `n` wires drawn from a table of `t` values (zero and one first, as the
/// stored layers have them), table-coded with two-byte indices.
fn coded<F: Field>(g: &mut Gen, t: usize, n: usize) -> (Vec<F>, Vec<u16>) {
    let mut table = vec![F::ZERO, F::ONE];
    while table.len() < t {
        table.push(g.element());
    }
    table.truncate(t.max(1));
    let index = (0..n)
        .map(|_| {
            // Mostly zeros and ones, like SHA-256 wires.
            let i = g.next() % 8;
            (if i < 6 { i % 2 } else { g.next() % t as u64 }) as u16
        })
        .map(|i| i.min(table.len() as u16 - 1))
        .collect();
    (table, index)
}

/// Coded wires on either hand (each summing mode: by both codes, by the
/// hand's code, plain products) against the definition, bound then summed
/// and fused, at several thread counts.
fn check_coded<F: Field>(seed: u64, bits: u32, density: u64, t_next: usize, t_bound: usize) {
    use crate::wires::Coded;
    let mut g = Gen(SplitMix64(seed));
    let quad: HQuad<F> = form(&mut g, bits, density, usize::MAX);
    let width = 1usize << bits;
    for hand in 0..2 {
        let next = 1 - hand;
        let (tn, in_) = coded::<F>(&mut g, t_next, (width - 1).max(1));
        let (tb, ib) = coded::<F>(&mut g, t_bound, (width / 2).max(1));
        let dense = |t: &[F], i: &[u16]| i.iter().map(|&i| t[i as usize]).collect::<Vec<F>>();
        let (w_next, w_bound) = (dense(&tn, &in_), dense(&tb, &ib));
        let (c_next, c_bound) = (Coded::new(&tn, &in_), Coded::new(&tb, &ib));
        let r: F = g.element();
        let mut expected = quad.clone();
        expected.bind_h(hand, r);
        let want = plain_coefficients(&expected, next, &w_next, &w_bound);
        let case = format!(
            "seed {seed} bits {bits} density {density} tables {t_next}/{t_bound} hand {hand}"
        );
        assert!(
            expected.round_coefficients(next, &c_next, &c_bound) == want,
            "{case}: both coded"
        );
        assert!(
            expected.round_coefficients(next, &c_next, w_bound.as_slice()) == want,
            "{case}: hand coded"
        );
        assert!(
            expected.round_coefficients(next, w_next.as_slice(), &c_bound) == want,
            "{case}: other coded"
        );
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            let mut fused = quad.clone();
            let got = pool.install(|| fused.bind_h_and_coefficients(hand, r, &c_next, &c_bound));
            assert_eq!(fused.v, expected.v, "{case}, {threads} threads: values");
            assert!(got == want, "{case}, {threads} threads: fused, both coded");
            let mut fused = quad.clone();
            let got = pool
                .install(|| fused.bind_h_and_coefficients(hand, r, &c_next, w_bound.as_slice()));
            assert!(got == want, "{case}, {threads} threads: fused, hand coded");
        }
    }
}

#[test]
fn coded_wires_sum_by_code_gf2_128() {
    for seed in 0..3 {
        // Both tables tiny (bucketed by both codes), one larger (by the
        // hand's code only), and tables as large as the pass allows.
        check_coded::<Gf2_128>(seed, 8, 200, 2, 2);
        check_coded::<Gf2_128>(seed + 10, 9, 40, 5, 7);
        check_coded::<Gf2_128>(seed + 20, 9, 60, 300, 3);
        check_coded::<Gf2_128>(seed + 30, 9, 60, 3, 300);
        check_coded::<Gf2_128>(seed + 40, 7, 230, 1000, 1000);
        check_coded::<Gf2_128>(seed + 50, 2, 256, 2, 2);
    }
}

#[test]
fn coded_wires_sum_by_code_fp256() {
    check_coded::<Fp256>(1, 8, 120, 3, 4);
    check_coded::<Fp256>(2, 9, 50, 200, 3);
}
