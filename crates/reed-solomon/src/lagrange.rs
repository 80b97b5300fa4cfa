//! Straightforward barycentric Lagrange interpolation.
//!
//! Kept deliberately simple: it is the independent reference the FFT
//! encoders are tested against, and a fallback for any [`Field`].

use longfellow_field::{batch_invert, Field};

use crate::{check_row_len, check_sizes, RsEncoder, RsError};

/// `O(k·n)` reference encoder for any field.
///
/// For an output point `x` it uses the barycentric form
/// `p(x) = ℓ(x) · Σ_j w_j·y_j / (x − X_j)` with `ℓ(x) = Π_j (x − X_j)` and
/// weights `w_j = 1 / Π_{i≠j} (X_j − X_i)` computed once at construction.
#[derive(Debug, Clone)]
pub struct LagrangeEncoder<F> {
    k: usize,
    n: usize,
    points: Vec<F>,
    weights: Vec<F>,
}

impl<F: Field> LagrangeEncoder<F> {
    /// Precomputes the points `X_0..X_{n−1}` and the `k` barycentric weights
    /// (`O(k²)` work).
    pub fn new(k: usize, n: usize) -> Result<Self, RsError> {
        check_sizes::<F>(k, n)?;
        let points: Vec<F> = (0..n as u64).map(F::from_index).collect();
        let mut weights: Vec<F> = points[..k]
            .iter()
            .enumerate()
            .map(|(j, xj)| {
                points[..k]
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != j)
                    .fold(F::ONE, |acc, (_, xi)| acc * (*xj - *xi))
            })
            .collect();
        // Distinct points make every product non-zero, so all invert.
        batch_invert(&mut weights);
        Ok(Self {
            k,
            n,
            points,
            weights,
        })
    }
}

impl<F: Field> RsEncoder<F> for LagrangeEncoder<F> {
    fn k(&self) -> usize {
        self.k
    }

    fn n(&self) -> usize {
        self.n
    }

    /// None: the two vectors of `k` elements it works in are allocated per
    /// call (this encoder is the slow generic fallback, not the provers').
    type Scratch = ();

    fn scratch(&self) {}

    fn extend_with(&self, row: &mut [F], _: &mut ()) {
        check_row_len(row.len(), self.n);
        let (inputs, outputs) = row.split_at_mut(self.k);
        let weighted: Vec<F> = inputs
            .iter()
            .zip(&self.weights)
            .map(|(y, w)| *y * *w)
            .collect();
        let mut prefix = vec![F::ZERO; self.k];
        for (out, x) in outputs.iter_mut().zip(&self.points[self.k..]) {
            // Montgomery's trick: prefix products give ℓ(x) and, after one
            // inversion, every 1/(x − X_j) on the way back.
            let mut acc = F::ONE;
            for (p, xj) in prefix.iter_mut().zip(&self.points[..self.k]) {
                *p = acc;
                acc *= *x - *xj;
            }
            let ell = acc;
            // x differs from every X_j, so ℓ(x) ≠ 0.
            let mut inv = ell.invert().unwrap_or(F::ZERO);
            let mut sum = F::ZERO;
            for j in (0..self.k).rev() {
                let d = *x - self.points[j];
                sum += weighted[j] * inv * prefix[j];
                inv *= d;
            }
            *out = ell * sum;
        }
    }
}
