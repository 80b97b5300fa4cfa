//! The one trait every layer above is generic over.
//!
//! Longfellow runs the same protocol over two very different fields: the
//! P-256 base field (a 256-bit prime field) for the signature circuit and
//! GF(2^128) for the hash circuit. Everything the upper layers need to know
//! about a field's *wire behaviour* (encodings, how random bytes become an
//! element, which points polynomials are evaluated at) lives here, so that
//! sumcheck, Ligero and the transcript are written once.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

use crate::held::{SelectedPerProduct, WithWideProducts};

/// Whether the field is a prime field or a binary extension field.
///
/// The circuit ID hashes a different field descriptor for each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// GF(p) for an odd prime p.
    Prime,
    /// GF(2^k).
    Binary,
}

/// A finite field element as used by Longfellow.
///
/// Elements are small `Copy` values with the usual operators. Equality via
/// `==` is variable-time and meant for public values; use [`ConstantTimeEq`]
/// for secrets.
pub trait Field:
    Copy
    + Clone
    + Default
    + Debug
    + PartialEq
    + Eq
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
    + ConstantTimeEq
    + ConditionallySelectable
{
    /// Wire identifier of the field in circuit files (1 = P-256 base field,
    /// 4 = GF(2^128)).
    const FIELD_ID: u32;
    /// Prime or binary.
    const KIND: FieldKind;
    /// Bit length of the modulus (prime field) or extension degree (binary).
    const BITS: u32;
    /// Length of the canonical full-field encoding in bytes.
    const BYTES: usize;
    /// Length of the subfield encoding in bytes (equal to [`Self::BYTES`] for
    /// fields that are their own subfield).
    const SUBFIELD_BYTES: usize;
    /// Bytes consumed by one attempt of [`Self::from_uniform_bytes`].
    const SAMPLE_BYTES: usize;
    /// Bytes consumed by one attempt of [`Self::from_uniform_subfield_bytes`].
    const SUBFIELD_SAMPLE_BYTES: usize;

    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;

    /// Canonical full-field encoding: little-endian integer (prime field) or
    /// little-endian coefficient bits (binary field).
    type Repr: AsRef<[u8]> + AsMut<[u8]> + Default + Copy + Debug + Send + Sync;

    /// A sum of products not yet reduced modulo the field's polynomial or
    /// prime: a loop that adds many products reduces once at its end
    /// instead of once per product. `Self` for fields without a cheaper
    /// form.
    type Wide: Copy + Default + Debug + Send + Sync + AddAssign;

    /// `a·b`, unreduced.
    fn mul_wide(a: Self, b: Self) -> Self::Wide;

    /// `a` as a [`Self::Wide`], to be added to products.
    fn widen(a: Self) -> Self::Wide;

    /// The element a [`Self::Wide`] sum stands for.
    fn narrow(w: Self::Wide) -> Self;

    /// Runs `work` with [`Self::mul_wide`] and [`Self::narrow`] on the
    /// kernel this process selected, chosen once here instead of once per
    /// product (see [`crate::held`]). The default holds nothing: it suits
    /// fields whose per-product selection costs little beside the product.
    #[inline]
    fn with_wide_products<W: WithWideProducts<Self>>(work: W) -> W::Output {
        work.run(SelectedPerProduct)
    }

    /// Encodes the element canonically.
    fn to_repr(&self) -> Self::Repr;

    /// Decodes a canonical encoding; non-canonical bytes (an integer ≥ p)
    /// give `None`.
    fn from_repr(repr: &Self::Repr) -> CtOption<Self>;

    /// Decodes from a slice, which must be exactly [`Self::BYTES`] long.
    fn from_bytes(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::BYTES {
            return None;
        }
        let mut repr = Self::Repr::default();
        repr.as_mut().copy_from_slice(bytes);
        Option::from(Self::from_repr(&repr))
    }

    /// Writes the canonical encoding into `out[..Self::BYTES]`.
    fn write_bytes(&self, out: &mut [u8]) {
        out[..Self::BYTES].copy_from_slice(self.to_repr().as_ref());
    }

    /// Whether the element lies in the subfield used for compact encodings
    /// (GF(2^16) inside GF(2^128); the whole field for prime fields).
    fn is_in_subfield(&self) -> bool;

    /// Writes the subfield encoding into `out[..Self::SUBFIELD_BYTES]`;
    /// returns `false` (writing nothing meaningful) if the element is not in
    /// the subfield.
    fn write_subfield_bytes(&self, out: &mut [u8]) -> bool;

    /// Decodes a subfield encoding of exactly [`Self::SUBFIELD_BYTES`] bytes.
    fn from_subfield_bytes(bytes: &[u8]) -> Option<Self>;

    /// One rejection-sampling attempt: interprets `bytes`
    /// ([`Self::SAMPLE_BYTES`] long) as a little-endian integer, masks it to
    /// [`Self::BITS`] bits and rejects values ≥ p. Binary fields accept
    /// everything. Used identically by the Fiat–Shamir transcript and the
    /// prover's random source, so both must agree byte-for-byte with the
    /// reference.
    fn from_uniform_bytes(bytes: &[u8]) -> Option<Self>;

    /// One attempt at sampling a uniform subfield element from
    /// [`Self::SUBFIELD_SAMPLE_BYTES`] bytes.
    fn from_uniform_subfield_bytes(bytes: &[u8]) -> Option<Self>;

    /// The `j`-th evaluation point shared by Reed–Solomon encoding and the
    /// sumcheck round polynomials: the integer `j` in a prime field, and
    /// `inj(j) = Σ bit_i(j)·β_i` (subfield basis β) in GF(2^128), where `j`
    /// must be below 2^16.
    fn from_index(j: u64) -> Self;

    /// Small-integer embedding (`n·1`). In characteristic 2 this is `n mod 2`.
    fn from_u64(n: u64) -> Self;

    /// Multiplicative inverse; none for zero.
    fn invert(&self) -> CtOption<Self>;

    /// `self²`.
    fn square(&self) -> Self {
        *self * *self
    }

    /// `2·self`.
    fn double(&self) -> Self {
        *self + *self
    }

    /// A well-mixed 64-bit digest of the element, for hash tables of
    /// public values (the prover's table-coded wire storage). Not constant
    /// time and not collision resistant. The default hashes the canonical
    /// encoding; fields override it to skip the encoding.
    fn hash_word(&self) -> u64 {
        let repr = self.to_repr();
        let mut h = 0u64;
        for chunk in repr.as_ref().chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            h = mix64(h ^ u64::from_le_bytes(w));
        }
        h
    }

    /// Whether the element is zero (constant time).
    fn is_zero(&self) -> Choice {
        self.ct_eq(&Self::ZERO)
    }

    // Slice kernels. The protocol's inner loops (Ligero's dot checks and
    // responses, Reed–Solomon butterflies) go through these so that a field
    // can run a whole loop in one specialised routine (one CPU-feature check
    // per call, reductions deferred across a sum) instead of paying per
    // element. The defaults are the plain loops; every override must return
    // exactly the same elements.

    /// `Σ a_i·b_i` over the common prefix of `a` and `b`.
    fn dot(a: &[Self], b: &[Self]) -> Self {
        a.iter()
            .zip(b)
            .fold(Self::ZERO, |acc, (&x, &y)| acc + x * y)
    }

    /// `y_i ← y_i + u·x_i` over the common prefix.
    fn axpy(y: &mut [Self], u: Self, x: &[Self]) {
        ops_loops::axpy(y, u, x)
    }

    /// `out_i ← a·x_i + b·y_i` over the common prefix of the three: two
    /// scaled rows summed in one pass, which a field can do with one
    /// reduction per element (the rows of the two-point eq tables, in the
    /// prover's `eq2` table and the verifier's row cache).
    fn lincomb2(out: &mut [Self], a: Self, x: &[Self], b: Self, y: &[Self]) {
        ops_loops::lincomb2(out, a, x, b, y)
    }

    /// `x_i ← x_i·y_i` over the common prefix.
    fn mul_assign_slice(x: &mut [Self], y: &[Self]) {
        ops_loops::mul_assign_slice(x, y)
    }

    /// `x_i ← x_i·y_i` over the common prefix, where each pair `[re, im]`
    /// stands for `re + im·i` in `F[i]/(i² + 1)`: the products of the
    /// Reed–Solomon FFT of prime fields with `p ≡ 3 (mod 4)` (P-256), whose
    /// roots of unity live in that extension. A field can run them as a
    /// slice kernel; the default is the three-product (Karatsuba) loop.
    fn mul_assign_gaussian_slice(x: &mut [[Self; 2]], y: &[[Self; 2]]) {
        ops_loops::mul_assign_gaussian_slice(x, y)
    }

    /// Whether [`Self::mul_assign_gaussian_slice`] runs a kernel faster
    /// than the element loop in this process. Callers that would have to
    /// gather their operands into blocks for it (the FFT's twiddle rows)
    /// ask first, since without a kernel the gathering is pure cost.
    fn gaussian_slice_is_kernel() -> bool {
        false
    }

    /// Applies `kind` with twiddle `t` to every pair `(lo_i, hi_i)` of the
    /// common prefix (the butterflies of an additive FFT).
    fn butterflies(lo: &mut [Self], hi: &mut [Self], t: Self, kind: Butterfly) {
        for (a, c) in lo.iter_mut().zip(hi.iter_mut()) {
            kind.apply(a, c, t);
        }
    }

    /// One level of an additive FFT: `data` is cut into chunks of
    /// `2·half` elements, and chunk `u` gets [`Self::butterflies`] between
    /// its two halves with twiddle `twiddles[u]`.
    ///
    /// # Panics
    ///
    /// If `half` is zero, `data.len()` is not a multiple of `2·half`, or
    /// there are fewer twiddles than chunks.
    fn butterfly_level(data: &mut [Self], half: usize, twiddles: &[Self], kind: Butterfly) {
        check_level(data.len(), half, twiddles.len());
        for (chunk, &t) in data.chunks_exact_mut(2 * half).zip(twiddles) {
            let (lo, hi) = chunk.split_at_mut(half);
            Self::butterflies(lo, hi, t, kind);
        }
    }
}

