//! Linear convolution of a short input with a fixed kernel, by FFT.
//!
//! Both convolvers compute, for a kernel `h` of length `n − 1` fixed at
//! construction and inputs `x` of length `k`,
//! `out[r] = Σ_j x[j]·h[k − 1 + r − j]` for `r < n − k`, using a cyclic
//! convolution of length `size ≥ n − 1`: the full linear convolution has
//! length `k + n − 2`, so only its entries below `k − 1` wrap around onto
//! entries we read, and those are never read.

use longfellow_field::Field;

use super::fft::{bit_reverse, dif, dit, twiddle_table};
use super::fp2::Fp2;

/// For fields whose `p − 1` has enough factors of two: the FFT runs in `F`.
#[derive(Debug, Clone)]
pub(crate) struct DirectConvolution<F> {
    /// Powers of a root `w` of order `size`.
    tw: Vec<F>,
    /// Powers of `w⁻¹`.
    tw_inv: Vec<F>,
    /// `w^{size/4}`, a square root of −1 (unused below size 4).
    iota: F,
    /// `DFT(h) / size`, bit-reversed.
    kernel: Vec<F>,
}

impl<F: Field> DirectConvolution<F> {
    /// `root` must have order exactly `size` (a power of two `≥ 2`).
    pub(crate) fn new(h: &[F], size: usize, root: F) -> Self {
        let root_inv = root.invert().unwrap_or(F::ZERO);
        let tw = twiddle_table(root, F::ONE, size);
        let tw_inv = twiddle_table(root_inv, F::ONE, size);
        let iota = tw[size / 4];
        let mut kernel = vec![F::ZERO; size];
        kernel[..h.len()].copy_from_slice(h);
        dif(&mut kernel, &tw, h.len(), |x| x * iota);
        let inv_size = F::from_u64(size as u64).invert().unwrap_or(F::ZERO);
        for c in &mut kernel {
            *c *= inv_size;
        }
        Self {
            tw,
            tw_inv,
            iota,
            kernel,
        }
    }

    /// Elements of the transform buffer [`Self::run`] works in.
    pub(crate) fn buffer_len(&self) -> usize {
        self.kernel.len()
    }

    /// `x[j] = inputs[j]·scale[j]`; see the module docs for `out`. `a` is
    /// working memory, resized to [`Self::buffer_len`].
    pub(crate) fn run(&self, inputs: &[F], scale: &[F], out: &mut [F], a: &mut Vec<F>) {
        let k = inputs.len();
        a.clear();
        a.resize(self.kernel.len(), F::ZERO);
        for ((a, y), s) in a.iter_mut().zip(inputs).zip(scale) {
            *a = *y * *s;
        }
        let (iota, iota_inv) = (self.iota, -self.iota);
        dif(a, &self.tw, k, |x| x * iota);
        for (a, h) in a.iter_mut().zip(&self.kernel) {
            *a *= *h;
        }
        dit(a, &self.tw_inv, |x| x * iota_inv);
        out.copy_from_slice(&a[k - 1..k - 1 + out.len()]);
    }
}

/// For `p ≡ 3 (mod 4)` (P-256): the FFT runs in `F[i]`, and since inputs,
/// kernel and result all lie in `F`, a length-`size` transform is done as
/// a length-`size/2` one on `z[j] = x[2j] + i·x[2j+1]`.
///
/// With `Z = DFT(z)`, `E`/`O` the transforms of the even/odd samples and
/// `w` the order-`size` root (norm one, so `conj(w) = w⁻¹`):
/// `E[t] = (Z[t] + conj Z[−t])/2`, `O[t] = (Z[t] − conj Z[−t])/(2i)`,
/// `X[t] = E[t] + w^t·O[t]`, `X[t + size/2] = E[t] − w^t·O[t]`. After the
/// pointwise product `C = X·H` the same relations run backwards, and the
/// pair `(t, size/2 − t)` is handled together because a real sequence's
/// spectrum satisfies `C[−t] = conj C[t]`.
#[derive(Debug, Clone)]
pub(crate) struct PackedConvolution<F> {
    /// `log2(size/2)`.
    log_half: u32,
    /// `w^j` for `j < size`.
    tw: Vec<Fp2<F>>,
    /// `w^{−j}` for `j < size`.
    tw_inv: Vec<Fp2<F>>,
    /// Whether `w^{size/4} = i` (otherwise it is `−i`).
    iota_is_i: bool,
    /// For `t ≤ size/4`, with `H = DFT(h)/(2·size)`, `S = H[t] + H[t+size/2]`
    /// and `D = H[t] − H[t+size/2]`: `[S, w^t·D, w^{−t}·D]`. The factor
    /// `1/(2·size)` absorbs the two halvings above and the inverse DFT's
    /// `1/(size/2)`; see [`Self::multiply`] for the rest.
    kernel: Vec<[Fp2<F>; 3]>,
}

