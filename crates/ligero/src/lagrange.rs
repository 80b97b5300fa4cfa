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

/// `Σ a_i·b_i`, through the field's slice kernel (reduction deferred
/// over the whole sum where the field supports it).
pub(crate) fn dot<F: Field>(a: &[F], b: &[F]) -> F {
    F::dot(a, b)
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
        FieldKind::Binary => binary_denominators(k),
    };
    batch_invert(&mut denominators);
    denominators
}

/// `Π_{m<k, m≠i} inj(i ⊕ m)` for every `i < k`: the barycentric
/// denominators for the nodes `inj(0..k)` of a binary field, where
/// `inj(a) − inj(b) = inj(a ⊕ b)`.
///
/// `[0, k)` splits into dyadic blocks `[base, base + 2^s)` (one per set bit
/// of `k`), and `i ⊕ [base, base + 2^s)` is the dyadic block starting at
/// `c = (i ⊕ base)` with its low `s` bits cleared. The product of `inj`
/// over such a block is the subspace polynomial `Z_s(inj(c))`, or, for the
/// block containing 0 (which must be skipped), the constant
/// `Π_{0<t<2^s} inj(t)`. `O(k·log² k)` instead of `O(k²)`.
fn binary_denominators<F: Field>(k: usize) -> Vec<F> {
    let bits = usize::BITS - k.leading_zeros();
    let bits = bits as usize;
    // z[j] = Z_j(β_j) with Z_0(x) = x, Z_{j+1}(x) = Z_j(x)·(Z_j(x) + z[j]).
    let subspace = |s: usize, x: F, z: &[F]| -> F {
        let mut v = x;
        for &zj in &z[..s] {
            v = v * (v + zj);
        }
        v
    };
    let mut z: Vec<F> = Vec::with_capacity(bits);
    for j in 0..bits {
        let beta = F::from_index(1u64 << j);
        let zj = subspace(j, beta, &z);
        z.push(zj);
    }
    // nonzero[s] = Π_{0<t<2^s} inj(t) = Π_{j<s} z[j].
    let mut nonzero = Vec::with_capacity(bits + 1);
    let mut acc = F::ONE;
    nonzero.push(acc);
    for &zj in &z {
        acc *= zj;
        nonzero.push(acc);
    }
    let mut blocks = Vec::new();
    let mut base = 0usize;
    for s in (0..bits).rev() {
        if k >> s & 1 == 1 {
            blocks.push((base, s));
            base += 1 << s;
        }
    }
    (0..k)
        .map(|i| {
            blocks.iter().fold(F::ONE, |prod, &(base, s)| {
                let c = (i ^ base) >> s << s;
                prod * if c == 0 {
                    nonzero[s]
                } else {
                    subspace(s, F::from_index(c as u64), &z)
                }
            })
        })
        .collect()
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
        for k in [1usize, 2, 5, 8, 13, 37, 64, 100] {
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
    fn fast_binary_denominators_match_quadratic_product() {
        for k in 1..80usize {
            let nodes: Vec<Gf2_128> = (0..k as u64).map(Gf2_128::from_index).collect();
            let direct: Vec<Gf2_128> = (0..k)
                .map(|i| {
                    (0..k)
                        .filter(|&m| m != i)
                        .fold(Gf2_128::ONE, |acc, m| acc * (nodes[i] - nodes[m]))
                })
                .collect();
            assert_eq!(binary_denominators::<Gf2_128>(k), direct, "k = {k}");
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
