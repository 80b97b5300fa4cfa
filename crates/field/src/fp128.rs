//! The 128-bit prime field of ISRG's `rfc-1` test vector.

use crate::prime::prime_field;

prime_field!(
    /// An element of GF(p) for p = 2^128 − 2^108 + 1 (circuit field ID 6).
    /// Only used by test vectors.
    Fp128,
    limbs = 2,
    modulus = [0x0000_0000_0000_0001, 0xffff_f000_0000_0000],
    field_id = 6
);

impl Fp128 {
    fn fermat_inverse(&self) -> Self {
        self.pow_p_minus_2()
    }

    fn dot_impl(a: &[Self], b: &[Self]) -> Self {
        a.iter()
            .zip(b)
            .fold(Self([0; 2]), |acc, (x, y)| acc + *x * *y)
    }

    fn axpy_impl(y: &mut [Self], u: Self, x: &[Self]) {
        crate::traits::ops_loops::axpy(y, u, x)
    }

    fn mul_assign_slice_impl(x: &mut [Self], y: &[Self]) {
        crate::traits::ops_loops::mul_assign_slice(x, y)
    }

    fn lincomb2_impl(out: &mut [Self], a: Self, x: &[Self], b: Self, y: &[Self]) {
        crate::traits::ops_loops::lincomb2(out, a, x, b, y)
    }

    fn mul_assign_gaussian_slice_impl(x: &mut [[Self; 2]], y: &[[Self; 2]]) {
        crate::traits::ops_loops::mul_assign_gaussian_slice(x, y)
    }

    fn gaussian_slice_is_kernel_impl() -> bool {
        false
    }

    #[inline(always)]
    fn mont_mul(a: &[u64; 2], b: &[u64; 2]) -> [u64; 2] {
        Self::MODULUS.mul(a, b)
    }
}
