//! Property tests run identically for every field: ring and field laws,
//! encodings, subfield round trips and the sampling rule. Prime-field
//! products are also checked against an independent shift-and-add modular
//! multiplication, and GF(2^128) products against a bitwise definition.
#![allow(clippy::unwrap_used)]

use longfellow_field::{batch_invert, Field, FieldKind, Fp128, Fp256, Gf2_128};
use proptest::prelude::*;

/// Mostly uniform elements, with the edge cases mixed in.
fn element<F: Field>() -> impl Strategy<Value = F> {
    prop_oneof![
        1 => Just(F::ZERO),
        1 => Just(F::ONE),
        1 => Just(-F::ONE),
        2 => any::<u64>().prop_map(F::from_u64),
        10 => prop::collection::vec(any::<u8>(), F::SAMPLE_BYTES)
            .prop_filter_map("rejected sample", |b| F::from_uniform_bytes(&b)),
    ]
}

// The by-reference operators are part of the trait and tested deliberately.
#[allow(clippy::op_ref)]
fn check_ring_laws<F: Field>(a: F, b: F, c: F) {
    assert_eq!((a + b) + c, a + (b + c));
    assert_eq!(a + b, b + a);
    assert_eq!(a + F::ZERO, a);
    assert_eq!(a + (-a), F::ZERO);
    assert_eq!(a - b, a + (-b));
    assert_eq!((a - b) + b, a);
    assert_eq!((a * b) * c, a * (b * c));
    assert_eq!(a * b, b * a);
    assert_eq!(a * F::ONE, a);
    assert_eq!(a * F::ZERO, F::ZERO);
    assert_eq!(a * (b + c), a * b + a * c);
    assert_eq!(a.square(), a * a);
    assert_eq!(a.double(), a + a);
    assert_eq!(a + &b, a + b);
    assert_eq!(a - &b, a - b);
    assert_eq!(a * &b, a * b);
    let mut d = a;
    d += b;
    d -= c;
    d *= b;
    assert_eq!(d, (a + b - c) * b);
    assert_eq!(bool::from(a.ct_eq_field(&b)), a == b);
}

trait CtEqField {
    fn ct_eq_field(&self, other: &Self) -> longfellow_field::subtle::Choice;
}

impl<F: Field> CtEqField for F {
    fn ct_eq_field(&self, other: &Self) -> longfellow_field::subtle::Choice {
        longfellow_field::subtle::ConstantTimeEq::ct_eq(self, other)
    }
}

fn check_inverse<F: Field>(a: F) {
    let inv = a.invert();
    if a == F::ZERO {
        assert!(bool::from(inv.is_none()));
    } else {
        let inv = inv.unwrap();
        assert_eq!(a * inv, F::ONE);
        assert_eq!(inv.invert().unwrap(), a);
    }
}

fn check_batch_invert<F: Field>(values: Vec<F>) {
    let mut batch = values.clone();
    batch_invert(&mut batch);
    for (v, inv) in values.iter().zip(&batch) {
        assert_eq!(*inv, v.invert().unwrap_or(F::ZERO));
    }
}

fn check_encoding<F: Field>(a: F) {
    let repr = a.to_repr();
    assert_eq!(repr.as_ref().len(), F::BYTES);
    assert_eq!(F::from_repr(&repr).unwrap(), a);
    let mut buf = vec![0u8; F::BYTES + 3];
    a.write_bytes(&mut buf);
    assert_eq!(&buf[..F::BYTES], repr.as_ref());
    assert_eq!(F::from_bytes(&buf[..F::BYTES]), Some(a));
    assert_eq!(F::from_bytes(&buf), None);
    assert_eq!(F::from_uniform_bytes(repr.as_ref()), Some(a));
}

/// `from_uniform_bytes` equals `from_repr` on canonical input and rejects
/// exactly the non-canonical ones (sample length = encoding length here).
fn check_sampling_agrees<F: Field>(bytes: Vec<u8>) {
    assert_eq!(F::SAMPLE_BYTES, F::BYTES);
    let decoded = F::from_bytes(&bytes);
    assert_eq!(F::from_uniform_bytes(&bytes), decoded);
    if F::KIND == FieldKind::Binary {
        assert!(decoded.is_some());
    }
}

