//! Unreduced products through a kernel chosen once for a whole loop.
//!
//! [`Field::mul_wide`] and [`Field::narrow`] each look up the process's
//! kernel choice: a load of the cached selection and two branches per
//! product. In a loop that does one to three products per step among forty
//! other instructions (the verifier's term pass over millions of circuit
//! terms) those look-ups were 6 % of the loop's instructions, and their
//! loads and branches kept values out of registers.
//! [`Field::with_wide_products`]
//! looks it up once and hands the loop a [`WideProducts`] value whose type
//! *is* the kernel, so the loop is compiled once per kernel with no
//! selection left inside it.

use crate::Field;

/// Unreduced products and their reduction on one kernel, held for a loop
/// (see the module documentation). Kernels that run instruction-set code
/// are handed out only by [`Field::with_wide_products`], after the CPU was
/// checked; for a given field every implementation computes exactly what
/// [`Field::mul_wide`] and [`Field::narrow`] do.
pub trait WideProducts<F: Field>: Copy {
    /// `a·b`, unreduced, as [`Field::mul_wide`].
    fn mul_wide(self, a: F, b: F) -> F::Wide;

    /// The element a sum stands for, as [`Field::narrow`].
    fn narrow(self, w: F::Wide) -> F;
}

/// A computation that runs with a held [`WideProducts`] kernel: the loop
/// body generic over the kernel type, which [`Field::with_wide_products`]
/// instantiates for the kernel this process selected.
pub trait WithWideProducts<F: Field> {
    /// What the computation returns.
    type Output;

    /// Runs the computation with `products`.
    fn run<P: WideProducts<F>>(self, products: P) -> Self::Output;
}

/// The kernel each product selects for itself: the default for fields
/// whose products have no per-call selection worth hoisting.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelectedPerProduct;

impl<F: Field> WideProducts<F> for SelectedPerProduct {
    #[inline(always)]
    fn mul_wide(self, a: F, b: F) -> F::Wide {
        F::mul_wide(a, b)
    }

    #[inline(always)]
    fn narrow(self, w: F::Wide) -> F {
        F::narrow(w)
    }
}
