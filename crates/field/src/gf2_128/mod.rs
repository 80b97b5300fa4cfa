//! GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1), used by the hash
//! circuit, with its GF(2^16) subfield for compact witness encodings.

mod comb32;
mod comb64;
pub(crate) mod portable;
mod subfield;
mod wide;

pub use wide::Gf2Wide;

use crate::arch::Gf2Path;
use crate::held::WithWideProducts;
use crate::{Butterfly, Field, FieldKind, Gf2Kernel};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

/// An element of GF(2^128): bit i of the `u128` is the coefficient of x^i,
/// and the wire encoding is that `u128` in little-endian order (circuit
/// field ID 4). Every 16-byte string is a valid encoding.
///
/// `repr(transparent)`: the 256- and 512-bit kernels in `arch` read two or
/// four adjacent elements as one vector, which needs exactly the `u128` layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Gf2_128(pub(crate) u128);

const _: () = assert!(core::mem::size_of::<Gf2_128>() == 16);

impl Gf2_128 {
    /// Number of elements in the subfield basis.
    pub const SUBFIELD_DEGREE: usize = subfield::DEGREE;

    /// The element whose coefficient bits are `bits`.
    pub const fn from_u128(bits: u128) -> Self {
        Self(bits)
    }

    /// The coefficient bits of the element.
    pub const fn to_u128(self) -> u128 {
        self.0
    }

    /// The generator g = x^((2^128−1)/(2^16−1)) of the GF(2^16) subfield.
    pub const fn subfield_generator() -> Self {
        Self(subfield::GENERATOR)
    }

    /// The subfield basis β_i = g^i, i < 16, in which subfield elements are
    /// encoded.
    pub const fn subfield_basis() -> [Self; subfield::DEGREE] {
        let mut out = [Self(0); subfield::DEGREE];
        let mut i = 0;
        while i < subfield::DEGREE {
            out[i] = Self(subfield::BASIS[i]);
            i += 1;
        }
        out
    }

    /// inj(u) = Σ bit_i(u)·β_i: the subfield element with coordinates `u`.
    pub fn from_subfield_coordinates(u: u16) -> Self {
        Self(subfield::inject(u))
    }

    /// The subfield coordinates of the element, if it lies in the subfield
    /// (constant time).
    pub fn to_subfield_coordinates(&self) -> CtOption<u16> {
        let (coords, residual) = subfield::solve(self.0);
        CtOption::new(coords, ct_eq_u128(residual, 0))
    }

    /// Product computed without carry-less multiply instructions. Exposed so
    /// tests and benchmarks can compare it against the hardware path.
    #[doc(hidden)]
    pub fn mul_portable(self, rhs: Self) -> Self {
        Self(portable::mul(self.0, rhs.0))
    }

    /// The portable product with 64×64 → 128-bit integer products (the
    /// variant 64-bit targets select), callable on any target so tests and
    /// instruction counts cover both variants.
    #[doc(hidden)]
    pub fn mul_comb64(self, rhs: Self) -> Self {
        let (lo, hi) = comb64::clmul128(self.0, rhs.0);
        Self(portable::reduce(lo, hi))
    }

    /// The portable product with 32×32 → 64-bit integer products (the
    /// variant 32-bit targets such as wasm32 select); see [`Self::mul_comb64`].
    #[doc(hidden)]
    pub fn mul_comb32(self, rhs: Self) -> Self {
        let (lo, hi) = comb32::clmul128(self.0, rhs.0);
        Self(portable::reduce(lo, hi))
    }

    /// The textbook shift-and-add product (branches on `rhs`): the oracle
    /// the constant-time paths are tested against, never used on secrets.
    #[doc(hidden)]
    pub fn mul_textbook(self, rhs: Self) -> Self {
        Self(portable::mul_schoolbook(self.0, rhs.0))
    }

    /// Whether multiplication uses a hardware carry-less multiply in this
    /// process (see [`crate::kernels`]).
    #[doc(hidden)]
    pub fn uses_hardware_mul() -> bool {
        crate::kernels().gf2_128 != Gf2Kernel::Portable
    }