fn check_subfield<F: Field>(a: F) {
    let mut buf = vec![0u8; F::SUBFIELD_BYTES];
    if a.is_in_subfield() {
        assert!(a.write_subfield_bytes(&mut buf));
        assert_eq!(F::from_subfield_bytes(&buf), Some(a));
    } else {
        assert!(!a.write_subfield_bytes(&mut buf));
    }
}

fn check_subfield_sample<F: Field>(bytes: Vec<u8>) {
    if let Some(a) = F::from_uniform_subfield_bytes(&bytes) {
        assert!(a.is_in_subfield());
        let mut buf = vec![0u8; F::SUBFIELD_BYTES];
        assert!(a.write_subfield_bytes(&mut buf));
        if F::SUBFIELD_SAMPLE_BYTES == F::SUBFIELD_BYTES {
            assert_eq!(buf, bytes);
        }
    }
}

fn check_small_integers<F: Field>(x: u32, y: u32) {
    let (x, y) = (x as u64, y as u64);
    assert_eq!(F::from_u64(x) + F::from_u64(y), F::from_u64(x + y));
    assert_eq!(F::from_u64(x) * F::from_u64(y), F::from_u64(x * y));
    let (i, j) = (x & 0xffff, y & 0xffff);
    assert!(F::from_index(i).is_in_subfield());
    match F::KIND {
        FieldKind::Prime => assert_eq!(F::from_index(i), F::from_u64(i)),
        // inj is GF(2)-linear in the bits of the index.
        FieldKind::Binary => {
            assert_eq!(F::from_index(i) + F::from_index(j), F::from_index(i ^ j))
        }
    }
}

macro_rules! field_laws {
    ($module:ident, $field:ty) => {
        mod $module {
            use super::*;

            proptest! {
                #[test]
                fn ring_laws(a in element::<$field>(), b in element::<$field>(), c in element::<$field>()) {
                    check_ring_laws(a, b, c);
                }

                #[test]
                fn inverse(a in element::<$field>()) {
                    check_inverse(a);
                }

                #[test]
                fn batch_inverse(values in prop::collection::vec(element::<$field>(), 0..12)) {
                    check_batch_invert(values);
                }

                #[test]
                fn encoding_roundtrip(a in element::<$field>()) {
                    check_encoding(a);
                }

                #[test]
                fn sampling_agrees_with_decoding(bytes in prop::collection::vec(any::<u8>(), <$field as Field>::BYTES)) {
                    check_sampling_agrees::<$field>(bytes);
                }

                #[test]
                fn subfield_roundtrip(a in element::<$field>(), j in 0u64..65536) {
                    check_subfield(a);
                    check_subfield(<$field>::from_index(j));
                }

                #[test]
                fn subfield_sampling(bytes in prop::collection::vec(any::<u8>(), <$field as Field>::SUBFIELD_SAMPLE_BYTES)) {
                    check_subfield_sample::<$field>(bytes);
                }

                #[test]
                fn small_integers(x in any::<u32>(), y in any::<u32>()) {
                    check_small_integers::<$field>(x, y);
                }
            }
        }
    };
}

field_laws!(fp256, Fp256);
field_laws!(fp128, Fp128);
field_laws!(gf2_128, Gf2_128);

/// Independent modular arithmetic on little-endian limbs: shift-and-add
/// multiplication with compare-and-subtract reduction.
mod reference {
    pub fn add_mod<const N: usize>(a: [u64; N], b: [u64; N], p: [u64; N]) -> [u64; N] {
        let mut s = [0u64; N];
        let mut carry = false;
        for i in 0..N {
            let (x, c1) = a[i].overflowing_add(b[i]);
            let (x, c2) = x.overflowing_add(carry as u64);
            s[i] = x;
            carry = c1 || c2;
        }
        if carry || !less_than(s, p) {
            let mut borrow = false;
            for i in 0..N {
                let (x, b1) = s[i].overflowing_sub(p[i]);
                let (x, b2) = x.overflowing_sub(borrow as u64);
                s[i] = x;
                borrow = b1 || b2;
            }
        }
        s
    }

    pub fn less_than<const N: usize>(a: [u64; N], b: [u64; N]) -> bool {
        for i in (0..N).rev() {
            if a[i] != b[i] {
                return a[i] < b[i];
            }
        }
        false
    }

