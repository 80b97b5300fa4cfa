//! Everything CPU-specific, behind a safe API: carry-less multiplication
//! for GF(2^128) (x86_64 PCLMULQDQ and 256/512-bit VPCLMULQDQ in
//! [`x86_64`], aarch64 PMULL in [`aarch64`]) and the P-256 base field in
//! x86_64 assembly, with the [`portable`] twins they are tested against and
//! the [`select`]ion of which runs.
//!
//! This is the only module of the crate that uses `unsafe`. Running an
//! instruction from an extension is sound only once the CPU is known to
//! have it: each dispatch below holds a witness ([`Gf2Path`],
//! [`P256Asm`]) that can only be made after detection confirmed the
//! instructions, and every `unsafe` block says which check covers it.
#![allow(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

pub(crate) mod portable;
pub(crate) mod select;
pub(crate) mod wide;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use crate::held::{WideProducts, WithWideProducts};
use crate::{Butterfly, Fp256, Gf2Wide, Gf2_128};
use select::Gf2Kernel;
#[cfg(target_arch = "x86_64")]
use select::P256Kernel;

/// A GF(2^128) kernel this CPU has been checked to run: the only way the
/// dispatch functions below reach instruction-set code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Gf2Path(Gf2Kernel);

impl Gf2Path {
    /// The kernel the process selected (the selection only picks
    /// available kernels).
    #[inline(always)]
    pub(crate) fn selected() -> Self {
        Self(select::gf2())
    }

    /// `kernel`, if this CPU has its instructions.
    pub(crate) fn new(kernel: Gf2Kernel) -> Option<Self> {
        kernel.is_available().then_some(Self(kernel))
    }

    /// The portable path (always available).
    pub(crate) const PORTABLE: Self = Self(Gf2Kernel::Portable);
}

// Slices shorter than these take the next narrower kernel: a 512-bit
// register holds four elements, a 256-bit one two, and below two
// registers' worth the set-up costs more than it saves.
#[cfg(target_arch = "x86_64")]
const MIN_512: usize = 8;
#[cfg(target_arch = "x86_64")]
const MIN_256: usize = 4;

/// `a·b`.
#[inline(always)]
pub(crate) fn gf_mul(path: Gf2Path, a: u128, b: u128) -> u128 {
    match path.0 {
        Gf2Kernel::Portable => portable::mul(a, b),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: every kernel but `Portable` needs PCLMULQDQ, and `path`
        // exists only if its kernel passed detection.
        _ => unsafe { x86_64::clmul128::mul_inline(a, b) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the only other aarch64 kernel, `Clmul128`, is available
        // only with NEON and PMULL, checked when `path` was made.
        _ => unsafe { aarch64::pmull::mul(a, b) },
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        _ => portable::mul(a, b),
    }
}

/// `a·b` unreduced, as the parts of a [`crate::gf2_128::Gf2Wide`]: the
/// held kernel's product, picked per call.
#[inline(always)]
pub(crate) fn gf_mul_wide(path: Gf2Path, a: u128, b: u128) -> wide::Parts {
    let (a, b) = (Gf2_128(a), Gf2_128(b));
    match path.0 {
        Gf2Kernel::Portable => HeldGf2::<false> { _witness: path }.mul_wide(a, b).0,
        _ => HeldGf2::<true> { _witness: path }.mul_wide(a, b).0,
    }
}

/// The element a sum of [`gf_mul_wide`] parts stands for, on `path`.
#[inline(always)]
pub(crate) fn gf_reduce_wide(path: Gf2Path, parts: wide::Parts) -> u128 {
    let w = Gf2Wide(parts);
    match path.0 {
        Gf2Kernel::Portable => HeldGf2::<false> { _witness: path }.narrow(w).0,
        _ => HeldGf2::<true> { _witness: path }.narrow(w).0,
    }
}

/// The single unreduced product every kernel but `Portable` shares: one
/// 128-bit carry-less multiply sequence (x86_64 PCLMULQDQ, aarch64 PMULL;
/// the portable product on other architectures, which have no other
/// kernel).
///
/// # Safety
/// The CPU must have the carry-less multiply: true whenever a detected
/// kernel other than `Portable` is selected.
#[inline(always)]
unsafe fn carryless_mul_wide(a: u128, b: u128) -> wide::Parts {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller guarantees PCLMULQDQ (SSE2 is baseline).
    let parts = unsafe { x86_64::clmul128::product_inline(a, b) };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: the caller guarantees NEON and PMULL.
    let parts = unsafe { aarch64::pmull::product_parts(a, b) };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let parts = portable::mul_wide(a, b);
    parts
}

/// The reduction matching [`carryless_mul_wide`] (it also takes the
/// portable product's parts: every split of the polynomial narrows alike).
///
/// # Safety
/// As [`carryless_mul_wide`].
#[inline(always)]
unsafe fn carryless_reduce_wide(parts: wide::Parts) -> u128 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller guarantees PCLMULQDQ (SSE2 is baseline).
    let element = unsafe { x86_64::clmul128::reduce_inline(parts) };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: the caller guarantees NEON and PMULL.
    let element = unsafe { aarch64::pmull::reduce_parts(parts) };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let element = portable::reduce_wide(parts);
    element
}

