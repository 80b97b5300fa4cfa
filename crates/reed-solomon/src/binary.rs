//! Reed–Solomon extension over GF(2^128) with the additive FFT of Lin, Chung
//! and Han ("Novel polynomial basis and its application to Reed–Solomon
//! erasure codes", FOCS 2014).
//!
//! Notation. `β_0, β_1, …` is the subfield basis, so the evaluation points
//! are `ω_u = inj(u) = Σ bit_b(u)·β_b`. `W_i(X) = Π_{u < 2^i} (X − ω_u)`
//! vanishes on the span `V_i` of `β_0..β_{i−1}` and is GF(2)-linear;
//! `Ŵ_i = W_i / W_i(β_i)`. The novel basis polynomial `X_j` is the product
//! of the `Ŵ_i` for the set bits `i` of `j`, so `{X_j : j < k}` spans the
//! polynomials of degree `< k`, and a row of `k` values has "coefficients"
//! `c_j = 0` for `j ≥ k`.
//!
//! One FFT level. Split `P = P_lo + Ŵ_{i−1}·P_hi` (both halves in the basis
//! `X_j, j < 2^{i−1}`). On the coset `ω_pos + V_i`, `Ŵ_{i−1}` is constant on
//! each half: `t = Ŵ_{i−1}(ω_pos)` on the lower half and `t + 1` on the
//! upper (since `Ŵ_{i−1}(β_{i−1}) = 1`). So the lower half sees
//! `P_lo + t·P_hi` and the upper half `P_lo + (t+1)·P_hi`: the butterfly
//! `(a, b) ↦ (a + t·b, a + (t+1)·b)`, then two half-size problems.
//!
//! Extension. The first block of `N = 2^l ≥ k` points mixes knowns of both
//! kinds — values at `ω_0..ω_{k−1}` and coefficients `c_k..c_{N−1} = 0` — so
//! it is solved by a "bidirectional" recursion in the style of van der
//! Hoeven's truncated Fourier transform that turns each known into the
//! other unknown. That yields all `N` coefficients; every further block
//! `ω_{bN} + V_l` is one forward FFT of them.
//!
//! Kernels. Every butterfly loop is one call of the field's slice kernels
//! ([`Field::butterfly_level`], [`Field::butterflies`], [`Field::axpy`]):
//! `Forward` is the butterfly above, `Backward` its inverse, and `Cross`
//! maps (lower-coset coefficient, `P_hi` coefficient) to (`P_lo`
//! coefficient, upper-coset coefficient). GF(2^128) runs each whole loop
//! with carry-less multiply instructions inlined.

use longfellow_field::{Butterfly, Field, FieldKind};

use crate::{check_row_len, check_sizes, RsEncoder, RsError};

/// Number of subfield basis elements (`inj` takes 16-bit indices).
const SUBFIELD_BITS: usize = 16;

/// Fast encoder for binary fields (LCH14 additive FFT); `O(n log k)`.
#[derive(Debug, Clone)]
pub struct AdditiveFftEncoder<F> {
    k: usize,
    n: usize,
    /// `log2 N`, where `N = 2^l` is the smallest power of two `≥ k`.
    log_block: usize,
    /// `twiddles[i][m] = Ŵ_i(ω_{m·2^{i+1}})`, the level-`i` twiddle of the
    /// size-`2^{i+1}` sub-block starting at point `m·2^{i+1}`, for every
    /// such sub-block below `n` rounded up to a multiple of `N`.
    twiddles: Vec<Vec<F>>,
}

impl<F: Field> AdditiveFftEncoder<F> {
    /// Precomputes the twiddle factors for all blocks touched by `n` points.
    pub fn new(k: usize, n: usize) -> Result<Self, RsError> {
        check_sizes::<F>(k, n)?;
        if F::KIND != FieldKind::Binary {
            return Err(RsError::UnsupportedField(F::KIND));
        }
        let log_block = k.next_power_of_two().trailing_zeros() as usize;
        let block = 1usize << log_block;
        // A multiple of `N` that is at most 2^16 because n < 2^16 and N
        // divides 2^16; so every point index below it has 16 bits.
        let span = n.div_ceil(block) * block;

        let w_hat = normalized_subspace_polys::<F>(log_block);
        let twiddles = (0..log_block)
            .map(|i| {
                let count = span >> (i + 1);
                let mut tw = vec![F::ZERO; count];
                // Ŵ_i is additive: extend from m without its lowest set bit.
                for m in 1..count {
                    let low = m.trailing_zeros() as usize;
                    tw[m] = tw[m & (m - 1)] + w_hat[i][i + 1 + low];
                }
                tw
            })
            .collect();
        Ok(Self {
            k,
            n,
            log_block,
            twiddles,
        })
    }

    /// Twiddle of the level-`i` butterflies in the sub-block starting at
    /// point `pos` (a multiple of `2^{i+1}`).
    #[inline]
    fn twiddle(&self, i: usize, pos: usize) -> F {
        self.twiddles[i][pos >> (i + 1)]
    }

    /// The twiddles of every level-`i` sub-block from point `pos` on.
    #[inline]
    fn twiddles_from(&self, i: usize, pos: usize) -> &[F] {
        &self.twiddles[i][pos >> (i + 1)..]
    }

