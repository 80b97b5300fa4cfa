//! `F[i]/(i² + 1)`, the quadratic extension used as the FFT domain for
//! prime fields with `p ≡ 3 (mod 4)` (where −1 is not a square, so the
//! extension is a field).
//!
//! Its multiplicative group has order `p² − 1 = (p − 1)(p + 1)`; for P-256,
//! `p + 1` is divisible by `2^96`, which supplies the power-of-two roots of
//! unity that `F` itself lacks (`p − 1` is only divisible by 2).

use core::ops::{Add, Mul, Neg, Sub};

use longfellow_field::Field;

/// `re + im·i` with `i² = −1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fp2<F> {
    pub(crate) re: F,
    pub(crate) im: F,
}

impl<F: Field> Fp2<F> {
    pub(crate) const ZERO: Self = Self {
        re: F::ZERO,
        im: F::ZERO,
    };
    pub(crate) const ONE: Self = Self {
        re: F::ONE,
        im: F::ZERO,
    };

    pub(crate) fn new(re: F, im: F) -> Self {
        Self { re, im }
    }

    /// The Frobenius `x ↦ x^p`, which fixes `F` and sends `i` to `−i`.
    /// On the norm-one subgroup (where all our roots of unity live) it is
    /// also the inverse.
    #[inline]
    pub(crate) fn conj(self) -> Self {
        Self {
            re: self.re,
            im: -self.im,
        }
    }

    /// `self·i`.
    #[inline]
    pub(crate) fn mul_i(self) -> Self {
        Self {
            re: -self.im,
            im: self.re,
        }
    }

    /// `self·(−i)`.
    #[inline]
    pub(crate) fn mul_neg_i(self) -> Self {
        Self {
            re: self.im,
            im: -self.re,
        }
    }

    /// `self · conj(self) = re² + im²`, an element of `F`.
    pub(crate) fn norm(self) -> F {
        self.re.square() + self.im.square()
    }

    /// Multiplication by an element of `F`.
    #[inline]
    pub(crate) fn scale(self, s: F) -> Self {
        Self {
            re: self.re * s,
            im: self.im * s,
        }
    }

    /// `self^(2^times)`.
    pub(crate) fn square_times(mut self, times: u32) -> Self {
        for _ in 0..times {
            self = self * self;
        }
        self
    }
}

impl<F: Field> Add for Fp2<F> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        Self {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
}

impl<F: Field> Sub for Fp2<F> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self {
            re: self.re - o.re,
            im: self.im - o.im,
        }
    }
}

impl<F: Field> Neg for Fp2<F> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self {
            re: -self.re,
            im: -self.im,
        }
    }
}

impl<F: Field> Mul for Fp2<F> {
    type Output = Self;
    /// Karatsuba: three base-field multiplications.
    #[inline]
    fn mul(self, o: Self) -> Self {
        let rr = self.re * o.re;
        let ii = self.im * o.im;
        let cross = (self.re + self.im) * (o.re + o.im);
        Self {
            re: rr - ii,
            im: cross - rr - ii,
        }
    }
}