/// Runs `work` with `path` held as a type ([`crate::held`]): the
/// portable kernel, or the carry-less product every other kernel shares
/// for single products.
#[inline]
pub(crate) fn gf_run_held<W: WithWideProducts<Gf2_128>>(path: Gf2Path, work: W) -> W::Output {
    match path.0 {
        Gf2Kernel::Portable => work.run(HeldGf2::<false> { _witness: path }),
        _ => work.run(HeldGf2::<true> { _witness: path }),
    }
}

/// A [`Gf2Path`] held for a loop (or one product), with whether it
/// multiplies carry-less in its type; made only in this module, by
/// [`gf_run_held`], [`gf_mul_wide`] and [`gf_reduce_wide`], each of which
/// makes `HeldGf2<true>` only from a path other than `Portable` (one whose
/// kernel passed detection). The path is kept as the witness of that
/// detection; the products read only the type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeldGf2<const CLMUL: bool> {
    _witness: Gf2Path,
}

impl<const CLMUL: bool> WideProducts<Gf2_128> for HeldGf2<CLMUL> {
    #[inline(always)]
    fn mul_wide(self, a: Gf2_128, b: Gf2_128) -> Gf2Wide {
        Gf2Wide(if CLMUL {
            // SAFETY: `CLMUL` means the held path is not `Portable` (see
            // `HeldGf2`): its kernel has the carry-less multiply.
            unsafe { carryless_mul_wide(a.0, b.0) }
        } else {
            wide::from_u128(portable::mul_wide(a.0, b.0))
        })
    }

    #[inline(always)]
    fn narrow(self, w: Gf2Wide) -> Gf2_128 {
        Gf2_128(if CLMUL {
            // SAFETY: as in `mul_wide`.
            unsafe { carryless_reduce_wide(w.0) }
        } else {
            portable::reduce_wide(wide::into_u128(w.0))
        })
    }
}

/// `Σ a_i·b_i` with one reduction.
#[inline]
pub(crate) fn gf_dot(path: Gf2Path, a: &[Gf2_128], b: &[Gf2_128]) -> Gf2_128 {
    #[cfg(target_arch = "x86_64")]
    {
        let n = a.len().min(b.len());
        use x86_64::{clmul128, clmul256, clmul512};
        // SAFETY (all three): `path` exists only if its kernel passed
        // detection; Clmul512 means AVX-512F, VPCLMULQDQ, PCLMULQDQ and
        // SSE2, Clmul256 AVX2, VPCLMULQDQ, PCLMULQDQ and SSE2, and every
        // kernel but Portable includes PCLMULQDQ and SSE2.
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if n >= MIN_512 => {
                // SAFETY: see above.
                return Gf2_128(unsafe { clmul512::dot(a, b) });
            }
            Gf2Kernel::Clmul256 if n >= MIN_256 => {
                // SAFETY: see above.
                return Gf2_128(unsafe { clmul256::dot(a, b) });
            }
            // SAFETY: see above.
            _ => return Gf2_128(unsafe { clmul128::dot(a, b) }),
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: a non-portable aarch64 path means NEON and PMULL were
            // detected.
            return Gf2_128(unsafe { aarch64::pmull::dot(a, b) });
        }
    }
    let _ = path;
    portable::dot(a, b)
}

