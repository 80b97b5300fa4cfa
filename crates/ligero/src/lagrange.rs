//! Evaluation of degree-`< k` polynomials, given by their values at the
//! first `k` evaluation points, at a few other points.
//!
//! The verifier needs every witness-row coefficient vector of the linear
//! test only at the `nreq` opened columns; a `nreq × k` matrix of Lagrange
//! basis values replaces one full Reed–Solomon encoding per row. Exact field
//! arithmetic, so the result equals evaluating the encoded row.

use longfellow_field::{batch_invert, Field, FieldKind};

/// `matrix[j·k + m] = L_m(from_index(points[j]))` where `L_m` is the
/// Lagrange basis polynomial of the nodes `from_index(0..k)`. Every point
/// must be `≥ k` (and the field must embed all indices distinctly).
pub(crate) struct LagrangeMatrix<F> {
    k: usize,
    matrix: Vec<F>,
}

impl<F: Field> LagrangeMatrix<F> {
    pub(crate) fn new(k: usize, points: &[usize]) -> Self {
        let nodes: Vec<F> = (0..k as u64).map(F::from_index).collect();
        let weights = barycentric_weights(&nodes);
        let mut matrix = Vec::with_capacity(points.len() * k);
        for &p in points {
            let x = F::from_index(p as u64);
            let mut diffs: Vec<F> = nodes.iter().map(|&n| x - n).collect();
            let ell = diffs.iter().fold(F::ONE, |acc, &d| acc * d);
            batch_invert(&mut diffs);
            matrix.extend(diffs.iter().zip(&weights).map(|(&inv, &wt)| ell * wt * inv));
        }
        Self { k, matrix }
    }

    /// Basis values at the `j`-th point.
    pub(crate) fn row(&self, j: usize) -> &[F] {
        &self.matrix[j * self.k..(j + 1) * self.k]
    }

    /// `Σ_m L_m(point_j)·values[m]` for a message of length `k`.
    pub(crate) fn eval(&self, j: usize, values: &[F]) -> F {
        dot(self.row(j), values)
    }
}

pub(crate) fn dot<F: Field>(a: &[F], b: &[F]) -> F {
    a.iter().zip(b).fold(F::ZERO, |acc, (&x, &y)| acc + x * y)
}

/// `1 / Π_{m≠i}(X_i − X_m)` for every node.
fn barycentric_weights<F: Field>(nodes: &[F]) -> Vec<F> {
    let k = nodes.len();
    let mut denominators = match F::KIND {
        // Nodes are 0, 1, …, k−1: Π_{m≠i}(i − m) = i!·(k−1−i)!·(−1)^(k−1−i).
        FieldKind::Prime => {
            let mut fact = Vec::with_capacity(k);
            let mut acc = F::ONE;
            for i in 0..k {
                if i > 0 {
                    acc *= F::from_u64(i as u64);
                }
                fact.push(acc);
            }
            (0..k)
                .map(|i| {
                    let d = fact[i] * fact[k - 1 - i];
                    if (k - 1 - i) % 2 == 1 {
                        -d
                    } else {
                        d
                    }
                })
                .collect::<Vec<F>>()
        }
        FieldKind::Binary => (0..k)
            .map(|i| {
                nodes
                    .iter()
                    .enumerate()
                    .filter(|&(m, _)| m != i)
                    .fold(F::ONE, |acc, (_, &n)| acc * (nodes[i] - n))
            })
            .collect(),
    };
    batch_invert(&mut denominators);
    denominators
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use longfellow_field::{Fp256, Gf2_128};

    /// Direct Lagrange evaluation, independent of the barycentric form.
    fn naive<F: Field>(values: &[F], x: F) -> F {
        let k = values.len();
        let nodes: Vec<F> = (0..k as u64).map(F::from_index).collect();
        let mut sum = F::ZERO;
        for i in 0..k {
            let mut num = F::ONE;
            let mut den = F::ONE;
            for m in 0..k {
                if m != i {
                    num *= x - nodes[m];
                    den *= nodes[i] - nodes[m];
                }
            }
            sum += values[i] * num * den.invert().unwrap();
        }
        sum
    }

    fn check<F: Field>() {
        for k in [1usize, 2, 5, 8, 13] {
            let values: Vec<F> = (0..k as u64)
                .map(|i| F::from_index(37 * i + 11) * F::from_index(i + 3) + F::from_u64(i))
                .collect();
            let points = [k, k + 1, 3 * k + 5];
            let lm = LagrangeMatrix::<F>::new(k, &points);
            for (j, &p) in points.iter().enumerate() {
                assert_eq!(lm.eval(j, &values), naive(&values, F::from_index(p as u64)));
            }
        }
    }

    #[test]
    fn matches_naive_interpolation_fp256() {
        check::<Fp256>();
    }

    #[test]
    fn matches_naive_interpolation_gf2_128() {
        check::<Gf2_128>();
    }
}