/// The three butterflies of the Lin–Chung–Han additive FFT, on a pair
/// `(a, c)` with twiddle `t`. Written with `+` and `−` so that they are
/// well defined in any field, though only characteristic 2 makes
/// [`Butterfly::Backward`] the inverse of [`Butterfly::Forward`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Butterfly {
    /// `a ← a + t·c`, then `c ← c + a` (with the new `a`).
    Forward,
    /// `c ← c + a`, then `a ← a + t·c` (with the new `c`).
    Backward,
    /// `(a, c) ← (a + t·c, c + a)`, both from the old values.
    Cross,
}

impl Butterfly {
    /// The butterfly on one pair.
    #[inline(always)]
    pub fn apply<F: Field>(self, a: &mut F, c: &mut F, t: F) {
        (*a, *c) = self.on(*a, *c, |x, y| x + y, |x| t * x);
    }

    /// The butterfly on `(a, c)` in any representation with an addition
    /// `add` and a product by the twiddle `by_t`: one statement of the
    /// three forms for the element above and for the vector kernels,
    /// which run it on registers of one, two or four elements.
    #[inline(always)]
    pub(crate) fn on<V: Copy>(
        self,
        a: V,
        c: V,
        add: impl Fn(V, V) -> V,
        by_t: impl Fn(V) -> V,
    ) -> (V, V) {
        match self {
            Butterfly::Forward => {
                let a = add(a, by_t(c));
                (a, add(c, a))
            }
            Butterfly::Backward => {
                let c = add(c, a);
                (add(a, by_t(c)), c)
            }
            Butterfly::Cross => (add(a, by_t(c)), add(c, a)),
        }
    }
}