/// `y_i ← y_i + u·x_i`.
#[inline]
pub(crate) fn gf_axpy(path: Gf2Path, y: &mut [Gf2_128], u: Gf2_128, x: &[Gf2_128]) {
    #[cfg(target_arch = "x86_64")]
    {
        let n = y.len().min(x.len());
        use x86_64::{clmul128, clmul256, clmul512};
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if n >= MIN_512 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::axpy(y, u.0, x) };
            }
            Gf2Kernel::Clmul256 if n >= MIN_256 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul256::axpy(y, u.0, x) };
            }
            // SAFETY: as in `gf_dot`.
            _ => return unsafe { clmul128::axpy(y, u.0, x) },
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: as in `gf_dot`.
            return unsafe { aarch64::pmull::axpy(y, u.0, x) };
        }
    }
    let _ = path;
    portable::axpy(y, u, x)
}

/// `out_i ← a·x_i + b·y_i`.
#[inline]
pub(crate) fn gf_lincomb2(
    path: Gf2Path,
    out: &mut [Gf2_128],
    a: Gf2_128,
    x: &[Gf2_128],
    b: Gf2_128,
    y: &[Gf2_128],
) {
    #[cfg(target_arch = "x86_64")]
    {
        let n = out.len().min(x.len()).min(y.len());
        use x86_64::{clmul128, clmul256, clmul512};
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if n >= MIN_512 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::lincomb2(out, a.0, x, b.0, y) };
            }
            Gf2Kernel::Clmul256 if n >= MIN_256 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul256::lincomb2(out, a.0, x, b.0, y) };
            }
            // SAFETY: as in `gf_dot`.
            _ => return unsafe { clmul128::lincomb2(out, a.0, x, b.0, y) },
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: as in `gf_dot`.
            return unsafe { aarch64::pmull::lincomb2(out, a.0, x, b.0, y) };
        }
    }
    let _ = path;
    portable::lincomb2(out, a, x, b, y)
}

/// `x_i ← x_i·y_i`.
#[inline]
pub(crate) fn gf_mul_assign(path: Gf2Path, x: &mut [Gf2_128], y: &[Gf2_128]) {
    #[cfg(target_arch = "x86_64")]
    {
        let n = x.len().min(y.len());
        use x86_64::{clmul128, clmul256, clmul512};
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if n >= MIN_512 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::mul_assign(x, y) };
            }
            Gf2Kernel::Clmul256 if n >= MIN_256 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul256::mul_assign(x, y) };
            }
            // SAFETY: as in `gf_dot`.
            _ => return unsafe { clmul128::mul_assign(x, y) },
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: as in `gf_dot`.
            return unsafe { aarch64::pmull::mul_assign(x, y) };
        }
    }
    let _ = path;
    portable::mul_assign(x, y)
}

/// Butterflies between `lo` and `hi` with one twiddle.
#[inline]
pub(crate) fn gf_butterflies(
    path: Gf2Path,
    lo: &mut [Gf2_128],
    hi: &mut [Gf2_128],
    t: Gf2_128,
    kind: Butterfly,
) {
    #[cfg(target_arch = "x86_64")]
    {
        let n = lo.len().min(hi.len());
        use x86_64::{clmul128, clmul256, clmul512};
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if n >= MIN_512 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::butterflies(lo, hi, t.0, kind) };
            }
            Gf2Kernel::Clmul256 if n >= MIN_256 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul256::butterflies(lo, hi, t.0, kind) };
            }
            // SAFETY: as in `gf_dot`.
            _ => return unsafe { clmul128::butterflies(lo, hi, t.0, kind) },
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: as in `gf_dot`.
            return unsafe { aarch64::pmull::butterflies(lo, hi, t.0, kind) };
        }
    }
    let _ = path;
    portable::butterflies(lo, hi, t, kind)
}

