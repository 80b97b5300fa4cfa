//! A textbook prover for one layer's rounds, written for clarity rather
//! than speed: the strategies of [`crate::rounds`] are tested against it.
//!
//! The layer's form (already bound at the output point) is kept as its
//! list of entries `Q[h0, h1]`, never merged; the wires are dense. A round
//! polynomial is computed straight from the definition
//! `p(t) = Σ_{h0,h1} Q(h0, h1)·W0(h0)·W1(h1)` with the half-round's bit set
//! to `t`, at each of the three nodes `0, 1, P2`, and binding a bit to `r`
//! replaces each index `h` by `h >> 1` with weight `1 − r` or `r`.

use longfellow_field::Field;
use longfellow_sumcheck::Lagrange;

/// `(1 − t)·x0 + t·x1`: the multilinear extension along one bit.
fn line<F: Field>(x0: F, x1: F, t: F) -> F {
    (F::ONE - t) * x0 + t * x1
}

/// Wire `i` of `w`, zero past its end (the padding up to `2^logw`).
fn wire<F: Field>(w: &[F], i: usize) -> F {
    w.get(i).copied().unwrap_or(F::ZERO)
}

/// `w` with its lowest index bit set to `t`.
fn bind<F: Field>(w: &[F], t: F) -> Vec<F> {
    (0..w.len().div_ceil(2))
        .map(|j| line(wire(w, 2 * j), wire(w, 2 * j + 1), t))
        .collect()
}

/// `Σ Q(h0, h1)·W0(h0)·W1(h1)`: the claim a layer's rounds start from.
pub fn claim<F: Field>(entries: &[([u32; 2], F)], w0: &[F], w1: &[F]) -> F {
    entries.iter().fold(F::ZERO, |acc, &([h0, h1], q)| {
        acc + q * wire(w0, h0 as usize) * wire(w1, h1 as usize)
    })
}

/// The sum with hand `hand`'s lowest bit set to `t`.
fn sum_at<F: Field>(entries: &[([u32; 2], F)], w: &[Vec<F>; 2], hand: usize, t: F) -> F {
    let bound = bind(&w[hand], t);
    entries.iter().fold(F::ZERO, |acc, &(h, q)| {
        let mine = h[hand] as usize;
        let weight = if mine & 1 == 0 { F::ONE - t } else { t };
        acc + q * weight * wire(&bound, mine >> 1) * wire(&w[1 - hand], h[1 - hand] as usize)
    })
}

/// Each half-round's `[p(0), p(1), p(P2)]` for the challenges
/// `r[2·round + hand]`, then `[Q, c0, c1]` once every bit is bound.
pub fn layer_round_values<F: Field>(
    entries: &[([u32; 2], F)],
    wires: &[F],
    logw: usize,
    challenges: &[F],
) -> Vec<[F; 3]> {
    let p2 = Lagrange::<F>::new().p2();
    let mut entries = entries.to_vec();
    let mut w = [wires.to_vec(), wires.to_vec()];
    let mut out = Vec::with_capacity(2 * logw + 1);
    for round in 0..logw {
        for hand in 0..2 {
            out.push([F::ZERO, F::ONE, p2].map(|t| sum_at(&entries, &w, hand, t)));
            let r = challenges[2 * round + hand];
            w[hand] = bind(&w[hand], r);
            for (h, q) in &mut entries {
                let weight = if h[hand] & 1 == 0 { F::ONE - r } else { r };
                *q *= weight;
                h[hand] >>= 1;
            }
        }
    }
    let q = entries.iter().fold(F::ZERO, |acc, &(_, q)| acc + q);
    out.push([q, wire(&w[0], 0), wire(&w[1], 0)]);
    out
}