/// The slice operations as plain loops over the element operators: the
/// trait's defaults, and the fallback of fields whose own kernels need a
/// CPU feature (one copy of each loop for both).
pub(crate) mod ops_loops {
    use super::Field;

    /// `y_i ← y_i + u·x_i` over the common prefix.
    #[inline]
    pub(crate) fn axpy<F: Field>(y: &mut [F], u: F, x: &[F]) {
        for (a, &b) in y.iter_mut().zip(x) {
            *a += u * b;
        }
    }

    /// `out_i ← a·x_i + b·y_i` over the common prefix of the three.
    #[inline]
    pub(crate) fn lincomb2<F: Field>(out: &mut [F], a: F, x: &[F], b: F, y: &[F]) {
        for ((o, &p), &q) in out.iter_mut().zip(x).zip(y) {
            *o = a * p + b * q;
        }
    }

    /// `x_i ← x_i·y_i` over the common prefix.
    #[inline]
    pub(crate) fn mul_assign_slice<F: Field>(x: &mut [F], y: &[F]) {
        for (a, &b) in x.iter_mut().zip(y) {
            *a *= b;
        }
    }

    /// Products in `F[i]/(i² + 1)` over the common prefix, three base
    /// products each.
    #[inline]
    pub(crate) fn mul_assign_gaussian_slice<F: Field>(x: &mut [[F; 2]], y: &[[F; 2]]) {
        for (a, &[c, d]) in x.iter_mut().zip(y) {
            let [re, im] = *a;
            let (rr, ii) = (re * c, im * d);
            let cross = (re + im) * (c + d);
            *a = [rr - ii, cross - rr - ii];
        }
    }
}