impl<F: Field> PackedConvolution<F> {
    /// `root` must have order exactly `size` (a power of two `≥ 2`) and
    /// norm one.
    pub(crate) fn new(h: &[F], size: usize, root: Fp2<F>) -> Self {
        let log_size = size.trailing_zeros();
        let half = size / 2;
        let tw = twiddle_table(root, Fp2::ONE, size);
        let tw_inv = twiddle_table(root.conj(), Fp2::ONE, size);
        let iota_is_i = tw[size / 4] == Fp2::new(F::ZERO, F::ONE);

        // The kernel's full transform, computed once without packing.
        let mut spectrum = vec![Fp2::ZERO; size];
        for (s, x) in spectrum.iter_mut().zip(h) {
            s.re = *x;
        }
        if iota_is_i {
            dif(&mut spectrum, &tw, h.len(), Fp2::mul_i);
        } else {
            dif(&mut spectrum, &tw, h.len(), Fp2::mul_neg_i);
        }
        let scale = F::from_u64(2 * size as u64).invert().unwrap_or(F::ZERO);
        let at = |t: usize| spectrum[bit_reverse(t, log_size)].scale(scale);
        let kernel = (0..=half / 2)
            .map(|t| {
                let (lo, hi) = (at(t), at(t + half));
                let diff = lo - hi;
                [lo + hi, tw[t] * diff, tw[t].conj() * diff]
            })
            .collect();

        Self {
            log_half: log_size - 1,
            tw,
            tw_inv,
            iota_is_i,
            kernel,
        }
    }

    /// Elements of `F[i]` in the transform buffer [`Self::run`] works in.
    pub(crate) fn buffer_len(&self) -> usize {
        1 << self.log_half
    }

    /// `x[j] = inputs[j]·scale[j]`; see the module docs for `out`. `z` is
    /// working memory, resized to [`Self::buffer_len`].
    pub(crate) fn run(&self, inputs: &[F], scale: &[F], out: &mut [F], z: &mut Vec<Fp2<F>>) {
        let k = inputs.len();
        z.clear();
        z.resize(self.buffer_len(), Fp2::ZERO);
        for (j, (y, s)) in inputs.iter().zip(scale).enumerate() {
            let x = *y * *s;
            let slot = &mut z[j / 2];
            if j & 1 == 0 {
                slot.re = x;
            } else {
                slot.im = x;
            }
        }
        // The inverse transform's fourth root is the conjugate.
        if self.iota_is_i {
            dif(z, &self.tw, k.div_ceil(2), Fp2::mul_i);
            self.multiply(z);
            dit(z, &self.tw_inv, Fp2::mul_neg_i);
        } else {
            dif(z, &self.tw, k.div_ceil(2), Fp2::mul_neg_i);
            self.multiply(z);
            dit(z, &self.tw_inv, Fp2::mul_i);
        }
        for (r, o) in out.iter_mut().enumerate() {
            let idx = k - 1 + r;
            let c = z[idx / 2];
            *o = if idx & 1 == 0 { c.re } else { c.im };
        }
    }

    /// Unpacks `DFT(z)` (bit-reversed) into `X`, multiplies by the kernel and
    /// packs the product back, in place.
    ///
    /// Per `t`: `E`, `O` as in the type docs; the product's even/odd spectra
    /// are `E_c = (C[t] + C[t+size/2])/2 = E·S + w^t·O·D` and
    /// `O_c = (C[t] − C[t+size/2])/(2w^t) = w^{−t}·E·D + O·S`, four
    /// multiplications in `F[i]` instead of six for the direct route.
    fn multiply(&self, z: &mut [Fp2<F>]) {
        let half = z.len();
        for (t, [sum, w_diff, w_inv_diff]) in self.kernel.iter().enumerate() {
            let p = bit_reverse(t, self.log_half);
            let q = bit_reverse((half - t) & (half - 1), self.log_half);
            let a = z[p];
            let b = z[q].conj();
            // Twice the even/odd-sample spectra at t.
            let even = a + b;
            let odd = (a - b).mul_neg_i();
            let even_c = even * *sum + odd * *w_diff;
            let odd_c = (even * *w_inv_diff + odd * *sum).mul_i();
            z[p] = even_c + odd_c;
            if q != p {
                z[q] = (even_c - odd_c).conj();
            }
        }
    }
}
