//! Reed–Solomon extension over prime fields by one convolution.
//!
//! With `d = k − 1` and inputs `y_j = P(j)`, Lagrange interpolation at the
//! integers `0..=d` gives, for an integer `t > d`,
//!
//! `P(t) = Π_{i≤d}(t − i) · Σ_j y_j / ((t − j)·Π_{i≠j}(j − i))`
//! `     = (−1)^d·(t − d)·C(t, d) · Σ_j [(−1)^j·C(d, j)·y_j] · 1/(t − j)`,
//!
//! because `Π_{i≤d}(t − i) = (t − d)·C(t, d)·d!` and
//! `Π_{i≠j}(j − i) = (−1)^{d−j}·j!·(d − j)!`. The sum is a convolution of
//! the scaled inputs with the fixed kernel `s ↦ 1/s`, done by FFT
//! (see [`conv`]); the binomial factors before and after are precomputed.

mod conv;
mod fft;
mod fp2;
mod roots;

use longfellow_field::{batch_invert, Field, FieldKind};

use crate::{check_row_len, check_sizes, RsEncoder, RsError};
use conv::{DirectConvolution, PackedConvolution};
use fp2::Fp2;
use roots::{fp2_two_adic_root, prime_two_adic_root, BigUint};

/// Fast encoder for prime fields: binomial-coefficient convolution by FFT,
/// `O(n log n)` per row.
///
/// For `p ≡ 3 (mod 4)` (the P-256 base field, whose `p − 1` is divisible by
/// 2 only) the FFT runs over `F[i]/(i² + 1)`; otherwise directly over `F`
/// (e.g. Fp128, with `2^108 | p − 1`). Roots of unity are derived from the
/// modulus at construction.
#[derive(Debug, Clone)]
pub struct PrimeFftEncoder<F> {
    k: usize,
    n: usize,
    /// `(−1)^j·C(k − 1, j)` for `j < k`.
    input_scale: Vec<F>,
    /// `(−1)^{k−1}·(t − k + 1)·C(t, k − 1)` for `k ≤ t < n`.
    output_scale: Vec<F>,
    /// `None` when `k = n` (nothing to compute).
    conv: Option<Convolution<F>>,
}

/// The working memory of [`PrimeFftEncoder::extend_with`]: the transform
/// buffer of whichever convolution the field uses.
#[derive(Debug, Clone)]
pub struct PrimeScratch<F> {
    packed: Vec<Fp2<F>>,
    direct: Vec<F>,
}

#[derive(Debug, Clone)]
enum Convolution<F> {
    Packed(PackedConvolution<F>),
    Direct(DirectConvolution<F>),
}

impl<F: Field> PrimeFftEncoder<F> {
    /// Precomputes the scale factors and the transformed kernel.
    pub fn new(k: usize, n: usize) -> Result<Self, RsError> {
        check_sizes::<F>(k, n)?;
        if F::KIND != FieldKind::Prime {
            return Err(RsError::UnsupportedField(F::KIND));
        }
        let d = k - 1;
        // inv[s] = 1/s for 1 ≤ s < n (n < p, so all are invertible).
        let mut inv: Vec<F> = (0..n as u64).map(F::from_u64).collect();
        batch_invert(&mut inv);

        let mut input_scale = Vec::with_capacity(k);
        let mut binom = F::ONE; // C(d, j)
        input_scale.push(binom);
        for (j, inv_j) in inv.iter().enumerate().take(k).skip(1) {
            binom = binom * F::from_u64((d - j + 1) as u64) * *inv_j;
            input_scale.push(if j & 1 == 0 { binom } else { -binom });
        }

        let mut output_scale = Vec::with_capacity(n - k);
        let mut binom = F::ONE; // C(t, d), starting at t = d
        for t in k..n {
            binom = binom * F::from_u64(t as u64) * inv[t - d];
            let c = binom * F::from_u64((t - d) as u64);
            output_scale.push(if d & 1 == 0 { c } else { -c });
        }

        let conv = if k == n {
            None
        } else {
            Some(Convolution::new(&inv[1..], n)?)
        };
        Ok(Self {
            k,
            n,
            input_scale,
            output_scale,
            conv,
        })
    }
}

impl<F: Field> Convolution<F> {
    /// Chooses the FFT domain for a kernel of length `n − 1 ≥ 1`.
    fn new(h: &[F], n: usize) -> Result<Self, RsError> {
        let size = (n - 1).next_power_of_two().max(2);
        let log_size = size.trailing_zeros();
        let no_root = RsError::NoRootOfUnity { order: size as u64 };
        if BigUint::modulus_minus_one::<F>().trailing_zeros() == 1 {
            // p ≡ 3 (mod 4): −1 is a non-square, F[i] is a field.
            let (g, v) = fp2_two_adic_root::<F>().ok_or(no_root.clone())?;
            if log_size > v {
                return Err(no_root);
            }
            let root = g.square_times(v - log_size);
            Ok(Self::Packed(PackedConvolution::new(h, size, root)))
        } else {
            let (g, v) = prime_two_adic_root::<F>().ok_or(no_root.clone())?;
            if log_size > v {
                return Err(no_root);
            }
            let mut root = g;
            for _ in log_size..v {
                root = root.square();
            }
            Ok(Self::Direct(DirectConvolution::new(h, size, root)))
        }
    }
}

impl<F: Field> RsEncoder<F> for PrimeFftEncoder<F> {
    fn k(&self) -> usize {
        self.k
    }

    fn n(&self) -> usize {
        self.n
    }

    /// One FFT buffer: `size/2` elements of `F[i]` for P-256, `size`
    /// elements of `F` otherwise (`size` = `n − 1` rounded up to a power of
    /// two).
    type Scratch = PrimeScratch<F>;

    fn scratch(&self) -> PrimeScratch<F> {
        let mut scratch = PrimeScratch {
            packed: Vec::new(),
            direct: Vec::new(),
        };
        match &self.conv {
            Some(Convolution::Packed(c)) => scratch.packed = vec![Fp2::ZERO; c.buffer_len()],
            Some(Convolution::Direct(c)) => scratch.direct = vec![F::ZERO; c.buffer_len()],
            None => {}
        }
        scratch
    }

    fn extend_with(&self, row: &mut [F], scratch: &mut PrimeScratch<F>) {
        check_row_len(row.len(), self.n);
        let Some(conv) = &self.conv else {
            return;
        };
        let (inputs, outputs) = row.split_at_mut(self.k);
        match conv {
            Convolution::Packed(c) => {
                c.run(inputs, &self.input_scale, outputs, &mut scratch.packed)
            }
            Convolution::Direct(c) => {
                c.run(inputs, &self.input_scale, outputs, &mut scratch.direct)
            }
        }
        for (o, s) in outputs.iter_mut().zip(&self.output_scale) {
            *o *= *s;
        }
    }
}

#[cfg(test)]
mod tests;