/// One FFT level (shape already checked by the caller).
#[inline]
pub(crate) fn gf_butterfly_level(
    path: Gf2Path,
    data: &mut [Gf2_128],
    half: usize,
    twiddles: &[Gf2_128],
    kind: Butterfly,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use x86_64::{clmul128, clmul256, clmul512};
        // Halves of four or more elements fill whole 512-bit vectors;
        // halves of one or two are regrouped, eight elements at a time.
        match path.0 {
            Gf2Kernel::Portable => {}
            Gf2Kernel::Clmul512 if half >= 4 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::butterfly_level(data, half, twiddles, kind) };
            }
            Gf2Kernel::Clmul512 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul512::butterfly_level_small(data, half, twiddles, kind) };
            }
            Gf2Kernel::Clmul256 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul256::butterfly_level(data, half, twiddles, kind) };
            }
            Gf2Kernel::Clmul128 => {
                // SAFETY: as in `gf_dot`.
                return unsafe { clmul128::butterfly_level(data, half, twiddles, kind) };
            }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if path.0 != Gf2Kernel::Portable {
            // SAFETY: as in `gf_dot`.
            return unsafe { aarch64::pmull::butterfly_level(data, half, twiddles, kind) };
        }
    }
    let _ = path;
    portable::butterfly_level(data, half, twiddles, kind)
}

// ---------------------------------------------------------------------------
// P-256 base field.

/// Proof that the CPU has BMI2 and ADX and the selection allows the
/// assembly, the only way to reach the MULX kernels: [`P256Asm::detect`]
/// is its sole constructor, so holding one makes them safe to call.
/// Callers detect once per slice kernel rather than once per product.
/// Uninhabited off x86_64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256Asm(AsmWitness);

#[cfg(target_arch = "x86_64")]
type AsmWitness = ();
#[cfg(not(target_arch = "x86_64"))]
type AsmWitness = core::convert::Infallible;

impl P256Asm {
    /// The token if this process runs the assembly (cached selection).
    #[inline(always)]
    pub(crate) fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if matches!(
                select::p256(),
                P256Kernel::MulxAdx | P256Kernel::MulxAdxIfma
            ) {
                return Some(Self(()));
            }
        }
        None
    }

    /// `a·b` as eight little-endian limbs (any 256-bit inputs).
    #[inline(always)]
    pub(crate) fn wide_mul(self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { x86_64::p256::wide_mul(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            match self.0 {}
        }
    }

    /// The Montgomery product `a·b·2⁻²⁵⁶ mod p` of reduced inputs, fully
    /// reduced.
    #[inline(always)]
    pub(crate) fn mont_mul(self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { x86_64::p256::mont_mul(a, b) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            match self.0 {}
        }
    }

    /// `(a + b) mod p` of reduced inputs (baseline instructions; the
    /// token only spares the caller the selection check).
    #[inline(always)]
    pub(crate) fn add(self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            x86_64::p256::add(a, b)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (a, b);
            match self.0 {}
        }
    }

    /// The Montgomery square `a²·2⁻²⁵⁶ mod p` of a reduced input, fully
    /// reduced.
    #[inline(always)]
    pub(crate) fn mont_square(self, a: &[u64; 4]) -> [u64; 4] {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so BMI2 and ADX are present.
            unsafe { x86_64::p256::mont_square(a) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = a;
            match self.0 {}
        }
    }
}

/// Proof that the CPU has AVX-512F and AVX-512 IFMA and the selection
/// allows 512-bit paths: the only way to reach the eight-lane P-256 slice
/// kernels. Each method does the longest prefix of whole eight-element
/// blocks and returns its length; the caller finishes the rest (at most
/// seven elements) with the scalar kernel. Uninhabited off x86_64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256Ifma(AsmWitness);

