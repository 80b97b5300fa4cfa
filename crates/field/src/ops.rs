//! Operator boilerplate shared by every field type.
//!
//! Each type provides inherent `add_elt`, `sub_elt`, `mul_elt` and `neg_elt`;
//! this macro wires them to the `core::ops` traits the [`crate::Field`] trait
//! requires (by value and by reference), plus `Sum` and `Product`.

macro_rules! impl_field_ops {
    ($t:ty) => {
        impl core::ops::Add for $t {
            type Output = $t;
            #[inline(always)]
            fn add(self, rhs: $t) -> $t {
                self.add_elt(&rhs)
            }
        }
        impl<'a> core::ops::Add<&'a $t> for $t {
            type Output = $t;
            #[inline(always)]
            fn add(self, rhs: &'a $t) -> $t {
                self.add_elt(rhs)
            }
        }
        impl core::ops::Sub for $t {
            type Output = $t;
            #[inline(always)]
            fn sub(self, rhs: $t) -> $t {
                self.sub_elt(&rhs)
            }
        }
        impl<'a> core::ops::Sub<&'a $t> for $t {
            type Output = $t;
            #[inline(always)]
            fn sub(self, rhs: &'a $t) -> $t {
                self.sub_elt(rhs)
            }
        }
        impl core::ops::Mul for $t {
            type Output = $t;
            #[inline(always)]
            fn mul(self, rhs: $t) -> $t {
                self.mul_elt(&rhs)
            }
        }
        impl<'a> core::ops::Mul<&'a $t> for $t {
            type Output = $t;
            #[inline(always)]
            fn mul(self, rhs: &'a $t) -> $t {
                self.mul_elt(rhs)
            }
        }
        impl core::ops::Neg for $t {
            type Output = $t;
            #[inline(always)]
            fn neg(self) -> $t {
                self.neg_elt()
            }
        }
        impl core::ops::AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: $t) {
                *self = self.add_elt(&rhs);
            }
        }
        impl<'a> core::ops::AddAssign<&'a $t> for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: &'a $t) {
                *self = self.add_elt(rhs);
            }
        }
        impl core::ops::SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: $t) {
                *self = self.sub_elt(&rhs);
            }
        }
        impl<'a> core::ops::SubAssign<&'a $t> for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: &'a $t) {
                *self = self.sub_elt(rhs);
            }
        }
        impl core::ops::MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: $t) {
                *self = self.mul_elt(&rhs);
            }
        }
        impl<'a> core::ops::MulAssign<&'a $t> for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: &'a $t) {
                *self = self.mul_elt(rhs);
            }
        }
        impl core::iter::Sum for $t {
            fn sum<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::Field>::ZERO, |acc, x| acc + x)
            }
        }
        impl<'a> core::iter::Sum<&'a $t> for $t {
            fn sum<I: Iterator<Item = &'a $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::Field>::ZERO, |acc, x| acc + x)
            }
        }
        impl core::iter::Product for $t {
            fn product<I: Iterator<Item = $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::Field>::ONE, |acc, x| acc * x)
            }
        }
        impl<'a> core::iter::Product<&'a $t> for $t {
            fn product<I: Iterator<Item = &'a $t>>(iter: I) -> $t {
                iter.fold(<$t as $crate::Field>::ONE, |acc, x| acc * x)
            }
        }
    };
}

pub(crate) use impl_field_ops;