    /// Whether [`Field::dot`] uses the 512-bit carry-less multiply
    /// (AVX-512 VPCLMULQDQ, four products per instruction) in this process.
    #[doc(hidden)]
    pub fn uses_wide_dot() -> bool {
        crate::kernels().gf2_128 == Gf2Kernel::Clmul512
    }

    // The same operations on a kernel of the caller's choice, whatever the
    // process selected, so tests can run every path this CPU has against
    // the portable one. `None` (or `false`) when this CPU lacks it.

    /// `a·b` on `kernel`.
    #[doc(hidden)]
    pub fn mul_on(kernel: Gf2Kernel, a: Self, b: Self) -> Option<Self> {
        let path = Gf2Path::new(kernel)?;
        Some(Self(crate::arch::gf_mul(path, a.0, b.0)))
    }

    /// `Σ a_i·b_i` through [`Field::mul_wide`] and one [`Field::narrow`],
    /// both on `kernel`.
    #[doc(hidden)]
    pub fn wide_sum_on(kernel: Gf2Kernel, a: &[Self], b: &[Self]) -> Option<Self> {
        let path = Gf2Path::new(kernel)?;
        let mut acc = Gf2Wide::default();
        for (x, y) in a.iter().zip(b) {
            acc += Gf2Wide(crate::arch::gf_mul_wide(path, x.0, y.0));
        }
        Some(Self(crate::arch::gf_reduce_wide(path, acc.0)))
    }

    /// [`Field::with_wide_products`] with `kernel` held instead of the
    /// selected one.
    #[doc(hidden)]
    pub fn with_wide_products_on<W: WithWideProducts<Self>>(
        kernel: Gf2Kernel,
        work: W,
    ) -> Option<W::Output> {
        Some(crate::arch::gf_run_held(Gf2Path::new(kernel)?, work))
    }

    /// [`Field::narrow`] on `kernel`.
    #[doc(hidden)]
    pub fn narrow_on(kernel: Gf2Kernel, w: Gf2Wide) -> Option<Self> {
        let path = Gf2Path::new(kernel)?;
        Some(Self(crate::arch::gf_reduce_wide(path, w.0)))
    }

    /// [`Field::dot`] on `kernel`.
    #[doc(hidden)]
    pub fn dot_on(kernel: Gf2Kernel, a: &[Self], b: &[Self]) -> Option<Self> {
        let path = Gf2Path::new(kernel)?;
        Some(crate::arch::gf_dot(path, a, b))
    }

    /// [`Field::axpy`] on `kernel`.
    #[doc(hidden)]
    pub fn axpy_on(kernel: Gf2Kernel, y: &mut [Self], u: Self, x: &[Self]) -> bool {
        Gf2Path::new(kernel)
            .map(|p| crate::arch::gf_axpy(p, y, u, x))
            .is_some()
    }

    /// [`Field::lincomb2`] on `kernel`.
    #[doc(hidden)]
    pub fn lincomb2_on(
        kernel: Gf2Kernel,
        out: &mut [Self],
        (a, x): (Self, &[Self]),
        (b, y): (Self, &[Self]),
    ) -> bool {
        Gf2Path::new(kernel)
            .map(|p| crate::arch::gf_lincomb2(p, out, a, x, b, y))
            .is_some()
    }

    /// [`Field::mul_assign_slice`] on `kernel`.
    #[doc(hidden)]
    pub fn mul_assign_slice_on(kernel: Gf2Kernel, x: &mut [Self], y: &[Self]) -> bool {
        Gf2Path::new(kernel)
            .map(|p| crate::arch::gf_mul_assign(p, x, y))
            .is_some()
    }

    /// [`Field::butterflies`] on `kernel`.
    #[doc(hidden)]
    pub fn butterflies_on(
        kernel: Gf2Kernel,
        lo: &mut [Self],
        hi: &mut [Self],
        t: Self,
        kind: Butterfly,
    ) -> bool {
        Gf2Path::new(kernel)
            .map(|p| crate::arch::gf_butterflies(p, lo, hi, t, kind))
            .is_some()
    }