impl P256Ifma {
    /// The token if this process runs the IFMA slices (cached selection).
    #[inline(always)]
    pub(crate) fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if select::p256() == P256Kernel::MulxAdxIfma {
                return Some(Self(()));
            }
        }
        None
    }

    /// `x_i ← x_i·y_i` over the whole blocks.
    #[inline]
    pub(crate) fn mul_assign_slice(self, x: &mut [Fp256], y: &[Fp256]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: `self` exists, so AVX-512F and IFMA are present;
            // elements are reduced residues, which the kernel keeps.
            unsafe { x86_64::p256_ifma::mul_assign_slice(limbs_mut(x), limbs(y)) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (x, y);
            match self.0 {}
        }
    }

    /// `Σ x_i·y_i` over the whole blocks, as an integer below 2^320 that
    /// is congruent to the sum of the Montgomery products (unreduced), and
    /// how many elements that covers.
    #[inline]
    pub(crate) fn dot(self, x: &[Fp256], y: &[Fp256]) -> ([u64; 5], usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            // SAFETY: as in `mul_assign_slice` (nothing is written).
            unsafe { x86_64::p256_ifma::dot(limbs(x), limbs(y)) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (x, y);
            match self.0 {}
        }
    }

    /// Products in `F[i]/(i² + 1)` over the whole blocks (four pairs
    /// each).
    #[inline]
    pub(crate) fn mul_assign_gaussian_slice(self, x: &mut [[Fp256; 2]], y: &[[Fp256; 2]]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            let n = x.len().min(y.len());
            let (x, y) = (x[..n].as_flattened_mut(), y[..n].as_flattened());
            // SAFETY: as in `mul_assign_slice`.
            let done = unsafe { x86_64::p256_ifma::mul_assign_gaussian(limbs_mut(x), limbs(y)) };
            done / 2
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (x, y);
            match self.0 {}
        }
    }

    /// `y_i ← y_i + u·x_i` over the whole blocks.
    #[inline]
    pub(crate) fn axpy(self, y: &mut [Fp256], u: &Fp256, x: &[Fp256]) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            let u = &limbs(core::slice::from_ref(u))[0];
            // SAFETY: as in `mul_assign_slice`.
            unsafe { x86_64::p256_ifma::axpy(limbs_mut(y), u, limbs(x)) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (y, u, x);
            match self.0 {}
        }
    }

    /// `out_i ← a·x_i + b·y_i` over the whole blocks.
    #[inline]
    pub(crate) fn lincomb2(
        self,
        out: &mut [Fp256],
        a: &Fp256,
        x: &[Fp256],
        b: &Fp256,
        y: &[Fp256],
    ) -> usize {
        #[cfg(target_arch = "x86_64")]
        {
            let () = self.0;
            let (a, b) = (
                &limbs(core::slice::from_ref(a))[0],
                &limbs(core::slice::from_ref(b))[0],
            );
            // SAFETY: as in `mul_assign_slice`.
            unsafe { x86_64::p256_ifma::lincomb2(limbs_mut(out), a, limbs(x), b, limbs(y)) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (out, a, x, b, y);
            match self.0 {}
        }
    }
}

/// The residues' limbs of a slice of elements.
#[cfg(target_arch = "x86_64")]
fn limbs(x: &[Fp256]) -> &[[u64; 4]] {
    // SAFETY: `Fp256` is `repr(transparent)` over `[u64; 4]` (same size,
    // alignment and validity), so the slice reinterprets element for
    // element with the same length and lifetime.
    unsafe { core::slice::from_raw_parts(x.as_ptr().cast::<[u64; 4]>(), x.len()) }
}

/// [`limbs`], mutable. Writers must store reduced residues.
#[cfg(target_arch = "x86_64")]
fn limbs_mut(x: &mut [Fp256]) -> &mut [[u64; 4]] {
    // SAFETY: as in `limbs`; the borrow of `x` is moved into the result.
    unsafe { core::slice::from_raw_parts_mut(x.as_mut_ptr().cast::<[u64; 4]>(), x.len()) }
}

/// `(a + b) mod p` for reduced P-256 inputs in x86_64 carry-chain
/// assembly, or `None` where that is not selected (the caller runs the
/// generic code).
#[inline(always)]
pub(crate) fn p256_add(a: &[u64; 4], b: &[u64; 4]) -> Option<[u64; 4]> {
    #[cfg(target_arch = "x86_64")]
    {
        if select::p256() != P256Kernel::Portable {
            return Some(x86_64::p256::add(a, b));
        }
    }
    let _ = (a, b);
    None
}

/// `(a − b) mod p`; see [`p256_add`].
#[inline(always)]
pub(crate) fn p256_sub(a: &[u64; 4], b: &[u64; 4]) -> Option<[u64; 4]> {
    #[cfg(target_arch = "x86_64")]
    {
        if select::p256() != P256Kernel::Portable {
            return Some(x86_64::p256::sub(a, b));
        }
    }
    let _ = (a, b);
    None
}