/// Shape check shared by every [`Field::butterfly_level`] implementation.
#[inline]
pub(crate) fn check_level(len: usize, half: usize, twiddles: usize) {
    assert!(half > 0, "butterfly half-size must be positive");
    assert_eq!(len % (2 * half), 0, "butterfly data must be whole chunks");
    assert!(
        twiddles >= len / (2 * half),
        "butterfly level needs one twiddle per chunk"
    );
}

/// Inverts every non-zero element of `values` in place with one field
/// inversion (Montgomery's trick); zeros stay zero.
pub fn batch_invert<F: Field>(values: &mut [F]) {
    let mut prefix = alloc::vec::Vec::with_capacity(values.len());
    let mut acc = F::ONE;
    for v in values.iter() {
        prefix.push(acc);
        if !bool::from(v.is_zero()) {
            acc *= *v;
        }
    }
    let mut inv = acc.invert().unwrap_or(F::ZERO);
    for (v, p) in values.iter_mut().zip(prefix).rev() {
        if bool::from(v.is_zero()) {
            continue;
        }
        let next = inv * *v;
        *v = inv * p;
        inv = next;
    }
}

/// A 64-bit finaliser (multiply–xorshift) spreading every input bit over
/// the output, so that the low bits used as a hash-table slot are uniform.
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 32;
    x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    x ^= x >> 32;
    x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
    x ^ (x >> 32)
}

/// One multiply–xorshift round: the odd constant spreads the low input
/// bits upwards and the fold brings the high half down. Enough for the
/// prover's open-addressing tables, whose slots take the low bits of keys
/// that already vary in their low bits (wire codes, table positions); a
/// second round ([`mix64`]) measured 6–10 % slower over a proof's table
/// coding and coded binding.
#[inline]
pub fn mix64_once(x: u64) -> u64 {
    let x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 32)
}
