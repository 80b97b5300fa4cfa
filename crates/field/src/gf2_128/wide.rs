//! Unreduced sums of GF(2^128) products.

use crate::arch::wide;
use core::ops::AddAssign;

/// A carry-less 256-bit polynomial `low ⊕ middle·x^64 ⊕ high·x^128`, the
/// parts in that order: a sum of [`crate::Field::mul_wide`] products whose
/// reduction modulo x^128 + x^7 + x^2 + x + 1 waits until
/// [`crate::Field::narrow`]. Adding two is three XORs, while each deferred
/// reduction is two more carry-less multiplies and their shifts: loops
/// that sum many products (the verifier's term pass) reduce once per sum.
///
/// The split into parts is not unique (the hardware paths fill the middle
/// part with the cross products, the portable one leaves it zero); the
/// polynomial is, and every path narrows any split to the same element.
#[derive(Clone, Copy, Debug)]
pub struct Gf2Wide(pub(crate) wide::Parts);

impl Default for Gf2Wide {
    #[inline(always)]
    fn default() -> Self {
        Self(wide::zero())
    }
}

impl Gf2Wide {
    /// `a` as a sum (low part `a`).
    #[inline(always)]
    pub(crate) fn from_element(a: u128) -> Self {
        Self(wide::from_u128([a, 0, 0]))
    }
}

impl AddAssign for Gf2Wide {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        self.0 = wide::xor(self.0, rhs.0);
    }
}