    /// Coefficients → values: `b` holds the `2^l` novel-basis coefficients of
    /// a polynomial and is overwritten with its values at `ω_{pos..pos+2^l}`.
    fn fft(&self, l: usize, pos: usize, b: &mut [F]) {
        for i in (0..l).rev() {
            F::butterfly_level(b, 1 << i, self.twiddles_from(i, pos), Butterfly::Forward);
        }
    }

    /// Values → coefficients; the inverse of [`Self::fft`].
    fn ifft(&self, l: usize, pos: usize, b: &mut [F]) {
        for i in 0..l {
            F::butterfly_level(b, 1 << i, self.twiddles_from(i, pos), Butterfly::Backward);
        }
    }

    /// Like [`Self::fft`] but only the first `r ≤ 2^l` values are wanted;
    /// the rest of `b` is left as garbage.
    fn fft_prefix(&self, l: usize, pos: usize, r: usize, b: &mut [F]) {
        if l == 0 {
            return;
        }
        let s = 1usize << (l - 1);
        let t = self.twiddle(l - 1, pos);
        let (lo, hi) = b.split_at_mut(s);
        if r <= s {
            // Only the lower half's polynomial P_lo + t·P_hi is needed.
            F::axpy(lo, t, hi);
            self.fft_prefix(l - 1, pos, r, lo);
        } else {
            F::butterflies(lo, hi, t, Butterfly::Forward);
            self.fft(l - 1, pos, lo);
            self.fft_prefix(l - 1, pos + s, r - s, hi);
        }
    }

    /// The mixed transform on `b` of length `2^l`, for the points
    /// `ω_{pos..pos+2^l}`: on entry `b[..k]` are values and `b[k..]` are
    /// coefficients of one polynomial; on exit `b[..k]` are its coefficients
    /// and `b[k..]` its values.
    fn bidirectional(&self, l: usize, pos: usize, k: usize, b: &mut [F]) {
        if l == 0 {
            // One point: the constant coefficient is the value.
            return;
        }
        let s = 1usize << (l - 1);
        let t = self.twiddle(l - 1, pos);
        let (lo, hi) = b.split_at_mut(s);
        if k < s {
            // The upper half of the coefficients is known: push what is known
            // to the lower coset, solve it, then recover the rest.
            F::butterflies(&mut lo[k..], &mut hi[k..], t, Butterfly::Forward);
            self.bidirectional(l - 1, pos, k, lo);
            F::butterflies(&mut lo[..k], &mut hi[..k], t, Butterfly::Cross);
            self.fft(l - 1, pos + s, hi);
        } else {
            // All values on the lower coset are known.
            self.ifft(l - 1, pos, lo);
            let k_hi = k - s;
            F::butterflies(&mut lo[k_hi..], &mut hi[k_hi..], t, Butterfly::Cross);
            self.bidirectional(l - 1, pos + s, k_hi, hi);
            F::butterflies(&mut lo[..k_hi], &mut hi[..k_hi], t, Butterfly::Backward);
        }
    }
}

/// `Ŵ_i(β_j)` for `i < levels`, `j < 16`, from
/// `W_0(X) = X` and `W_{i+1}(X) = W_i(X)·(W_i(X) + W_i(β_i))`.
fn normalized_subspace_polys<F: Field>(levels: usize) -> Vec<[F; SUBFIELD_BITS]> {
    let mut w: [F; SUBFIELD_BITS] = core::array::from_fn(|j| F::from_index(1 << j));
    let mut out = Vec::with_capacity(levels);
    for i in 0..levels {
        // β_0..β_i are linearly independent, so W_i(β_i) ≠ 0.
        let scale = w[i].invert().unwrap_or(F::ZERO);
        out.push(w.map(|x| x * scale));
        let wi = w[i];
        w = w.map(|x| x * (x + wi));
    }
    out
}

impl<F: Field> RsEncoder<F> for AdditiveFftEncoder<F> {
    fn k(&self) -> usize {
        self.k
    }

    fn n(&self) -> usize {
        self.n
    }

    /// One block of `N < 2k` elements.
    type Scratch = Vec<F>;

    fn scratch(&self) -> Vec<F> {
        vec![F::ZERO; 1 << self.log_block]
    }

    fn extend_with(&self, row: &mut [F], coeffs: &mut Vec<F>) {
        check_row_len(row.len(), self.n);
        let (k, n, l) = (self.k, self.n, self.log_block);
        let block = 1usize << l;

        coeffs.clear();
        coeffs.resize(block, F::ZERO);
        coeffs[..k].copy_from_slice(&row[..k]);
        self.bidirectional(l, 0, k, coeffs);
        let first_end = n.min(block);
        row[k..first_end].copy_from_slice(&coeffs[k..first_end]);
        // Degree < k: the remaining coefficients are zero.
        coeffs[k..].fill(F::ZERO);

        let mut pos = block;
        while pos < n {
            let end = pos + block;
            if end <= n {
                let out = &mut row[pos..end];
                out.copy_from_slice(coeffs);
                self.fft(l, pos, out);
            } else {
                // Last, partial block: `coeffs` is no longer needed.
                let r = n - pos;
                self.fft_prefix(l, pos, r, coeffs);
                row[pos..].copy_from_slice(&coeffs[..r]);
            }
            pos = end;
        }
    }
}
