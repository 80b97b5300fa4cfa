//! Reed–Solomon "extend" for Longfellow's Ligero commitment.
//!
//! A row of `k` field elements is read as the values of the unique polynomial
//! of degree `< k` at the points `X_0, …, X_{k−1}`, where
//! `X_j = F::from_index(j)` (the integer `j` in a prime field, `inj(j)` in
//! GF(2^128)). Extending the row means writing that polynomial's values at
//! `X_k, …, X_{n−1}` after it. Interpolation is exact, so every correct
//! algorithm produces the same bytes as Google's reference; the encoders here
//! differ only in speed:
//!
//! | encoder | fields | cost per row |
//! |---|---|---|
//! | [`PrimeFftEncoder`] | prime fields (P-256 base field, Fp128) | `O(n log n)`: binomial-coefficient convolution by FFT (over `F[i]/(i²+1)` when `p ≡ 3 mod 4`) |
//! | [`AdditiveFftEncoder`] | GF(2^128) | `O(n log k)`: Lin–Chung–Han novel-basis additive FFT |
//! | [`LagrangeEncoder`] | any [`Field`] | `O(k·n)`: barycentric Lagrange, the reference for tests |
//!
//! Encoders are built once per `(k, n)` with their tables precomputed and are
//! then shared (they are `Send + Sync`) across threads; the fast encoders'
//! [`RsEncoder::extend`] allocates one scratch buffer of `O(n)` elements per
//! call and nothing else, so concurrent calls never contend.
//!
//! [`RsField`] picks the fast encoder for each concrete field.
//!
//! Tests check the fast encoders against direct polynomial evaluation, against
//! [`LagrangeEncoder`], and byte-for-byte against digests of the output of
//! Google's C++ `ReedSolomon` / `LCH14ReedSolomon` at the v7 mdoc sizes
//! (`tests/reference_digests.rs`).
#![forbid(unsafe_code)]

mod binary;
mod lagrange;
mod prime;

pub use binary::AdditiveFftEncoder;
pub use lagrange::LagrangeEncoder;
pub use prime::{PrimeFftEncoder, PrimeScratch};

use longfellow_field::{Field, FieldKind, Fp128, Fp256, Gf2_128};

/// Largest codeword length accepted over GF(2^128).
///
/// Evaluation points are `inj(j)` for `j < n`, and `inj` is only defined (and
/// injective) on 16-bit indices; the reference additionally requires
/// `block_enc < 2^16`, so `n = 2^16` is rejected too.
pub const MAX_BINARY_N: usize = (1 << 16) - 1;

/// Largest codeword length accepted over a prime field.
///
/// A sanity bound so that a bad parameter cannot request gigabytes of
/// tables; Longfellow's largest `block_enc` is a few thousand.
pub const MAX_PRIME_N: usize = 1 << 20;

/// Why an encoder cannot be built for the requested sizes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RsError {
    /// `k = 0`: there is no polynomial of degree below zero.
    #[error("Reed-Solomon message length k must be at least 1")]
    EmptyMessage,
    /// More inputs than outputs.
    #[error("Reed-Solomon message length k = {k} exceeds codeword length n = {n}")]
    MessageLongerThanCodeword {
        /// Requested message length.
        k: usize,
        /// Requested codeword length.
        n: usize,
    },
    /// Not enough distinct evaluation points in this field, or the length
    /// exceeds the sanity bound.
    #[error("Reed-Solomon codeword length n = {n} exceeds the maximum {max} for this field")]
    CodewordTooLong {
        /// Requested codeword length.
        n: usize,
        /// Largest accepted length.
        max: usize,
    },
    /// The encoder does not apply to this kind of field (e.g. the additive
    /// FFT over a prime field).
    #[error("this Reed-Solomon encoder does not support {0:?} fields")]
    UnsupportedField(FieldKind),
    /// The prime field has neither a large enough power-of-two root of unity
    /// nor `p ≡ 3 mod 4` (so no FFT domain of the needed size).
    #[error("no power-of-two root of unity of order {order} for this prime field")]
    NoRootOfUnity {
        /// Order that was needed.
        order: u64,
    },
}

/// A precomputed Reed–Solomon extension for fixed `(k, n)`.
pub trait RsEncoder<F>: Send + Sync {
    /// The working memory [`Self::extend_with`] takes (`()` for an encoder
    /// that needs none).
    type Scratch: Send;

    /// Number of input values (the polynomial has degree `< k`).
    fn k(&self) -> usize;

    /// Number of output values (codeword length).
    fn n(&self) -> usize;

    /// Extends `row` in place: `row[..k]` are the values at `X_0..X_{k−1}`,
    /// and `row[k..n]` is overwritten with the values at `X_k..X_{n−1}`.
    ///
    /// # Panics
    ///
    /// If `row.len() != n`. Row lengths are fixed by the caller's parameters,
    /// never read from untrusted data, so a mismatch is a bug in the caller.
    fn extend(&self, row: &mut [F]) {
        let mut scratch = self.scratch();
        self.extend_with(row, &mut scratch);
    }

    /// Working memory for [`Self::extend_with`], allocated here at its full
    /// size. A caller that extends many rows allocates it once, and on the
    /// thread of its choice: buffers a helper thread allocates and frees
    /// stay in that thread's malloc arena, which raises a parallel
    /// prover's peak.
    fn scratch(&self) -> Self::Scratch;

    /// [`Self::extend`] in the working memory `scratch` (from
    /// [`Self::scratch`]; any other value is resized first); the output does
    /// not depend on what `scratch` held.
    ///
    /// # Panics
    ///
    /// As [`Self::extend`].
    fn extend_with(&self, row: &mut [F], scratch: &mut Self::Scratch);
}

/// Fields with a fast Reed–Solomon encoder.
pub trait RsField: Field {
    /// The encoder type for this field.
    type Encoder: RsEncoder<Self>;

    /// Builds (and precomputes) the encoder for `k` inputs and `n` outputs.
    fn rs_encoder(k: usize, n: usize) -> Result<Self::Encoder, RsError>;
}

impl RsField for Fp256 {
    type Encoder = PrimeFftEncoder<Fp256>;

    fn rs_encoder(k: usize, n: usize) -> Result<Self::Encoder, RsError> {
        PrimeFftEncoder::new(k, n)
    }
}

impl RsField for Fp128 {
    type Encoder = PrimeFftEncoder<Fp128>;

    fn rs_encoder(k: usize, n: usize) -> Result<Self::Encoder, RsError> {
        PrimeFftEncoder::new(k, n)
    }
}

impl RsField for Gf2_128 {
    type Encoder = AdditiveFftEncoder<Gf2_128>;

    fn rs_encoder(k: usize, n: usize) -> Result<Self::Encoder, RsError> {
        AdditiveFftEncoder::new(k, n)
    }
}

/// Checks the size rules shared by every encoder.
fn check_sizes<F: Field>(k: usize, n: usize) -> Result<(), RsError> {
    if k == 0 {
        return Err(RsError::EmptyMessage);
    }
    if k > n {
        return Err(RsError::MessageLongerThanCodeword { k, n });
    }
    let max = match F::KIND {
        FieldKind::Binary => MAX_BINARY_N,
        FieldKind::Prime => MAX_PRIME_N,
    };
    if n > max {
        return Err(RsError::CodewordTooLong { n, max });
    }
    Ok(())
}

/// Panics unless the row has the encoder's codeword length (see
/// [`RsEncoder::extend`]).
fn check_row_len(len: usize, n: usize) {
    assert_eq!(len, n, "Reed-Solomon row length must equal n");
}
