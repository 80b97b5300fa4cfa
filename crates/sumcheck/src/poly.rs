//! Quadratic round polynomials and their interpolation.
//!
//! A round polynomial is known by its values at the three nodes 0, 1 and
//! `P2 = F::from_index(2)` (the integer 2 in a prime field, the subfield
//! generator in GF(2^128)). Only `p(0)` and `p(P2)` travel: `p(1)` follows
//! from the running claim as `claim − p(0)`.

use longfellow_field::Field;

/// A round polynomial by its values at 0 and at `P2`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundPoly<F> {
    /// `p(0)`.
    pub p0: F,
    /// `p(P2)`.
    pub p2: F,
}

impl<F: Field> RoundPoly<F> {
    /// Component-wise difference (used to apply and remove the pad).
    pub fn sub(&self, other: &Self) -> Self {
        Self {
            p0: self.p0 - other.p0,
            p2: self.p2 - other.p2,
        }
    }
}

/// Lagrange basis for the nodes `0, 1, P2`, with the constant denominators
/// inverted once.
#[derive(Clone, Copy, Debug)]
pub struct Lagrange<F> {
    p2: F,
    /// `1 / ((0−1)(0−P2))`.
    d0: F,
    /// `1 / ((1−0)(1−P2))`.
    d1: F,
    /// `1 / ((P2−0)(P2−1))`.
    d2: F,
}

impl<F: Field> Default for Lagrange<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: Field> Lagrange<F> {
    /// Precomputes the denominators. `P2` differs from 0 and 1 in every
    /// supported field, so the inversions cannot fail.
    pub fn new() -> Self {
        let p2 = F::from_index(2);
        let inv = |x: F| Option::<F>::from(x.invert()).unwrap_or(F::ZERO);
        Self {
            p2,
            d0: inv(p2),
            d1: inv(F::ONE - p2),
            d2: inv(p2 * (p2 - F::ONE)),
        }
    }

    /// The third node `P2`.
    pub fn p2(&self) -> F {
        self.p2
    }

    /// `[L0(r), L1(r), L2(r)]` so that `p(r) = Σ L_i(r)·p(node_i)`.
    pub fn basis(&self, r: F) -> [F; 3] {
        let r1 = r - F::ONE;
        let rp = r - self.p2;
        [r1 * rp * self.d0, r * rp * self.d1, r * r1 * self.d2]
    }

    /// Evaluates at `r` the quadratic with values `p0, p1, p2` at the nodes.
    pub fn eval(&self, p0: F, p1: F, p2: F, r: F) -> F {
        let [l0, l1, l2] = self.basis(r);
        l0 * p0 + l1 * p1 + l2 * p2
    }

    /// The round polynomial `p(t) = a0 + c1·t + a2·t²` given its constant
    /// term `a0`, its leading coefficient `a2` and the claim
    /// `p(0) + p(1) = 2·a0 + c1 + a2` it must satisfy. Returns the values at
    /// 0, 1 and `P2`.
    pub fn round_values(&self, a0: F, a2: F, claim: F) -> [F; 3] {
        let c1 = claim - a0 - a0 - a2;
        let at_p2 = (a2 * self.p2 + c1) * self.p2 + a0;
        [a0, claim - a0, at_p2]
    }
}