    /// [`Field::butterfly_level`] on `kernel`.
    #[doc(hidden)]
    pub fn butterfly_level_on(
        kernel: Gf2Kernel,
        data: &mut [Self],
        half: usize,
        twiddles: &[Self],
        kind: Butterfly,
    ) -> bool {
        crate::traits::check_level(data.len(), half, twiddles.len());
        Gf2Path::new(kernel)
            .map(|p| crate::arch::gf_butterfly_level(p, data, half, twiddles, kind))
            .is_some()
    }

    /// `self^(2^k)`.
    fn square_times(mut self, k: u32) -> Self {
        for _ in 0..k {
            self = self.mul_elt(&self);
        }
        self
    }

    #[inline(always)]
    fn add_elt(&self, rhs: &Self) -> Self {
        Self(self.0 ^ rhs.0)
    }

    #[inline(always)]
    fn sub_elt(&self, rhs: &Self) -> Self {
        Self(self.0 ^ rhs.0)
    }

    #[inline(always)]
    fn neg_elt(&self) -> Self {
        *self
    }

    #[inline(always)]
    fn mul_elt(&self, rhs: &Self) -> Self {
        Self(crate::arch::gf_mul(Gf2Path::selected(), self.0, rhs.0))
    }

    /// [`Field::dot`] without carry-less multiply instructions (products
    /// summed unreduced, one reduction). Exposed so tests and benchmarks can
    /// compare it against the hardware path.
    #[doc(hidden)]
    pub fn dot_portable(a: &[Self], b: &[Self]) -> Self {
        crate::arch::gf_dot(Gf2Path::PORTABLE, a, b)
    }
}

crate::ops::impl_field_ops!(Gf2_128);

impl core::fmt::Debug for Gf2_128 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Gf2_128(0x{:032x})", self.0)
    }
}

/// Constant-time `u128` equality (`subtle` only covers up to `u64`).
fn ct_eq_u128(a: u128, b: u128) -> Choice {
    (a as u64).ct_eq(&(b as u64)) & ((a >> 64) as u64).ct_eq(&((b >> 64) as u64))
}

impl ConstantTimeEq for Gf2_128 {
    fn ct_eq(&self, other: &Self) -> Choice {
        ct_eq_u128(self.0, other.0)
    }
}

impl ConditionallySelectable for Gf2_128 {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let lo = u64::conditional_select(&(a.0 as u64), &(b.0 as u64), choice);
        let hi = u64::conditional_select(&((a.0 >> 64) as u64), &((b.0 >> 64) as u64), choice);
        Self(((hi as u128) << 64) | lo as u128)
    }
}

impl Field for Gf2_128 {
    const FIELD_ID: u32 = 4;
    const KIND: FieldKind = FieldKind::Binary;
    const BITS: u32 = 128;
    const BYTES: usize = 16;
    const SUBFIELD_BYTES: usize = 2;
    const SAMPLE_BYTES: usize = 16;
    const SUBFIELD_SAMPLE_BYTES: usize = 2;
    const ZERO: Self = Self(0);
    const ONE: Self = Self(1);

    type Repr = [u8; 16];

    type Wide = Gf2Wide;

    #[inline(always)]
    fn mul_wide(a: Self, b: Self) -> Gf2Wide {
        Gf2Wide(crate::arch::gf_mul_wide(Gf2Path::selected(), a.0, b.0))
    }

    #[inline(always)]
    fn widen(a: Self) -> Gf2Wide {
        Gf2Wide::from_element(a.0)
    }

    #[inline(always)]
    fn narrow(w: Gf2Wide) -> Self {
        Self(crate::arch::gf_reduce_wide(Gf2Path::selected(), w.0))
    }

    #[inline]
    fn with_wide_products<W: WithWideProducts<Self>>(work: W) -> W::Output {
        crate::arch::gf_run_held(Gf2Path::selected(), work)
    }

    fn to_repr(&self) -> Self::Repr {
        self.0.to_le_bytes()
    }

    fn hash_word(&self) -> u64 {
        // The prover codes millions of wire values per proof through this:
        // one round (see `mix64_once`).
        crate::traits::mix64_once((self.0 as u64) ^ ((self.0 >> 64) as u64).rotate_left(29))
    }