    pub fn mul_mod<const N: usize>(a: [u64; N], b: [u64; N], p: [u64; N]) -> [u64; N] {
        let mut r = [0u64; N];
        for i in (0..64 * N).rev() {
            r = add_mod(r, r, p);
            if (b[i / 64] >> (i % 64)) & 1 == 1 {
                r = add_mod(r, a, p);
            }
        }
        r
    }
}

fn limbs<const N: usize>(bytes: &[u8]) -> [u64; N] {
    let mut out = [0u64; N];
    for (i, chunk) in bytes.chunks(8).enumerate() {
        out[i] = u64::from_le_bytes(chunk.try_into().unwrap());
    }
    out
}

fn clmul_reference(a: u128, b: u128) -> u128 {
    // Schoolbook product into 256 bits, then clear bits 255..128 one at a
    // time with x^128 = x^7 + x^2 + x + 1.
    let mut lo = 0u128;
    let mut hi = 0u128;
    for i in 0..128 {
        if (b >> i) & 1 == 1 {
            lo ^= a << i;
            if i > 0 {
                hi ^= a >> (128 - i);
            }
        }
    }
    for i in (128..256).rev() {
        if (hi >> (i - 128)) & 1 == 1 {
            let shift = i - 128;
            for t in [7usize, 2, 1, 0] {
                let pos = shift + t;
                if pos >= 128 {
                    hi ^= 1 << (pos - 128);
                } else {
                    lo ^= 1 << pos;
                }
            }
            hi ^= 1 << (i - 128);
        }
    }
    lo
}

proptest! {
    #[test]
    fn fp256_mul_matches_reference(a in element::<Fp256>(), b in element::<Fp256>()) {
        let p = Fp256::MODULUS_LIMBS;
        let expected = reference::mul_mod::<4>(limbs(&a.to_repr()), limbs(&b.to_repr()), p);
        prop_assert_eq!(limbs::<4>(&(a * b).to_repr()), expected);
    }

    #[test]
    fn fp128_mul_matches_reference(a in element::<Fp128>(), b in element::<Fp128>()) {
        let p = Fp128::MODULUS_LIMBS;
        let expected = reference::mul_mod::<2>(limbs(&a.to_repr()), limbs(&b.to_repr()), p);
        prop_assert_eq!(limbs::<2>(&(a * b).to_repr()), expected);
    }

    #[test]
    fn gf2_128_mul_matches_reference(a in any::<u128>(), b in any::<u128>()) {
        let (x, y) = (Gf2_128::from_u128(a), Gf2_128::from_u128(b));
        let expected = clmul_reference(a, b);
        prop_assert_eq!((x * y).to_u128(), expected);
        prop_assert_eq!(x.mul_portable(y).to_u128(), expected);
    }

    #[test]
    fn gf2_128_subfield_closed_under_mul(i in 0u16.., j in 0u16..) {
        let prod = Gf2_128::from_subfield_coordinates(i) * Gf2_128::from_subfield_coordinates(j);
        prop_assert!(prod.is_in_subfield());
    }

    /// Integers in [p, 2^(64·N)) are rejected by decoding and by sampling.
    #[test]
    fn prime_fields_reject_non_canonical(k in any::<u64>()) {
        fn at_or_above_p<const N: usize>(p: [u64; N], k: u64, top: bool) -> Vec<u8> {
            let mut v = p;
            if top {
                // 2^(64N) − 1 − k
                v = [u64::MAX; N];
                v[0] -= k;
            } else {
                // p + k (no overflow: 2^(64N) − p > 2^64 for both primes)
                let (s, mut carry) = v[0].overflowing_add(k);
                v[0] = s;
                for limb in v.iter_mut().skip(1) {
                    let (s, c) = limb.overflowing_add(carry as u64);
                    *limb = s;
                    carry = c;
                }
                assert!(!carry);
            }
            v.iter().flat_map(|l| l.to_le_bytes()).collect()
        }
        for top in [false, true] {
            let b = at_or_above_p(Fp256::MODULUS_LIMBS, k, top);
            prop_assert!(Fp256::from_bytes(&b).is_none());
            prop_assert!(Fp256::from_uniform_bytes(&b).is_none());
            let b = at_or_above_p(Fp128::MODULUS_LIMBS, k, top);
            prop_assert!(Fp128::from_bytes(&b).is_none());
            prop_assert!(Fp128::from_uniform_bytes(&b).is_none());
        }
    }
}
