//! Power-of-two roots of unity for prime fields, derived from the modulus
//! alone (read off `(−1).to_repr()`), so no per-field constant is needed.

use core::ops::Mul;

use longfellow_field::Field;

use super::fp2::Fp2;

/// A little-endian unsigned integer, just big enough for exponents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BigUint(Vec<u8>);

impl BigUint {
    /// `p − 1`, the canonical encoding of `−1`.
    pub(crate) fn modulus_minus_one<F: Field>() -> Self {
        Self((-F::ONE).to_repr().as_ref().to_vec())
    }

    /// `self + x`.
    pub(crate) fn add_small(mut self, x: u8) -> Self {
        let mut carry = u16::from(x);
        for byte in &mut self.0 {
            let sum = u16::from(*byte) + carry;
            *byte = sum as u8;
            carry = sum >> 8;
        }
        if carry != 0 {
            self.0.push(carry as u8);
        }
        self
    }

    /// Number of trailing zero bits (0 for zero).
    pub(crate) fn trailing_zeros(&self) -> u32 {
        let mut tz = 0;
        for &byte in &self.0 {
            if byte != 0 {
                return tz + byte.trailing_zeros();
            }
            tz += 8;
        }
        0
    }

    /// `self >> bits`.
    pub(crate) fn shr(&self, bits: u32) -> Self {
        let bytes = (bits / 8) as usize;
        let rem = bits % 8;
        let src = self.0.get(bytes..).unwrap_or(&[]);
        let out = (0..src.len())
            .map(|i| {
                let lo = src[i] >> rem;
                let hi = match (rem, src.get(i + 1)) {
                    (0, _) | (_, None) => 0,
                    (r, Some(&next)) => next << (8 - r),
                };
                lo | hi
            })
            .collect();
        Self(out)
    }

    /// Bit `i` (little-endian).
    fn bit(&self, i: usize) -> bool {
        self.0.get(i / 8).is_some_and(|b| (b >> (i % 8)) & 1 == 1)
    }

    /// `base^self` by left-to-right square-and-multiply.
    pub(crate) fn pow<T: Copy + Mul<Output = T>>(&self, base: T, one: T) -> T {
        let mut acc = one;
        for i in (0..8 * self.0.len()).rev() {
            acc = acc * acc;
            if self.bit(i) {
                acc = acc * base;
            }
        }
        acc
    }
}

/// `x^(2^times)`.
fn square_times<F: Field>(mut x: F, times: u32) -> F {
    for _ in 0..times {
        x = x.square();
    }
    x
}

/// A primitive `2^v`-th root of unity in `F` with `v = 2-adicity of p − 1`,
/// together with `v`. Raises small integers `c` to the odd part of `p − 1`
/// until the result has full order (exactly when `c` is a non-residue).
pub(crate) fn prime_two_adic_root<F: Field>() -> Option<(F, u32)> {
    let pm1 = BigUint::modulus_minus_one::<F>();
    let v = pm1.trailing_zeros();
    let odd = pm1.shr(v);
    (2..200u64).find_map(|c| {
        let g = odd.pow(F::from_u64(c), F::ONE);
        (square_times(g, v - 1) == -F::ONE).then_some((g, v))
    })
}

/// For `p ≡ 3 (mod 4)`: a primitive `2^v`-th root of unity in `F[i]` with
/// `v = 2-adicity of p + 1`, together with `v`. The root has norm one.
///
/// `z ↦ z^(p−1) = conj(z)/z` maps onto the cyclic norm-one subgroup of
/// order `p + 1`; raising that to the odd part of `p + 1` lands in its
/// 2-Sylow subgroup, and succeeds for about half of the candidates `z`.
pub(crate) fn fp2_two_adic_root<F: Field>() -> Option<(Fp2<F>, u32)> {
    let pp1 = BigUint::modulus_minus_one::<F>().add_small(2);
    let v = pp1.trailing_zeros();
    let odd = pp1.shr(v);
    let minus_one = -Fp2::<F>::ONE;
    (1..200u64).find_map(|a| {
        let z = Fp2::new(F::from_u64(a), F::ONE);
        let inv_norm = Option::<F>::from(z.norm().invert())?;
        let zc = z.conj();
        let u = (zc * zc).scale(inv_norm);
        let g = odd.pow(u, Fp2::ONE);
        (g.square_times(v - 1) == minus_one).then_some((g, v))
    })
}