    fn from_repr(repr: &Self::Repr) -> CtOption<Self> {
        CtOption::new(Self(u128::from_le_bytes(*repr)), Choice::from(1))
    }

    fn is_in_subfield(&self) -> bool {
        self.to_subfield_coordinates().is_some().into()
    }

    fn write_subfield_bytes(&self, out: &mut [u8]) -> bool {
        let coords = self.to_subfield_coordinates();
        let ok: bool = coords.is_some().into();
        out[..2].copy_from_slice(&coords.unwrap_or(0).to_le_bytes());
        ok
    }

    fn from_subfield_bytes(bytes: &[u8]) -> Option<Self> {
        let pair: [u8; 2] = bytes.try_into().ok()?;
        Some(Self::from_subfield_coordinates(u16::from_le_bytes(pair)))
    }

    fn from_uniform_bytes(bytes: &[u8]) -> Option<Self> {
        assert_eq!(
            bytes.len(),
            Self::SAMPLE_BYTES,
            "one sampling attempt reads SAMPLE_BYTES"
        );
        Self::from_bytes(bytes)
    }

    fn from_uniform_subfield_bytes(bytes: &[u8]) -> Option<Self> {
        assert_eq!(
            bytes.len(),
            Self::SUBFIELD_SAMPLE_BYTES,
            "one sampling attempt reads SUBFIELD_SAMPLE_BYTES"
        );
        Self::from_subfield_bytes(bytes)
    }

    fn from_index(j: u64) -> Self {
        assert!(
            j < 1 << 16,
            "GF(2^128) evaluation points are indexed by j < 2^16"
        );
        Self::from_subfield_coordinates(j as u16)
    }

    fn from_u64(n: u64) -> Self {
        Self((n & 1) as u128)
    }

    fn dot(a: &[Self], b: &[Self]) -> Self {
        crate::arch::gf_dot(Gf2Path::selected(), a, b)
    }

    fn axpy(y: &mut [Self], u: Self, x: &[Self]) {
        crate::arch::gf_axpy(Gf2Path::selected(), y, u, x)
    }

    fn lincomb2(out: &mut [Self], a: Self, x: &[Self], b: Self, y: &[Self]) {
        crate::arch::gf_lincomb2(Gf2Path::selected(), out, a, x, b, y)
    }

    fn mul_assign_slice(x: &mut [Self], y: &[Self]) {
        crate::arch::gf_mul_assign(Gf2Path::selected(), x, y)
    }

    fn butterflies(lo: &mut [Self], hi: &mut [Self], t: Self, kind: Butterfly) {
        crate::arch::gf_butterflies(Gf2Path::selected(), lo, hi, t, kind)
    }

    fn butterfly_level(data: &mut [Self], half: usize, twiddles: &[Self], kind: Butterfly) {
        crate::traits::check_level(data.len(), half, twiddles.len());
        crate::arch::gf_butterfly_level(Gf2Path::selected(), data, half, twiddles, kind)
    }

    fn invert(&self) -> CtOption<Self> {
        // Itoh–Tsujii: a⁻¹ = a^(2^128 − 2) = (a^(2^127 − 1))², building
        // t_k = a^(2^k − 1) along k = 1, 2, 3, 6, 7, 14, 15, 30, 31, 62, 63,
        // 126, 127 via t_(j+k) = t_j^(2^k)·t_k.
        let a = *self;
        let t1 = a;
        let t2 = t1.square_times(1) * t1;
        let t3 = t2.square_times(1) * t1;
        let t6 = t3.square_times(3) * t3;
        let t7 = t6.square_times(1) * t1;
        let t14 = t7.square_times(7) * t7;
        let t15 = t14.square_times(1) * t1;
        let t30 = t15.square_times(15) * t15;
        let t31 = t30.square_times(1) * t1;
        let t62 = t31.square_times(31) * t31;
        let t63 = t62.square_times(1) * t1;
        let t126 = t63.square_times(63) * t63;
        let t127 = t126.square_times(1) * t1;
        let inv = t127.square_times(1);
        CtOption::new(inv, !self.is_zero())
    }
}
